package org.eafr.namenode.admin;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.eafr.placement.settings.KnownKeys;

/**
 * One {@code hdfs eafr} command as it travels from the tool to the NameNode: a verb, its operands and whether the
 * answer is JSON. Parsed the same way on both sides, so a misspelled command is refused by the tool before any call,
 * and by the NameNode if an older or newer tool sends one it does not know.
 */
public final class AdminRequest {
  /** The commands, each with its operands' usage and whether it changes anything (superuser only). */
  public enum Verb {
    STATUS("status", "", false, "the NameNode's EAFR state: HA state, roles, monitor, gears, energy, power"
        + " counters, each DataNode (superuser)"),
    NODES("nodes", "", false, "each DataNode: rack, role, gear group, power state, admin state, load, storage, watts"
        + " (superuser)"),
    ROLES_RELOAD("roles reload", "", true, "re-read eafr.roles.file; a bad file changes nothing"),
    SETTINGS_RELOAD("settings reload", "", true, "re-read hdfs-site.xml, putting eafr.reads.warm-up.ms in force; a"
        + " bad value changes nothing"),
    // the DataNode power agent's verbs: allowed to that DataNode's own principal and the superuser (SleepAgentAnswers)
    SLEEP_POLL("sleep poll", "DATANODE-UUID", false, "this DataNode's state and sleep request"),
    SLEEP_TAKE("sleep take", "DATANODE-UUID", false, "take this DataNode's sleep request"),
    SLEEP_FAILED("sleep failed", "DATANODE-UUID REASON", false, "the sleep request this DataNode took could not be"
        + " carried out (REASON: one argument, the agent's message); the host stays up"),
    GEAR("gear", "N|up|down|auto", true, "shift to gear N (0 keeps the fewest DataNodes on;"
        + " 'status' shows the range) or one up or down, which ends auto mode; or 'auto': the load decides. A gear-down"
        + " that would leave a block without a live replica is refused"),
    GEAR_CANCEL("gear cancel", "", true, "end a shift that cannot finish: DataNodes not running stay asleep,"
        + " every running one leaves maintenance; the files owing moves stay owed; ends auto mode"),
    POWER_ON("power on", "HOST", true, "power a DataNode host on through its BMC (HOST as"
        + " named in eafr.power.inventory.file); waits for the outcome up to -timeout SECONDS (default "
        + AdminTool.DEFAULT_POWER_TIMEOUT_SECONDS + "; 0: do not wait)"),
    POWER_OFF("power off", "HOST", true, "power a host off (gracefully); refused unless the power-off"
        + " guard passes: its DataNodes IN_MAINTENANCE and every block they hold live elsewhere; waits as power on"),
    POWER_STATUS("power status", "HOST", false, "a host's last power state read from its BMC, any action under"
        + " way, its quarantine and last error; starts one fresh read for the next status (superuser)"),
    POWER_RELOAD("power reload", "", true, "re-read eafr.power.inventory.file and the BMC passwords; put in force"
        + " only if all of it is good and no host asleep or switching loses its driver; else nothing changes"),
    POWER_CLEAR("power clear", "HOST", true, "lift a host's power quarantine: automatic power commands reach it"
        + " again"),
    // the tool's own verb: it follows a power command it gave until the command's outcome (superuser)
    POWER_OUTCOME("power outcome", "HOST ID", false, "the outcome of power command ID on HOST, once it is done"),
    PLAN("plan", "", false, "what the next replication round would do, and the gear controller's last decision;"
        + " changes nothing (superuser)"),
    RELAYOUT_START("relayout start", "", true, "move every block stored off the geared layout's homes onto them"
        + " (throttled by eafr.relayout.*), or go on with a stopped relayout; needs the top gear"),
    RELAYOUT_GROW("relayout grow", "", true, "grow the equal-work layout's lowest gear to the p 'status' names, so"
        + " that it holds one whole copy of the data at its fill, and relay out the blocks onto the grown layout;"
        + " needs the top gear"),
    RELAYOUT_STATUS("relayout status", "", false, "the relayout's progress: files walked, moves done and in flight,"
        + " bytes moved against the lower bound (superuser)"),
    RELAYOUT_STOP("relayout stop", "", true, "start no more relayout moves (those in flight finish); 'relayout start'"
        + " goes on from where it stopped");

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

