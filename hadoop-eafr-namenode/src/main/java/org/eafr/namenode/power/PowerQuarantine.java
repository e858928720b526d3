package org.eafr.namenode.power;

import java.util.Objects;

/**
 * A host the power manager quarantined: the state the command that quarantined it asked for (reaching it late ends
 * the quarantine) and why (the failures, driver, command and last error). Persisted with the gear state, so a
 * restarted or newly active NameNode keeps it. Immutable.
 */
public final class PowerQuarantine {
  private final String host;
  private final PowerState target;
  private final String reason;

  public PowerQuarantine(String host, PowerState target, String reason) {
    this.host = Objects.requireNonNull(host, "host");
    this.target = Objects.requireNonNull(target, "target");
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  public String host() {
    return host;
  }

  public PowerState target() {
    return target;
  }

  public String reason() {
    return reason;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PowerQuarantine && ((PowerQuarantine) o).host.equals(host)
        && ((PowerQuarantine) o).target == target && ((PowerQuarantine) o).reason.equals(reason);
  }

  @Override
  public int hashCode() {
    return Objects.hash(host, target, reason);
  }

  @Override
  public String toString() {
    return host + " (for " + target + "): " + reason;
  }
}
