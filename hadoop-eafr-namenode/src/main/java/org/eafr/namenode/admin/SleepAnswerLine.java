package org.eafr.namenode.admin;

/**
 * The line the admin handler answers a DataNode's in-band power agent with ({@code sleep poll|take UUID}):
 * {@code eafr-sleep/1 datanode=UUID name=HOST/IP:PORT admin-state=STATE alive=true request=COMMAND host=HOST}, each
 * value one word. The agent (hadoop-eafr-datanode's {@code SleepAnswer}) parses it; its test parses lines written here.
 */
public final class SleepAnswerLine {
  public static final String HEADER = "eafr-sleep/1";
  /** The request of a DataNode the power manager has not marked to sleep. */
  public static final String NO_REQUEST = "none";
  /** The host of an answer with no request. */
  public static final String NO_HOST = "-";

  private SleepAnswerLine() {
  }

  public static String encode(String dataNodeUuid, String name, String adminState, boolean alive, String request,
      String host) {
    return HEADER + " datanode=" + word("datanode", dataNodeUuid) + " name=" + word("name", name) + " admin-state="
        + word("admin-state", adminState) + " alive=" + alive + " request=" + word("request", request) + " host="
        + word("host", host);
  }

  private static String word(String field, String value) {
    if (value == null || value.isEmpty() || value.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("sleep answer field " + field + " must be one word, not '" + value + "'");
    }
    return value;
  }
}
