package org.eafr.namenode.power;

/** Who asks for a power action: a quarantined node is refused to automatic requests, not to an operator's. */
public enum Requester {
  /** The gear controller or another part of the NameNode acting on its own. */
  AUTOMATIC,
  /** An operator, through the admin command. */
  OPERATOR
}
