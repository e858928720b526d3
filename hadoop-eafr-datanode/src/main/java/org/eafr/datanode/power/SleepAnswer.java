package org.eafr.datanode.power;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What the NameNode tells a DataNode's in-band power agent about itself, one line on the wire from the NameNode's
 * admin handler to the agent:
 * {@code eafr-sleep/1 datanode=UUID name=HOST/IP:PORT admin-state=STATE alive=true request=COMMAND host=HOST}.
 * {@code request} is {@code none} when the power manager has not marked the DataNode to sleep; {@code host} is the
 * power inventory host the request was recorded for ({@code -} when none). No value contains a space. The NameNode
 * writes it with {@code org.eafr.namenode.admin.SleepAnswerLine}; {@code SleepAnswerTest} parses that writer's lines
 * and checks the identifiers and commands against the NameNode's, so the two sides cannot drift apart.
 *
 * <p>{@link #decideFor} is the agent's whole rule: act only on an answer about its own DataNode that carries a
 * request and shows the DataNode IN_MAINTENANCE (HDFS's guarantee that every block has its minimum live replicas
 * elsewhere); otherwise refuse, saying why.
 */
public final class SleepAnswer {
  /** The NameNode's refresh identifier the admin handler answers under (Hadoop's generic refresh protocol). */
  public static final String IDENTIFIER = "eafr";
  /**
   * What the admin handler's answers carry as sender (Hadoop's refresh registry names each answer's handler by class
   * and identity hash); an answer from any other handler is ignored.
   */
  public static final String SENDER_PREFIX = "org.eafr.namenode.admin.AdminHandler@";
  /** The return code of an answer from the active NameNode. */
  public static final int ACTIVE_ANSWER = 0;
  public static final String[] POLL = {"sleep", "poll"};
  public static final String[] TAKE = {"sleep", "take"};
  /** The agent's report that the request it took could not be carried out: {@code sleep failed UUID REASON}. */
  public static final String[] FAILED = {"sleep", "failed"};
  public static final String HEADER = "eafr-sleep/1";
  public static final String NO_REQUEST = "none";
  public static final String IN_MAINTENANCE = "IN_MAINTENANCE";
  private static final String[] FIELDS = {"datanode", "name", "admin-state", "alive", "request", "host"};

  private final String dataNodeUuid;
  private final String name;
  private final String adminState;
  private final boolean alive;
  private final String request;
  private final String host;

  public SleepAnswer(String dataNodeUuid, String name, String adminState, boolean alive, String request,
      String host) {
    this.dataNodeUuid = checkWord("datanode", dataNodeUuid);
    this.name = checkWord("name", name);
    this.adminState = checkWord("admin-state", adminState);
    this.alive = alive;
    this.request = checkWord("request", request);
    this.host = checkWord("host", host);
  }

  private static String checkWord(String field, String value) {
    Objects.requireNonNull(value, field);
    if (value.isEmpty() || value.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("sleep answer field " + field + " must be one word, not '" + value + "'");
    }
    return value;
  }

  /**
   * Parses a line the NameNode's admin handler wrote.
   *
   * @throws IllegalArgumentException naming what is wrong: another header (not the EAFR sleep handler's answer), a
   *     missing, repeated or unknown field
   */
  public static SleepAnswer parse(String line) {
    String[] words = line.trim().split(" ");
    if (!HEADER.equals(words[0])) {
      throw new IllegalArgumentException("not an EAFR sleep answer (expected it to start with " + HEADER + "): '"
          + line + "'");
    }
    Map<String, String> fields = new LinkedHashMap<>();
    for (int i = 1; i < words.length; i++) {
      int equals = words[i].indexOf('=');
      String key = equals < 0 ? words[i] : words[i].substring(0, equals);
      if (equals < 0 || !Arrays.asList(FIELDS).contains(key) || fields.put(key, words[i].substring(
          equals + 1)) != null) {
        throw new IllegalArgumentException("malformed EAFR sleep answer: field '" + words[i] + "' in '" + line + "'");
      }
    }
    for (String field : FIELDS) {
      if (!fields.containsKey(field)) {
        throw new IllegalArgumentException("malformed EAFR sleep answer: no field " + field + " in '" + line + "'");
      }
    }
    return new SleepAnswer(fields.get("datanode"), fields.get("name"), fields.get("admin-state"),
        Boolean.parseBoolean(fields.get("alive")), fields.get("request"), fields.get("host"));
  }

  /** The agent's rule for its DataNode {@code ownUuid}: what to do with this answer, and why. */
  public Decision decideFor(String ownUuid) {
    if (!dataNodeUuid.equals(ownUuid)) {
      return new Decision(Decision.Action.IGNORE, "the answer is about DataNode " + dataNodeUuid + " (" + name
          + "), not this one (" + ownUuid + ")");
    }
    if (!hasRequest()) {
      return new Decision(Decision.Action.STAY, "no sleep request for " + name);
    }
    if (!IN_MAINTENANCE.equals(adminState)) {
      return new Decision(Decision.Action.REFUSE, "the NameNode asks " + name + " to sleep (" + request + ", host "
          + host + ") but shows it " + adminState + ", not " + IN_MAINTENANCE + ": its blocks may have no other live"
          + " replica, so it stays up");
    }
    return new Decision(Decision.Action.SLEEP, "the NameNode asks " + name + " to sleep (" + request + ", host "
        + host + ") and shows it " + IN_MAINTENANCE);
  }

  public boolean hasRequest() {
    return !NO_REQUEST.equals(request);
  }

  public String dataNodeUuid() {
    return dataNodeUuid;
  }

  public String name() {
    return name;
  }

  public String adminState() {
    return adminState;
  }

  public boolean alive() {
    return alive;
  }

  /** The power command recorded (graceful-off, forced-off), or {@value #NO_REQUEST}. */
  public String request() {
    return request;
  }

  public String host() {
    return host;
  }

  @Override
  public String toString() {
    return HEADER + " datanode=" + dataNodeUuid + " name=" + name + " admin-state=" + adminState + " alive=" + alive
        + " request=" + request + " host=" + host;
  }

  /** What the agent does with an answer: nothing (not about it, or no request), refuse, or go to sleep. */
  public static final class Decision {
    /** The four outcomes. */
    public enum Action { IGNORE, STAY, REFUSE, SLEEP }

    private final Action action;
    private final String reason;

    Decision(Action action, String reason) {
      this.action = action;
      this.reason = reason;
    }

    public Action action() {
      return action;
    }

    public String reason() {
      return reason;
    }

    @Override
    public String toString() {
      return action + ": " + reason;
    }
  }
}
