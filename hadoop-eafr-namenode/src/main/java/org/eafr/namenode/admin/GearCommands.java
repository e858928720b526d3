package org.eafr.namenode.admin;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eafr.namenode.gear.GearAutopilot;
import org.eafr.namenode.gear.GearRecord;
import org.eafr.namenode.gear.GearService;
import org.eafr.namenode.gear.GearStatus;
import org.eafr.namenode.power.NodePowerStatus;
import org.eafr.namenode.power.PowerCommand;
import org.eafr.namenode.power.PowerManager;
import org.eafr.namenode.power.PowerResult;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.placement.gear.policy.GearedParts;
import org.eafr.placement.gear.policy.GearedPolicies;
import org.eafr.placement.settings.EafrSettings;

/**
 * {@code hdfs eafr gear N|up|down|auto} and {@code hdfs eafr power on|off|status|clear HOST}: thin translations to the
 * gear service (through the autopilot, which switches the mode) and the power manager, which check everything (the
 * settings build a layout, the gear exists, no block is left without a live replica, the host is in the inventory,
 * HDFS shows it IN_MAINTENANCE before power-off) and refuse with the reason.
 */
final class GearCommands {
  private GearCommands() {
  }

  /**
   * {@code hdfs eafr gear N|up|down|auto [-json]}: the answer, and with {@code -json} an object with it
   * ({@code answer}) and the gear state after the command: {@code mode}, {@code gear}, {@code targetGear},
   * {@code phase}.
   */
  static String gear(EafrRuntime runtime, String operand, boolean json) throws IOException {
    String answer = gear(runtime, operand);
    if (!json) {
      return answer;
    }
    GearRecord state = runtime.gears().state();
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("answer", answer);
    map.put("mode", runtime.gears().autopilot().mode().word());
    map.put("gear", GearStatus.gearOrNull(state.gear()));
    map.put("targetGear", GearStatus.gearOrNull(state.target()));
    map.put("phase", state.phase().name());
    return ClusterReport.json(map);
  }

  /**
   * {@code hdfs eafr gear cancel [-json]}: the gear service's answer ({@link GearService#cancel}); with {@code -json}
   * the same object as {@code gear}.
   */
  static String cancel(EafrRuntime runtime, boolean json) throws IOException {
    return gear(runtime, "cancel", json);
  }

  private static String gear(EafrRuntime runtime, String operand) throws IOException {
    GearService service = runtime.gears().service();
    GearAutopilot autopilot = runtime.gears().autopilot();
    if (service == null || autopilot == null) {
      throw new IllegalStateException("gears are off on this NameNode: eafr.layout is "
          + runtime.gears().settings().layout() + "; to shift gears set it to one of "
          + String.join(", ", GearedPolicies.names())
          + " in hdfs-site.xml and restart the NameNode (docs/gears.md)");
    }
    switch (operand) {
      case "cancel": // ends auto mode as any operator's gear command: its controller would ask the shift again
        return autopilot.manual(service::cancel);
      case "auto":
        service.refuseWithoutLayout("gear auto");
        return autopilot.enable();
      case "up":
        return autopilot.manual(() -> service.requestRelative(1));
      case "down":
        if (runtime.gears().state().hasChain()) {
          refuseBelowLowest(runtime, runtime.gears().state().target() - 1);
        }
        return autopilot.manual(() -> service.requestRelative(-1));
      default:
        int gear;
        try {
          gear = Integer.parseInt(operand);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("gear '" + operand + "' is not allowed: expected a gear number, up,"
              + " down or auto");
        }
        refuseBelowLowest(runtime, gear);
        return autopilot.manual(() -> service.requestGear(gear));
    }
  }

  /**
   * Refuses an operator's shift below the geared policy's lowest gear: eafr-geared's read floor keeps the gear that
   * holds every block's replicas on, as its autopilot does. Nothing changes.
   */
  private static void refuseBelowLowest(EafrRuntime runtime, int gear) {
    Optional<GearedParts> parts = runtime.gears().parts();
    if (parts.isPresent() && gear < parts.get().lowestGear()) {
      throw new IllegalArgumentException("gear " + gear + " is not allowed: " + parts.get().policy().name()
          + " keeps gear " + parts.get().lowestGear() + " and above on for its read floor ("
          + EafrSettings.GEAR_EAFR_READ_FLOOR.key() + " = "
          + runtime.settings().core().get(EafrSettings.GEAR_EAFR_READ_FLOOR) + "); allowed: "
          + parts.get().lowestGear() + ".." + parts.get().layout().maximumGear());
    }
  }

