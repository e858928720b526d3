package org.eafr.namenode.power.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eafr.namenode.power.DriverKind;
import org.eafr.namenode.power.InventoryEntry;
import org.eafr.namenode.power.PowerDriver;
import org.eafr.namenode.power.PowerException;
import org.eafr.namenode.power.PowerReading;
import org.eafr.namenode.power.PowerState;
import org.eafr.placement.process.ChildProcess;

/**
 * IPMI v2.0 over LAN through {@code ipmitool -I lanplus}, as OpenStack Ironic drives BMCs. The password goes to
 * ipmitool in the environment variable IPMI_PASSWORD ({@code -E}), never on the command line, and is scrubbed from
 * whatever ipmitool prints before it reaches a message; ipmitool's environment holds nothing else of the NameNode's
 * (see {@link ProcessRunner}). The session asks for the entry's privilege level ({@code -L}, OPERATOR by default).
 * Graceful off is {@code chassis power soft} (ACPI), forced off {@code chassis power off}. The measured draw is DCMI's
 * {@code dcmi power reading} ({@link #parseDcmiReading}).
 */
final class IpmiDriver implements PowerDriver {
  static final String PASSWORD_VARIABLE = "IPMI_PASSWORD";
  private static final Pattern INSTANTANEOUS = Pattern.compile("Instantaneous power reading:\\s*(\\d+)\\s*Watts");
  private static final Pattern READING_STATE = Pattern.compile("Power reading state is:\\s*(\\w+)");
  private static final Pattern DCMI_REFUSAL = Pattern.compile("DCMI request failed because:([^\\n]*)");
  private static final String NOT_DCMI = "A valid DCMI command was not returned";

  private final InventoryEntry entry;
  private final Secret password;
  private final ProcessRunner runner;
  private final String ipmitool;

  IpmiDriver(InventoryEntry entry, Secret password, ProcessRunner runner, String ipmitool) {
    this.entry = entry;
    this.password = password;
    this.runner = runner;
    this.ipmitool = ipmitool;
  }

  @Override
  public String name() {
    return DriverKind.IPMI.label();
  }

  @Override
  public String endpoint() {
    return entry.address() + ":" + entry.port();
  }

  @Override
  public void powerOn() throws PowerException {
    chassisPower("on");
  }

  @Override
  public void gracefulOff() throws PowerException {
    chassisPower("soft");
  }

  @Override
  public void forcedOff() throws PowerException {
    chassisPower("off");
  }

  @Override
  public PowerState state() throws PowerException {
    String output = chassisPower("status");
    if (output.contains("Chassis Power is on")) {
      return PowerState.ON;
    }
    if (output.contains("Chassis Power is off")) {
      return PowerState.OFF;
    }
    throw new PowerException(describe("chassis power status") + " answered neither on nor off: " + output.trim());
  }

  /**
   * DCMI's Get Power Reading. A BMC without DCMI answers the request with a completion code (ipmi_sim: "Invalid
   * command"), which ipmitool prints as "DCMI request failed because: ..." and exits 1: that is the BMC's answer
   * (not offered); any other failure (no session, no answer) is an error.
   */
  @Override
  public PowerReading powerReading() throws PowerException {
    String what = describe("dcmi power reading");
    ChildProcess.Result result = run(List.of("dcmi", "power", "reading"), what);
    String output = password.scrub(result.output());
    if (result.exitCode() != 0) {
      String refusal = dcmiRefusal(output);
      if (refusal != null) {
        return PowerReading.notOffered("BMC " + endpoint() + " answered DCMI Get Power Reading with " + refusal);
      }
      throw new PowerException(what + " failed (exit " + result.exitCode() + "): " + password.scrub(result.oneLine()));
    }
    return parseDcmiReading(output, what);
  }

  /**
   * The reading in ipmitool's output of {@code dcmi power reading} (ipmitool's lib/ipmi_dcmi.c, 1.8.x), e.g.
   * <pre>
   *     Instantaneous power reading:                   212 Watts
   *     ...
   *     Power reading state is:                   activated
   * </pre>
   * gives 212 W; with "deactivated" (the BMC's power measurement is switched off, its numbers mean nothing) there is
   * no reading this time. Output without the instantaneous line is an error naming {@code what}.
   */
  static PowerReading parseDcmiReading(String output, String what) throws PowerException {
    Matcher watts = INSTANTANEOUS.matcher(output);
    if (!watts.find()) {
      throw new PowerException(what + " answered no instantaneous power reading: " + excerpt(output));
    }
    Matcher state = READING_STATE.matcher(output);
    if (state.find() && !state.group(1).equalsIgnoreCase("activated")) {
      return PowerReading.unavailable("DCMI power reading state is " + state.group(1));
    }
    return PowerReading.watts(Long.parseLong(watts.group(1)));
  }

  /** What the BMC answered instead of a reading, from ipmitool's DCMI error lines, or null when it did not answer. */
  static String dcmiRefusal(String output) {
    Matcher refusal = DCMI_REFUSAL.matcher(output);
    if (refusal.find()) {
      return refusal.group(1).trim();
    }
    return output.contains(NOT_DCMI) ? "an answer that is not DCMI" : null;
  }

  private static String excerpt(String output) {
    String line = output.trim().replaceAll("\\s+", " ");
    return line.length() > 200 ? line.substring(0, 200) + "..." : line;
  }

  private String chassisPower(String verb) throws PowerException {
    ChildProcess.Result result = run(List.of("chassis", "power", verb), describe("chassis power " + verb));
    if (result.exitCode() != 0) {
      throw new PowerException(describe("chassis power " + verb) + " failed (exit " + result.exitCode() + "): "
          + password.scrub(result.oneLine()));
    }
    return password.scrub(result.output());
  }

  private ChildProcess.Result run(List<String> arguments, String what) throws PowerException {
    List<String> command = new ArrayList<>(List.of(ipmitool, "-I", "lanplus"));
    if (entry.cipherSuite() >= 0) {
      command.addAll(List.of("-C", String.valueOf(entry.cipherSuite())));
    }
    command.addAll(List.of("-H", entry.address(), "-p", String.valueOf(entry.port()), "-U", entry.user(), "-L",
        entry.privilege().name(), "-E"));
    command.addAll(arguments);
    return runner.run(command, Map.of(PASSWORD_VARIABLE, password.reveal()), what);
  }

  private String describe(String verb) {
    return "ipmitool " + verb + " to BMC " + endpoint() + " as " + entry.user();
  }
}
