package org.eafr.namenode.admin;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eafr.namenode.cluster.EafrRuntime;
import org.eafr.namenode.gear.GearAutopilot;
import org.eafr.namenode.gear.GearService;
import org.eafr.namenode.power.NodePowerStatus;
import org.eafr.namenode.power.PowerManager;
import org.eafr.namenode.power.Requester;

/**
 * {@code hdfs eafr gear N|up|down|auto} and {@code hdfs eafr power on|off|status HOST}: thin translations to the gear
 * service (through the autopilot, which switches the mode) and the power manager, which check everything (the gear exists, no block is left without a live replica,
 * the host is in the inventory, HDFS shows it IN_MAINTENANCE before power-off) and refuse with the reason.
 */
final class GearCommands {
  /** How long a power command's answer waits for the host to reach its state; longer actions finish in the log. */
  private static final long POWER_ANSWER_WAIT_SECONDS = 30;

  private GearCommands() {
  }

  static String gear(EafrRuntime runtime, String operand) throws IOException {
    GearService service = runtime.gears().service();
    GearAutopilot autopilot = runtime.gears().autopilot();
    if (service == null || autopilot == null) {
      throw new IllegalStateException("gears are off on this NameNode: eafr.layout is "
          + runtime.gears().settings().layout() + " (the gear service runs with equal-work or accordion)");
    }
    switch (operand) {
      case "auto":
        return autopilot.enable();
      case "up":
        return autopilot.manual(() -> service.requestRelative(1));
      case "down":
        return autopilot.manual(() -> service.requestRelative(-1));
      default:
        int gear;
        try {
          gear = Integer.parseInt(operand);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("gear '" + operand + "' is not allowed: expected a gear number, up,"
              + " down or auto");
        }
        return autopilot.manual(() -> service.requestGear(gear));
    }
  }

  static String power(EafrRuntime runtime, AdminRequest.Verb verb, String host) throws IOException {
    PowerManager power = powerManager(runtime);
    CompletableFuture<?> action;
    switch (verb) {
      case POWER_ON:
        action = power.powerOn(host, Requester.OPERATOR);
        break;
      case POWER_OFF:
        action = power.powerOff(host, false, Requester.OPERATOR);
        break;
      default:
        action = power.readState(host);
    }
    try {
      return host + ": " + action.get(POWER_ANSWER_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      return host + ": " + verb.words() + " still under way after " + POWER_ANSWER_WAIT_SECONDS
          + " s; its outcome goes to the NameNode log and 'hdfs eafr status'";
    } catch (ExecutionException e) {
      throw new IllegalStateException(verb.words() + " " + host + " failed: " + e.getCause().getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted waiting for " + verb.words() + " " + host, e);
    }
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

  private static PowerManager powerManager(EafrRuntime runtime) {
    PowerManager power = runtime.gears().power();
    if (power == null) {
      throw new IllegalArgumentException("no power manager on this NameNode: set eafr.power.inventory.file (docs/power.md)");
    }
    return power;
  }
}
