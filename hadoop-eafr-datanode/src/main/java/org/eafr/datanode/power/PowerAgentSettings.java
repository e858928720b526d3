package org.eafr.datanode.power;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.eafr.placement.settings.InvalidSettingException;
import org.eafr.placement.settings.KnownKeys;
import org.eafr.placement.settings.Range;
import org.eafr.placement.settings.Setting;

/**
 * The in-band power agent's hdfs-site.xml keys ({@code eafr.datanode.power-agent.*}), read whole or not at all: a
 * malformed value, an empty command while the agent is on, or an unknown key under the prefix throws an
 * {@link InvalidSettingException} naming the key, the value and what is allowed. Off by default.
 */
public final class PowerAgentSettings {
  public static final String PREFIX = "eafr.datanode.power-agent.";
  public static final String ENABLED_KEY = PREFIX + "enabled";
  public static final Setting<Long> POLL_MS = Setting.ofLong(PREFIX + "poll.ms", "-",
      "How often the power agent asks the NameNode whether this DataNode should sleep, in milliseconds.", 10_000L,
      Range.closed(100L, 3_600_000L));
  public static final String WOL_ARM_COMMAND_KEY = PREFIX + "wol-arm.command";
  public static final String HOST_COMMAND_KEY = PREFIX + "host.command";
  public static final String DRY_RUN_KEY = PREFIX + "dry-run";
  public static final String DEFAULT_HOST_COMMAND = "systemctl suspend";
  private static final List<String> KEYS = List.of(ENABLED_KEY, POLL_MS.key(), WOL_ARM_COMMAND_KEY, HOST_COMMAND_KEY,
      DRY_RUN_KEY);

  private final boolean enabled;
  private final long pollMillis;
  private final List<String> wolArmCommand;
  private final List<String> hostCommand;
  private final boolean dryRun;

  private PowerAgentSettings(Function<String, String> lookup) {
    this.enabled = flag(lookup, ENABLED_KEY);
    this.pollMillis = POLL_MS.read(lookup);
    this.dryRun = flag(lookup, DRY_RUN_KEY);
    this.wolArmCommand = command(lookup, WOL_ARM_COMMAND_KEY, "", enabled,
        "a command that arms Wake-on-LAN on the interface the magic packet reaches, e.g. ethtool -s eth0 wol g");
    this.hostCommand = command(lookup, HOST_COMMAND_KEY, DEFAULT_HOST_COMMAND, enabled,
        "the command that puts the host to sleep, e.g. systemctl suspend or poweroff");
  }

  /**
   * Reads the agent's keys: {@code lookup} gives a key's value (e.g. {@code conf::get}), {@code present} every key
   * under {@value #PREFIX} that is set (e.g. {@code conf.getValByRegex("^eafr\\.datanode\\.power-agent\\.")}).
   */
  public static PowerAgentSettings from(Function<String, String> lookup, Map<String, String> present) {
    KnownKeys.check(present, KEYS, List.of(), "docs/datanode.md");
    return new PowerAgentSettings(lookup);
  }

  private static boolean flag(Function<String, String> lookup, String key) {
    String raw = lookup.apply(key);
    String value = raw == null ? "" : raw.trim().toLowerCase(Locale.ROOT);
    if (value.isEmpty() || value.equals("false")) {
      return false;
    }
    if (value.equals("true")) {
      return true;
    }
    throw new InvalidSettingException(key, raw, "expected true or false");
  }

  /** The command's words (run without a shell); empty is allowed only while the agent is off. */
  private static List<String> command(Function<String, String> lookup, String key, String defaultValue,
      boolean required, String allowed) {
    String raw = lookup.apply(key);
    String value = raw == null ? defaultValue : raw.trim();
    if (value.isEmpty()) {
      if (required) {
        throw new InvalidSettingException(key, "(empty)", "expected " + allowed + " while " + ENABLED_KEY
            + " = true");
      }
      return List.of();
    }
    return List.copyOf(Arrays.asList(value.split("\\s+")));
  }

  /** Every key the agent reads, for the generated configuration reference (docs/configuration.md). */
  public static List<String> keys() {
    return KEYS;
  }

  public boolean enabled() {
    return enabled;
  }

  public long pollMillis() {
    return pollMillis;
  }

  /** The Wake-on-LAN arming command, as words; run before the DataNode stops. */
  public List<String> wolArmCommand() {
    return wolArmCommand;
  }

  /** The host's sleep command, as words; run once the DataNode has stopped. */
  public List<String> hostCommand() {
    return hostCommand;
  }

  /** Whether commands are only logged, not run (the DataNode is still stopped). */
  public boolean dryRun() {
    return dryRun;
  }

  @Override
  public String toString() {
    return "poll every " + pollMillis + " ms, Wake-on-LAN arm command " + wolArmCommand + ", host command "
        + hostCommand + (dryRun ? ", dry run (commands only logged)" : "");
  }
}