    /** The command as typed, e.g. {@code power on HOST}. */
    String synopsis() {
      return words + (operands.isEmpty() ? "" : " " + operands);
    }

    String usageLine() {
      return String.format(Locale.ROOT, "  %-28s %s%s", synopsis() + " [-json]", help, changes ? " (superuser)" : "");
    }

    /** The DataNode power agent's verbs, which operators do not type. */
    boolean forAgents() {
      return this == SLEEP_POLL || this == SLEEP_TAKE || this == SLEEP_FAILED;
    }

    /** Verbs operators do not type: the agent's, and the tool's own {@code power outcome}. */
    boolean hidden() {
      return forAgents() || this == POWER_OUTCOME;
    }
  }

  public static final String JSON_FLAG = "-json";
  /** Every option of {@code hdfs eafr}, for the nearest one to a misspelled option. */
  static final List<String> OPTIONS = List.of(JSON_FLAG, "-namenode", AdminTool.TIMEOUT_FLAG, "-help");
  /** The operand standing for a gear number in a command's operands ({@code gear N|up|down|auto}). */
  private static final String GEAR_NUMBER = "N";

  /**
   * A command line that is no request, named by the parser: what is wrong, and the commands it was likely meant as
   * (the command whose operands are wrong, the nearest to a misspelled one, those a first word begins), so the tool
   * shows their usage lines only.
   */
  public static final class UsageException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final List<Verb> meant;

    UsageException(String message, List<Verb> meant) {
      super(message);
      this.meant = List.copyOf(meant);
    }

