package org.eafr.namenode.power.driver;

import java.util.List;
import java.util.Map;
import org.eafr.namenode.power.DriverKind;
import org.eafr.namenode.power.InventoryEntry;
import org.eafr.namenode.power.PowerDriver;
import org.eafr.namenode.power.PowerException;
import org.eafr.namenode.power.PowerState;
import org.eafr.placement.process.ChildProcess;

/**
 * An operator's own power script, for hardware no other driver reaches (a PDU, a cloud API, a vendor tool). It is
 * called as {@code SCRIPT on|off|force-off|status HOST} with the same timeout as every driver; exit 0 means done,
 * and {@code status} prints {@code on} or {@code off} as the first word of its output.
 */
final class CommandDriver implements PowerDriver {
  private final InventoryEntry entry;
  private final ProcessRunner runner;

  CommandDriver(InventoryEntry entry, ProcessRunner runner) {
    this.entry = entry;
    this.runner = runner;
  }

  @Override
  public String name() {
    return DriverKind.COMMAND.label();
  }

  @Override
  public String endpoint() {
    return entry.script() + " " + entry.host();
  }

  @Override
  public void powerOn() throws PowerException {
    run("on");
  }

  @Override
  public void gracefulOff() throws PowerException {
    run("off");
  }

  @Override
  public void forcedOff() throws PowerException {
    run("force-off");
  }

  @Override
  public PowerState state() throws PowerException {
    String output = run("status").trim();
    String first = output.isEmpty() ? "" : output.split("\\s+")[0];
    if (first.equalsIgnoreCase("on")) {
      return PowerState.ON;
    }
    if (first.equalsIgnoreCase("off")) {
      return PowerState.OFF;
    }
    throw new PowerException("power script " + entry.script() + " status " + entry.host()
        + " printed neither 'on' nor 'off' first: '" + output + "'");
  }

  private String run(String verb) throws PowerException {
    String what = "power script " + entry.script() + " " + verb + " " + entry.host();
    ChildProcess.Result result = runner.run(List.of(entry.script(), verb, entry.host()), Map.of(), what);
    if (result.exitCode() != 0) {
      throw new PowerException(what + " failed (exit " + result.exitCode() + "): " + result.oneLine());
    }
    return result.output();
  }
}
