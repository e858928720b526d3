package org.eafr.datanode.power;

/** Where the power agent is; its metric {@code State} is the ordinal (the labels are in the metric's help). */
public enum PowerAgentState {
  /** Waiting for the next poll (or off). */
  IDLE,
  /** A poll to the NameNode is under way. */
  POLLING,
  /** The NameNode asked this DataNode to sleep: Wake-on-LAN is being armed. */
  ARMING,
  /** Stopping the DataNode. */
  STOPPING,
  /** The host command (suspend, poweroff) was run (or, in dry run, logged): the host is going down. */
  HOST_COMMAND_RUN
}
