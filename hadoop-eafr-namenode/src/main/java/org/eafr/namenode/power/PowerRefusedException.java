package org.eafr.namenode.power;

/**
 * A request the power manager would not carry out, and did not try: the node is busy with another action, is
 * quarantined, is unknown to the inventory, is not in HDFS maintenance (power off), or its driver cannot do it (a
 * Wake-on-LAN node without an in-band power agent cannot be switched off). A refusal is not a BMC failure: it is not
 * retried, and it does not count toward quarantine.
 */
public class PowerRefusedException extends PowerException {
  private static final long serialVersionUID = 1L;

  public PowerRefusedException(String message) {
    super(message);
  }
}
