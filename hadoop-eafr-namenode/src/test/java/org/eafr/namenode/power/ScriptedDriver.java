package org.eafr.namenode.power;

import java.util.ArrayList;
import java.util.List;

/**
 * A driver for the manager's timing rules: a host that reaches the commanded state after a given number of state
 * reads, or never, with failures on demand. It records every call with the manual clock's time. The drivers
 * themselves are tested against real BMCs (ipmi_sim, sushy-tools, a UDP listener, scripts).
 */
final class ScriptedDriver implements PowerDriver {
  private final String endpoint;
  private final ManualScheduler clock;
  final List<String> calls = new ArrayList<>();
  final List<Long> callTimes = new ArrayList<>();
  PowerState state = PowerState.OFF;
  PowerState pending;
  int readsUntilReached = 2;
  boolean neverReaches;
  String failCommandsWith;
  /** What {@link #powerReading} answers; null: the interface's default (no meter). */
  PowerReading reading;
  /** When set, every state read fails with this message. */
  String failReadsWith;
  private int readsSinceCommand;

  private final String name;

  ScriptedDriver(String endpoint, ManualScheduler clock) {
    this("scripted", endpoint, clock);
  }

  /** A driver reporting {@code name} as its kind (e.g. "wol", for the manager's Wake-on-LAN resends). */
  ScriptedDriver(String name, String endpoint, ManualScheduler clock) {
    this.name = name;
    this.endpoint = endpoint;
    this.clock = clock;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String endpoint() {
    return endpoint;
  }

  @Override
  public void powerOn() throws PowerException {
    command("on", PowerState.ON);
  }

  @Override
  public void gracefulOff() throws PowerException {
    command("graceful-off", PowerState.OFF);
  }

  @Override
  public void forcedOff() throws PowerException {
    command("forced-off", PowerState.OFF);
  }

  private void command(String name, PowerState target) throws PowerException {
    record(name);
    if (failCommandsWith != null) {
      throw new PowerException(failCommandsWith);
    }
    pending = neverReaches ? null : target;
    readsSinceCommand = 0;
  }

  @Override
  public PowerState state() throws PowerException {
    record("status");
    if (failReadsWith != null) {
      throw new PowerException(failReadsWith);
    }
    if (pending != null && ++readsSinceCommand >= readsUntilReached) {
      state = pending;
      pending = null;
    }
    return state;
  }

  @Override
  public PowerReading powerReading() throws PowerException {
    record("reading");
    return reading == null ? PowerDriver.super.powerReading() : reading;
  }

  private void record(String call) {
    calls.add(call);
    callTimes.add(clock.nowMillis());
  }
}
