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

  /**
   * Whether a power controller switches {@code host} (the NameNode: it is in a power inventory). A host none switches
   * stays on: a gear-down leaves it in maintenance, running; a gear-up waits, naming it, until it runs again.
   */
  default boolean controls(String host) {
    return true;
  }

  /**
   * Whether the controller runs the power-off guard itself before each power-off, answering {@link Reply#refused}
   * when it fails (the NameNode's power manager, which sees what HDFS shows); else the shift runs it before sending.
   */
  default boolean guardsPowerOff() {
    return false;
  }

  /**
   * Why the controller refuses every command to {@code host} until an operator acts (the NameNode: the host is
   * quarantined after repeated BMC failures, and how to lift it); empty when nothing holds it.
   */
  default Optional<String> heldBack(String host) {
    return Optional.empty();
  }
}
