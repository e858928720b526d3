package org.eafr.datanode.power;

import java.util.Locale;

/** Where the power agent is; its metric {@code PowerAgentState} is the ordinal, {@code PowerAgentStateName} the label. */
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
  HOST_COMMAND_RUN;

  /** idle, polling, arming, stopping, host-command-run. */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