  /**
   * {@code hdfs eafr power status HOST [-json]} answers at once from the state the manager keeps (the last state its
   * BMC read, any action under way, failures, quarantine) and starts one fresh read in the background for the next
   * status: no IPC handler waits on a BMC. {@code power on|off} are handed to the manager by
   * {@link OperatorPowerCommands}, which answers their outcome with {@link #powerAnswer} or {@link #powerFailure}.
   */
  static String power(EafrRuntime runtime, AdminRequest.Verb verb, String host, boolean json) throws IOException {
    PowerManager power = powerManager(runtime);
    power.refreshState(host);
    NodePowerStatus record = power.status(host);
    return json ? ClusterReport.json(powerJson(verb, host, record.lastKnown(), record))
        : powerText(verb, host, record.lastKnown() + " (the last state its BMC gave; a fresh read is under way"
            + " for the next 'power status')" + (record.inFlight() == null ? ""
            : "; " + record.inFlight().label() + " under way"), record);
  }

  /** The answer to a power on or off that reached its state: the result, with the manager's record of the host. */
  static String powerAnswer(EafrRuntime runtime, AdminRequest.Verb verb, String host, PowerResult result,
      boolean json) {
    NodePowerStatus record = powerManager(runtime).status(host);
    return json ? ClusterReport.json(powerJson(verb, host, result, record)) : powerText(verb, host, result, record);
  }

  /**
   * The refusal of a power on or off that failed or was refused, naming the reason; with {@code json} the host's
   * record (quarantine, last error) as well, which matters most when the command failed.
   */
  static String powerFailure(EafrRuntime runtime, AdminRequest.Verb verb, String host, Throwable cause,
      boolean json) {
    String failed = verb.words() + " " + host + " failed: " + cause.getMessage();
    if (!json) {
      return failed;
    }
    Map<String, Object> answer = powerJson(verb, host, null, powerManager(runtime).status(host));
    answer.put("done", true);
    answer.put("error", failed);
    return ClusterReport.json(answer);
  }

  private static String powerText(AdminRequest.Verb verb, String host, Object outcome, NodePowerStatus record) {
    String text = outcome instanceof PowerResult ? outcome.toString() : host + ": " + outcome; // a result names it
    if (record != null && record.quarantined()) {
      text += "; quarantined (automatic power commands do not reach it; last error: " + record.lastError()
          + "); lift it with 'hdfs eafr power clear " + host + "'";
    }
    return text;
  }

  /**
   * The JSON answer: {@code host}, {@code command} (on, graceful-off, or status), {@code done} (false while still
   * under way), {@code state} (reached or read; null while under way), for on and off {@code changed},
   * {@code attempts} and {@code elapsedMillis}, and the manager's record: {@code driver}, {@code endpoint},
   * {@code quarantined}, {@code consecutiveFailures}, {@code lastError}. A command that failed (the BMC did not
   * answer, the host is quarantined) is refused with the same object, {@code done} and its {@code error}.
   */
  private static Map<String, Object> powerJson(AdminRequest.Verb verb, String host, Object outcome,
      NodePowerStatus record) {
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("host", host);
    answer.put("command", verb == AdminRequest.Verb.POWER_ON ? PowerCommand.ON.label()
        : verb == AdminRequest.Verb.POWER_OFF ? PowerCommand.GRACEFUL_OFF.label() : "status");
    answer.put("done", outcome != null);
    if (verb == AdminRequest.Verb.POWER_STATUS) {
      answer.put("state", outcome == null ? null : outcome.toString());
    } else {
      PowerResult result = (PowerResult) outcome;
      answer.put("state", result == null ? null : result.state().name());
      answer.put("changed", result == null ? null : result.changed());
      answer.put("attempts", result == null ? null : result.attempts());
      answer.put("elapsedMillis", result == null ? null : result.elapsedMillis());
    }
    answer.put("driver", record == null ? null : record.driver());
    answer.put("endpoint", record == null ? null : record.endpoint());
    answer.put("quarantined", record != null && record.quarantined());
    answer.put("consecutiveFailures", record == null ? 0 : record.consecutiveFailures());
    answer.put("lastError", record == null ? null : record.lastError());
    return answer;
  }

  /**
   * {@code hdfs eafr power clear HOST}: lifts the host's quarantine (a host not quarantined stays as it is); an
   * unknown host is refused naming it and the inventory's hosts.
   */
  static String clearQuarantine(EafrRuntime runtime, String host, boolean json) {
    NodePowerStatus before = powerManager(runtime).clearQuarantine(host);
    if (json) {
      Map<String, Object> answer = new LinkedHashMap<>();
      answer.put("host", host);
      answer.put("wasQuarantined", before.quarantined());
      answer.put("lastError", before.lastError());
      answer.put("quarantined", false);
      return ClusterReport.json(answer);
    }
    return host + ": " + (before.quarantined() ? "quarantine cleared (last error: " + before.lastError()
        + "); automatic power commands reach it again" : "was not quarantined; nothing changed");
  }

  static PowerManager powerManager(EafrRuntime runtime) {
    PowerManager power = runtime.gears().power();
    if (power == null) {
      throw new IllegalArgumentException("no power manager on this NameNode: set eafr.power.inventory.file (docs/power.md)");
    }
    return power;
  }
}
