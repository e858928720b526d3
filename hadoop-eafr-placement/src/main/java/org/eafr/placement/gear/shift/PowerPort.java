package org.eafr.placement.gear.shift;

import java.util.Optional;

/**
 * The power manager as the gear shift uses it (IPMI, Redfish or Wake-on-LAN behind it). Never blocks: a command is
 * sent and its reply polled step after step; a reply that never comes (a hung BMC) is timed out by the state machine,
 * which then reads the host's state before it sends again. Hosts are named by their DataNode's id.
 */
public interface PowerPort {
  /** Sends {@code wanted} to {@code host}'s power controller; returns a ticket to poll. */
  long send(String host, Power wanted);

  /** The reply to the command {@code ticket} so far. */
  Reply poll(long ticket);

  /** The host's power state as its driver reads it now; empty when it cannot be read (BMC unreachable). */
  Optional<Power> read(String host);
}
