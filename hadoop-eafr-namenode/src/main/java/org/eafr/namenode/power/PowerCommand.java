package org.eafr.namenode.power;

import java.util.Locale;

/** What a {@link PowerDriver} can be told to do, and the state each leads to. */
public enum PowerCommand {
  ON(PowerState.ON),
  /** An orderly shutdown through the operating system (ACPI soft-off, Redfish GracefulShutdown). */
  GRACEFUL_OFF(PowerState.OFF),
  /** Power cut at once, as the power button held down (IPMI chassis power off, Redfish ForceOff). */
  FORCED_OFF(PowerState.OFF);

  private final PowerState target;

  PowerCommand(PowerState target) {
    this.target = target;
  }

  /** The state the host reaches once the command has taken effect. */
  public PowerState target() {
    return target;
  }

  /** The name used in logs, metrics and messages: on, graceful-off, forced-off. */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
