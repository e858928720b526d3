package org.eafr.namenode.admin;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One {@code hdfs eafr} command as it travels from the tool to the NameNode: a verb, its operands and whether the
 * answer is JSON. Parsed the same way on both sides, so a misspelled command is refused by the tool before any call,
 * and by the NameNode if an older or newer tool sends one it does not know.
 */
public final class AdminRequest {
  /** The commands, each with its operands' usage and whether it changes anything (superuser only). */
  public enum Verb {
    STATUS("status", "", false, "the NameNode's EAFR state: HA state, roles in force, monitor counters, DataNodes"),
    NODES("nodes", "", false, "each DataNode: rack, role, gear group, power state, admin state, load, storage, watts"),
    ROLES_RELOAD("roles reload", "", true, "re-read eafr.roles.file; a bad file changes nothing"),
    // the DataNode power agent's verbs: allowed to that DataNode's own principal and the superuser (SleepAgentAnswers)
    SLEEP_POLL("sleep poll", "DATANODE-UUID", false, "DataNode power agent: this DataNode's state and sleep request"),
    SLEEP_TAKE("sleep take", "DATANODE-UUID", false, "DataNode power agent: take this DataNode's sleep request"),
    GEAR("gear", "N|up|down|auto", true, "shift to gear N, one up or down (manual mode), or let the load decide"
        + " (auto); an unsafe gear-down is refused"),
    POWER_ON("power on", "HOST", true, "power a DataNode host on through its inventory driver"),
    POWER_OFF("power off", "HOST", true, "power a host off; refused unless HDFS shows it IN_MAINTENANCE"),
    POWER_STATUS("power status", "HOST", false, "read a host's power state from its driver"),
    POWER_CLEAR("power clear", "HOST", true, "lift a host's power quarantine: automatic power commands reach it"
        + " again"),
    PLAN("plan", "", false, "what the next replication round would do, and the gear controller's last decision;"
        + " changes nothing");

    private final String words;
    private final String operands;
    private final boolean changes;
    private final String help;

    Verb(String words, String operands, boolean changes, String help) {
      this.words = words;
      this.operands = operands;
      this.changes = changes;
      this.help = help;
    }

    public String words() {
      return words;
    }

    /** Whether the command changes state, which only the HDFS superuser may do. */
    public boolean changesState() {
      return changes;
    }

    String usageLine() {
      String line = words + (operands.isEmpty() ? "" : " " + operands);
      return String.format(Locale.ROOT, "  %-22s %s%s", line + " [-json]", help, changes ? " (superuser)" : "");
    }
  }

  public static final String JSON_FLAG = "-json";

  private final Verb verb;
  private final List<String> operands;
  private final boolean json;

  private AdminRequest(Verb verb, List<String> operands, boolean json) {
    this.verb = verb;
    this.operands = List.copyOf(operands);
    this.json = json;
  }

  /**
   * Parses {@code args} (the words after {@code hdfs eafr}, without tool options).
   *
   * @throws IllegalArgumentException naming the word at fault and the commands there are
   */
  public static AdminRequest parse(String... args) {
    List<String> words = new ArrayList<>(Arrays.asList(args));
    boolean json = words.remove(JSON_FLAG);
    if (words.isEmpty()) {
      throw new IllegalArgumentException("no command given; the commands are:\n" + usage());
    }
    for (Verb verb : Verb.values()) {
      List<String> verbWords = Arrays.asList(verb.words.split(" "));
      if (words.size() >= verbWords.size() && words.subList(0, verbWords.size()).equals(verbWords)) {
        List<String> operands = words.subList(verbWords.size(), words.size());
        int expected = verb.operands.isEmpty() ? 0 : verb.operands.split(" ").length;
        if (operands.size() != expected) {
          throw new IllegalArgumentException("'" + verb.words + "' takes " + (expected == 0 ? "no operands"
              : "the operands " + verb.operands) + ", not " + operands + "; the commands are:\n" + usage());
        }
        return new AdminRequest(verb, operands, json);
      }
    }
    throw new IllegalArgumentException("unknown command '" + String.join(" ", words) + "'; the commands are:\n"
        + usage());
  }

  /** One line per command, for the tool's help and for errors. */
  public static String usage() {
    StringBuilder usage = new StringBuilder();
    for (Verb verb : Verb.values()) {
      usage.append(verb.usageLine()).append('\n');
    }
    return usage.toString();
  }

  public Verb verb() {
    return verb;
  }

  public List<String> operands() {
    return operands;
  }

  public boolean json() {
    return json;
  }

  /** The words to send: the verb, its operands, and the JSON flag when set. */
  public String[] toArgs() {
    List<String> args = new ArrayList<>(Arrays.asList(verb.words.split(" ")));
    args.addAll(operands);
    if (json) {
      args.add(JSON_FLAG);
    }
    return args.toArray(new String[0]);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof AdminRequest)) {
      return false;
    }
    AdminRequest other = (AdminRequest) o;
    return verb == other.verb && operands.equals(other.operands) && json == other.json;
  }

  @Override
  public int hashCode() {
    return Objects.hash(verb, operands, json);
  }

  @Override
  public String toString() {
    return String.join(" ", toArgs());
  }
}
