package org.eafr.placement.cluster;

/**
 * The role of a server (EAFR Sec. 3.2.1). Hot servers run and serve reads; standby servers serve reads too while they
 * collect cold replicas, and turn cold when nearly full (Eq. 8); cold servers sleep and serve nothing; failed servers
 * are gone.
 */
public enum ServerRole {
  HOT,
  STANDBY,
  COLD,
  FAILED;

  /** Hot and standby servers serve reads; cold and failed ones never do (Alg. 3). */
  public boolean servesReads() {
    return this == HOT || this == STANDBY;
  }

  /** Whether a replica on a server of this role is still a live copy (a sleeping cold server's copy is). */
  public boolean holdsLiveReplicas() {
    return this != FAILED;
  }
}
