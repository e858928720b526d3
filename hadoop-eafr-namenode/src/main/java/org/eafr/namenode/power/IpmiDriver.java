package org.eafr.namenode.power;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eafr.placement.process.ChildProcess;

/**
 * IPMI v2.0 over LAN through {@code ipmitool -I lanplus}, as OpenStack Ironic drives BMCs. The password goes to
 * ipmitool in the environment variable IPMI_PASSWORD ({@code -E}), never on the command line, and is scrubbed from
 * whatever ipmitool prints before it reaches a message; ipmitool's environment holds nothing else of the NameNode's
 * (see {@link ProcessRunner}). The session asks for the entry's privilege level ({@code -L}, OPERATOR by default).
 * Graceful off is {@code chassis power soft} (ACPI), forced off {@code chassis power off}.
 */
final class IpmiDriver implements PowerDriver {
  static final String PASSWORD_VARIABLE = "IPMI_PASSWORD";

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
    throw new PowerException(describe("status") + " answered neither on nor off: " + output.trim());
  }

  private String chassisPower(String verb) throws PowerException {
    List<String> command = new ArrayList<>(List.of(ipmitool, "-I", "lanplus"));
    if (entry.cipherSuite() >= 0) {
      command.addAll(List.of("-C", String.valueOf(entry.cipherSuite())));
    }
    command.addAll(List.of("-H", entry.address(), "-p", String.valueOf(entry.port()), "-U", entry.user(), "-L",
        entry.privilege().name(), "-E", "chassis", "power", verb));
    ChildProcess.Result result = runner.run(command, Map.of(PASSWORD_VARIABLE, password.reveal()), describe(verb));
    if (result.exitCode() != 0) {
      throw new PowerException(describe(verb) + " failed (exit " + result.exitCode() + "): "
          + password.scrub(result.oneLine()));
    }
    return password.scrub(result.output());
  }

  private String describe(String verb) {
    return "ipmitool chassis power " + verb + " to BMC " + endpoint() + " as " + entry.user();
  }
}
