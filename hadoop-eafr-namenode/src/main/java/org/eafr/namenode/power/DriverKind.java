package org.eafr.namenode.power;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The drivers an inventory entry can name. */
public enum DriverKind {
  /** IPMI v2.0 over LAN (lanplus) through ipmitool. */
  IPMI(623),
  /** DMTF Redfish over HTTPS. */
  REDFISH(443),
  /** Wake-on-LAN magic packet; off through the DataNode's in-band power agent. */
  WOL(9),
  /** An operator's script: {@code SCRIPT on|off|force-off|status HOST}. */
  COMMAND(0);

  private final int defaultPort;

  DriverKind(int defaultPort) {
    this.defaultPort = defaultPort;
  }

  public int defaultPort() {
    return defaultPort;
  }

  /** Whether the driver switches a whole machine through its BMC, so an entry names a host, never HOST:PORT. */
  public boolean switchesWholeHost() {
    return this == IPMI || this == REDFISH;
  }

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The kind named {@code label}, or null. */
  static DriverKind of(String label) {
    for (DriverKind kind : values()) {
      if (kind.label().equals(label)) {
        return kind;
      }
    }
    return null;
  }

  static String labels() {
    return Arrays.stream(values()).map(DriverKind::label).collect(Collectors.joining(", "));
  }
}
