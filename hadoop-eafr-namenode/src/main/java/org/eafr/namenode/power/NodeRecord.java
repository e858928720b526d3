package org.eafr.namenode.power;

/** What the manager remembers of one host across actions. */
final class NodeRecord {
  PowerAction inFlight;
  /** A background read for a status is queued or running ({@link PowerManager#refreshState}). */
  boolean refreshing;
  PowerState lastKnown = PowerState.UNKNOWN;
  long lastReadMillis = Long.MIN_VALUE;
  int failures;
  boolean quarantined;
  /** What quarantined the node: the failures, driver, command and last error. */
  String quarantineReason;
  /** The state the command that quarantined the node asked for: reaching it late ends the quarantine. */
  PowerState quarantinedFor;
  /** Whether a refusal for this quarantine has been logged (once per quarantine, not every gear step). */
  boolean refusalLogged;
  String lastError;

  void lift() {
    quarantined = false;
    quarantineReason = null;
    quarantinedFor = null;
    refusalLogged = false;
  }
}
