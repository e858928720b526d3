package org.eafr.demo;

/**
 * The faults and changes of the thrash test (scripts/thrash.sh, docs/thrash.md), one per round. Each names what it
 * does to the demo's cluster; what each one checks is in docs/thrash.md.
 */
public enum ThrashFault {
  GEAR_UP("gear up", "hdfs eafr gear N above the gear in force (down instead at the highest gear)"),
  GEAR_DOWN("gear down", "hdfs eafr gear N below the gear in force (up instead at gear 0)"),
  DATANODE_KILL("datanode kill -9", "an awake DataNode killed with SIGKILL, restarted a few seconds later"),
  BMC_STOP("bmc stopped", "an IPMI host's ipmi_sim killed while a shift powers that host, restarted seconds later"),
  WOL_LOST("wol packet lost", "the Wake-on-LAN host's first magic packet of a gear-up is lost"),
  NODE_DIES_ASLEEP("node dies asleep", "a sleeping host's disks lose every block; the next gear-up wakes it empty"),
  WAKE_DURING_DOWN("wake during down", "a gear-up asked while a gear-down is under way"),
  NAMENODE_RESTART("namenode restart", "the NameNode stopped and started again (once per run)"),
  NAMENODE_RESTART_GEAR_0("nn restart gear 0", "gear 0, then the NameNode stopped and started again: HDFS's redundancy"
      + " monitor runs 20 intervals and copies at most 1% of the blocks asleep (once per run)"),
  RELAYOUT_INTERRUPTED("relayout interrupted", "files written off their layout homes, hdfs eafr relayout start, the"
      + " NameNode restarted mid-relayout; relayout goes on and finishes, then gear 0 (once per run)");

  private final String label;
  private final String action;

  ThrashFault(String label, String action) {
    this.label = label;
    this.action = action;
  }

  public String label() {
    return label;
  }

  public String action() {
    return action;
  }

  /**
   * The faults that come once per run, in the order a plan too short for all of them keeps them: the NameNode
   * restarts (the relayout round restarts it too).
   */
  static ThrashFault[] oncePerRun() {
    return new ThrashFault[] {NAMENODE_RESTART, NAMENODE_RESTART_GEAR_0, RELAYOUT_INTERRUPTED};
  }

  /** The faults a round may draw again and again (the NameNode restarts and relayout come once per run). */
  static ThrashFault[] repeatable() {
    return new ThrashFault[] {GEAR_UP, GEAR_DOWN, DATANODE_KILL, BMC_STOP, WOL_LOST, NODE_DIES_ASLEEP,
        WAKE_DURING_DOWN};
  }
}
