package org.eafr.namenode.power;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.eafr.placement.settings.InvalidSettingException;
import org.eafr.placement.settings.Range;
import org.eafr.placement.settings.Setting;

/**
 * The power manager's hdfs-site.xml keys, validated when built: a malformed or out-of-range value throws an
 * {@link InvalidSettingException} naming the key, the value and what is allowed. Defaults follow OpenStack Ironic
 * (5 s between two commands to one BMC, 60 s for a state change) and MAAS (re-query with growing waits).
 */
public final class PowerSettings {
  public static final Setting<Long> MIN_COMMAND_INTERVAL_MS = Setting.ofLong("eafr.power.min-command-interval.ms",
      "-", "Least time between two calls (command or state read) to one BMC, in milliseconds: BMCs fail under faster"
          + " polling (Ironic's min_command_interval).", 5_000L, Range.closed(0L, 600_000L));
  public static final Setting<Long> STATE_TIMEOUT_MS = Setting.ofLong("eafr.power.state-timeout.ms", "-",
      "How long after a power command the host may take to reach the new state before the attempt fails, in"
          + " milliseconds.", 60_000L, Range.closed(1L, 3_600_000L));
  public static final Setting<Long> COMMAND_TIMEOUT_MS = Setting.ofLong("eafr.power.command-timeout.ms", "-",
      "Longest one driver call (ipmitool run, Redfish request, power script) may take before it is abandoned (the"
          + " process killed), in milliseconds.", 20_000L, Range.closed(100L, 600_000L));
  public static final Setting<Long> POLL_INITIAL_MS = Setting.ofLong("eafr.power.poll.initial.ms", "-",
      "Wait before the first state read after a command, in milliseconds; each further wait doubles up to"
          + " eafr.power.poll.max.ms (and is never shorter than the min command interval).", 1_000L,
      Range.closed(1L, 600_000L));
  public static final Setting<Long> POLL_MAX_MS = Setting.ofLong("eafr.power.poll.max.ms", "-",
      "Longest wait between two state reads while a host changes state, in milliseconds.", 10_000L,
      Range.closed(1L, 600_000L));
  public static final Setting<Integer> RETRIES = Setting.ofInt("eafr.power.retries", "-",
      "How often a failed attempt (command refused, BMC unreachable, state not reached in time) is retried within"
          + " one action before the action fails.", 2, Range.closed(0, 10));
  public static final Setting<Integer> QUARANTINE_AFTER = Setting.ofInt("eafr.power.quarantine-after", "-",
      "Consecutive failed attempts after which a node is quarantined: no automatic power command is sent to it until"
          + " an operator clears it, an operator's command through its BMC succeeds, or it is found in the state its"
          + " failed command asked for.", 3, Range.closed(1, 100));
  public static final Setting<Long> WOL_RESEND_INTERVAL_MS = Setting.ofLong("eafr.power.wol.resend-interval.ms", "-",
      "How often a Wake-on-LAN magic packet is sent again while its host has not come on (no DataNode of it"
          + " heartbeats), until eafr.power.state-timeout.ms ends, in milliseconds: a lost packet then costs this"
          + " long, not the whole state timeout.", 5_000L, Range.closed(500L, 600_000L));
  public static final Setting<Long> BMC_POLL_INTERVAL_MS = Setting.ofLong("eafr.power.bmc-poll.interval.ms", "-",
      "How often the active NameNode reads each inventory host's power state and measured draw from its BMC in the"
          + " background, in milliseconds (0: never); a read waits while a power action is under way for the host or"
          + " its BMC had a call within eafr.power.min-command-interval.ms, so power commands come first.", 60_000L,
      Range.closed(0L, 86_400_000L));

  /** Path of the JSON power inventory; empty means no host can be switched. */
  public static final String INVENTORY_FILE_KEY = "eafr.power.inventory.file";
  /** The ipmitool executable (name on PATH or absolute path). */
  public static final String IPMITOOL_KEY = "eafr.power.ipmitool";
  /** Truststore with the BMCs' certificates (or their CA) for Redfish; required with a redfish entry. */
  public static final String REDFISH_TRUSTSTORE_KEY = "eafr.power.redfish.truststore";
  /** Type of the Redfish truststore: PKCS12 or JKS. */
  public static final String REDFISH_TRUSTSTORE_TYPE_KEY = "eafr.power.redfish.truststore.type";
  /** CredentialProvider alias of the Redfish truststore's password; empty when it has none. */
  public static final String REDFISH_TRUSTSTORE_PASSWORD_ALIAS_KEY = "eafr.power.redfish.truststore.password.alias";

  private static final List<Setting<?>> ALL = List.of(MIN_COMMAND_INTERVAL_MS, STATE_TIMEOUT_MS, COMMAND_TIMEOUT_MS,
      POLL_INITIAL_MS, POLL_MAX_MS, RETRIES, QUARANTINE_AFTER, WOL_RESEND_INTERVAL_MS, BMC_POLL_INTERVAL_MS);