    public List<Verb> meant() {
      return meant;
    }
  }

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
   * @throws UsageException naming the word at fault and what would be right (the nearest command or option, or the
   *     operands the command takes); the tool prints the usage of the command meant after it, the NameNode adds the
   *     list of commands to its answer
   */
  public static AdminRequest parse(String... args) {
    List<String> words = new ArrayList<>(Arrays.asList(args));
    boolean json = words.removeIf(JSON_FLAG::equals);
    checkNoOtherOption(words);
    if (words.isEmpty()) {
      throw new UsageException("no command given", List.of());
    }
    Verb verb = verbOf(words).orElseThrow(() -> unknownCommand(words));
    List<String> operands = words.subList(verb.words.split(" ").length, words.size());
    checkOperands(verb, operands);
    return new AdminRequest(verb, operands, json);
  }

  /** Refuses a word that looks like an option (a negative number is an operand), naming the nearest option. */
  private static void checkNoOtherOption(List<String> words) {
    for (String word : words) {
      if (word.startsWith("-") && !word.matches("-[0-9]+")) {
        throw new UsageException("unknown option '" + word + "'" + KnownKeys.nearest(word, OPTIONS)
            .map(option -> "; did you mean '" + option + "'?").orElse("; the options are " + OPTIONS), List.of());
      }
    }
  }

  /** The command {@code words} begin with; of two that share a first word ('gear', 'gear cancel'), the longer. */
  private static Optional<Verb> verbOf(List<String> words) {
    Verb found = null;
    for (Verb verb : Verb.values()) {
      List<String> verbWords = Arrays.asList(verb.words.split(" "));
      if (words.size() >= verbWords.size() && words.subList(0, verbWords.size()).equals(verbWords)
          && (found == null || verbWords.size() > found.words.split(" ").length)) {
        found = verb;
      }
    }
    return Optional.ofNullable(found);
  }

  /** Refuses operands that are too few, too many, or not what the command takes. */
  private static void checkOperands(Verb verb, List<String> operands) {
    int expected = verb.operands.isEmpty() ? 0 : verb.operands.split(" ").length;
    if (operands.size() != expected) {
      throw new UsageException(expected == 0
          ? "'" + verb.words + "' takes no operands; got '" + String.join(" ", operands) + "'"
          : "'" + verb.words + "' needs " + verb.operands + ": hdfs eafr " + verb.synopsis()
              + (operands.isEmpty() ? "" : "; got '" + String.join(" ", operands) + "'"), List.of(verb));
    }
    for (int i = 0; i < expected; i++) {
      checkOperand(verb, verb.operands.split(" ")[i], operands.get(i));
    }
  }

  /**
   * Refuses an operand that is none of the alternatives of {@code spec} ({@code N|up|down|auto}): {@value
   * #GEAR_NUMBER} is a gear number (0 or more), a word in lower case stands for itself, one in capitals (HOST) for any
   * word.
   */
  private static void checkOperand(Verb verb, String spec, String operand) {
    List<String> words = new ArrayList<>();
    for (String alternative : spec.split("\\|")) {
      boolean free = !alternative.equals(GEAR_NUMBER) && alternative.equals(alternative.toUpperCase(Locale.ROOT));
      if (free || alternative.equals(operand) || alternative.equals(GEAR_NUMBER) && operand.matches("[0-9]{1,9}")) {
        return;
      }
      if (!alternative.equals(GEAR_NUMBER)) {
        words.add(alternative);
      }
    }
    throw new UsageException("'" + verb.words + " " + operand + "' is not allowed: expected " + spec
        + (spec.contains(GEAR_NUMBER) ? " (" + GEAR_NUMBER + " a gear number, 0 or more)" : "")
        + KnownKeys.nearest(operand, words).map(word -> "; did you mean '" + word + "'?").orElse(""), List.of(verb));
  }

  /**
   * For a first word that begins commands ('power'), names those commands; else the nearest command, if one is
   * close.
   */
  /** Whether {@code words} are {@code verb} with operands it takes ('gear 3' is 'gear N', not 'gear cancel'). */
  private static boolean fits(Verb verb, List<String> words) {
    List<String> verbWords = Arrays.asList(verb.words.split(" "));
    if (words.size() < verbWords.size() || !words.subList(0, verbWords.size()).equals(verbWords)) {
      return false;
    }
    try {
      checkOperands(verb, words.subList(verbWords.size(), words.size()));
      return true;
    } catch (IllegalArgumentException wrongOperands) {
      return false;
    }
  }

  private static UsageException unknownCommand(List<String> words) {
    String unknown = "unknown command '" + String.join(" ", words) + "'";
    List<Verb> sameFirstWord = new ArrayList<>();
    List<String> firstWords = new ArrayList<>();
    for (Verb verb : Verb.values()) {
      if (verb.hidden()) {
        continue;
      }
      String first = verb.words.split(" ")[0];
      firstWords.add(first);
      if (first.equals(words.get(0))) {
        sameFirstWord.add(verb);
      }
    }
    if (!sameFirstWord.isEmpty()) {
      List<String> synopses = new ArrayList<>();
      sameFirstWord.forEach(verb -> synopses.add("'hdfs eafr " + verb.synopsis() + "'"));
      return new UsageException(unknown + ": '" + words.get(0) + "' is followed by one of "
          + String.join(", ", synopses), sameFirstWord);
    }
    Optional<String> nearest = KnownKeys.nearest(words.get(0), firstWords);
    if (nearest.isEmpty()) {
      return new UsageException(unknown, List.of());
    }
    List<Verb> meant = new ArrayList<>();
    for (Verb verb : Verb.values()) {
      if (!verb.hidden() && verb.words.split(" ")[0].equals(nearest.get())) {
        meant.add(verb);
      }
    }
    List<String> corrected = new ArrayList<>(words);
    corrected.set(0, nearest.get());
    List<Verb> fitting = new ArrayList<>(meant);
    fitting.removeIf(verb -> !fits(verb, corrected));
    return new UsageException(unknown + "; did you mean '" + nearest.get() + "'?", fitting.isEmpty() ? meant
        : fitting);
  }

  /**
   * One line per command an operator types, for the tool's help and for errors; the DataNode power agent's own
   * commands last, under a line saying so.
   */
  public static String usage() {
    StringBuilder usage = new StringBuilder();
    for (Verb verb : Verb.values()) {
      if (!verb.hidden()) {
        usage.append(verb.usageLine()).append('\n');
      }
    }
    usage.append("Used by the DataNode power agent (hadoop-eafr-datanode), not by operators:\n");
    for (Verb verb : Verb.values()) {
      if (verb.forAgents()) {
        usage.append(verb.usageLine()).append('\n');
      }
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
