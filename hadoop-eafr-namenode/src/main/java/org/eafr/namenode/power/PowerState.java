package org.eafr.namenode.power;

/** A host's power state as its BMC (or, for Wake-on-LAN, the NameNode's view of its DataNode) reports it. */
public enum PowerState {
  ON,
  OFF,
  /** Not known: never read, or the last read failed. */
  UNKNOWN
}