  private final long minCommandIntervalMillis;
  private final long stateTimeoutMillis;
  private final long commandTimeoutMillis;
  private final long pollInitialMillis;
  private final long pollMaxMillis;
  private final int retries;
  private final int quarantineAfter;
  private final long wolResendIntervalMillis;
  private final long bmcPollIntervalMillis;
  private final String inventoryFile;
  private final String ipmitool;
  private final String truststore;
  private final String truststoreType;
  private final String truststorePasswordAlias;

  private PowerSettings(Function<String, String> lookup) {
    this.minCommandIntervalMillis = MIN_COMMAND_INTERVAL_MS.read(lookup);
    this.stateTimeoutMillis = STATE_TIMEOUT_MS.read(lookup);
    this.commandTimeoutMillis = COMMAND_TIMEOUT_MS.read(lookup);
    this.pollInitialMillis = POLL_INITIAL_MS.read(lookup);
    this.pollMaxMillis = POLL_MAX_MS.read(lookup);
    if (pollMaxMillis < pollInitialMillis) {
      throw new InvalidSettingException(POLL_MAX_MS.key(), String.valueOf(pollMaxMillis),
          "must be at least " + POLL_INITIAL_MS.key() + " (" + pollInitialMillis + ")");
    }
    this.retries = RETRIES.read(lookup);
    this.quarantineAfter = QUARANTINE_AFTER.read(lookup);
    this.wolResendIntervalMillis = WOL_RESEND_INTERVAL_MS.read(lookup);
    this.bmcPollIntervalMillis = BMC_POLL_INTERVAL_MS.read(lookup);
    this.inventoryFile = text(lookup, INVENTORY_FILE_KEY, "");
    this.ipmitool = text(lookup, IPMITOOL_KEY, "ipmitool");
    this.truststore = text(lookup, REDFISH_TRUSTSTORE_KEY, "");
    this.truststoreType = text(lookup, REDFISH_TRUSTSTORE_TYPE_KEY, "PKCS12");
    if (!truststoreType.equalsIgnoreCase("PKCS12") && !truststoreType.equalsIgnoreCase("JKS")) {
      throw new InvalidSettingException(REDFISH_TRUSTSTORE_TYPE_KEY, truststoreType, "PKCS12 or JKS");
    }
    this.truststorePasswordAlias = text(lookup, REDFISH_TRUSTSTORE_PASSWORD_ALIAS_KEY, "");
  }

  /** Reads every key from {@code lookup} (e.g. {@code conf::get}); absent keys keep their defaults. */
  public static PowerSettings from(Function<String, String> lookup) {
    return new PowerSettings(lookup);
  }

  /** The numeric settings, in documentation order. */
  public static List<Setting<?>> numericSettings() {
    return ALL;
  }

  /** Every key the power manager reads, for the NameNode's misspelled-key check. */
  public static Set<String> keys() {
    Set<String> keys = new TreeSet<>(List.of(INVENTORY_FILE_KEY, IPMITOOL_KEY, REDFISH_TRUSTSTORE_KEY,
        REDFISH_TRUSTSTORE_TYPE_KEY, REDFISH_TRUSTSTORE_PASSWORD_ALIAS_KEY));
    ALL.forEach(setting -> keys.add(setting.key()));
    return keys;
  }

  private static String text(Function<String, String> lookup, String key, String absent) {
    String raw = lookup.apply(key);
    return raw == null || raw.trim().isEmpty() ? absent : raw.trim();
  }

  public long minCommandIntervalMillis() {
    return minCommandIntervalMillis;
  }

  public long stateTimeoutMillis() {
    return stateTimeoutMillis;
  }

  public long commandTimeoutMillis() {
    return commandTimeoutMillis;
  }

  /** The wait before state read number {@code poll} (0 first) after a command: doubling, capped. */
  public long pollDelayMillis(int poll) {
    long delay = pollInitialMillis;
    for (int i = 0; i < poll && delay < pollMaxMillis; i++) {
      delay *= 2;
    }
    return Math.min(delay, pollMaxMillis);
  }

  public int retries() {
    return retries;
  }

  public int quarantineAfter() {
    return quarantineAfter;
  }

  /** How often an unanswered Wake-on-LAN wake is sent again within the state timeout. */
  public long wolResendIntervalMillis() {
    return wolResendIntervalMillis;
  }

  /** How often each host's BMC is polled for its state and draw; 0 means never. */
  public long bmcPollIntervalMillis() {
    return bmcPollIntervalMillis;
  }

  /** The inventory path, or "" when none is configured. */
  public String inventoryFile() {
    return inventoryFile;
  }

  public String ipmitool() {
    return ipmitool;
  }

  public String truststore() {
    return truststore;
  }

  public String truststoreType() {
    return truststoreType;
  }

  public String truststorePasswordAlias() {
    return truststorePasswordAlias;
  }
}
