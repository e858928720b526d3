package org.eafr.placement.cluster;

/**
 * The remaining-storage threshold tau_s of EAFR Eq. 8, used everywhere a server's storage is judged.
 *
 * <p>Eq. 8: a standby server is ready to turn cold when c_s - sum(b_j) &lt; tau_s. A server accepts a new replica of
 * b bytes while its remaining storage is at least tau_s (Alg. 4 line 11) and the replica fits (remaining &gt;= b). So
 * the replica that takes a standby server below tau_s is its last, and Eq. 8 then turns it cold: tau_s is the point
 * where a server stops taking replicas, and what is left below it absorbs that last one.
 *
 * <p>Worked example: tau_s = 10 GB. A 250 GB standby server holding 241 GB has 9 GB left: it takes nothing more and
 * turns cold. Holding 235 GB (15 GB left) it takes a 12 GB replica, is left with 3 GB and turns cold; it cannot take a
 * 16 GB replica.
 */
public final class StorageReserve {
  private final long reserveBytes;

  public StorageReserve(long reserveBytes) {
    if (reserveBytes < 0) {
      throw new IllegalArgumentException("storage reserve " + reserveBytes + " bytes is not allowed: expected >= 0");
    }
    this.reserveBytes = reserveBytes;
  }

  /** tau_s in bytes. */
  public long reserveBytes() {
    return reserveBytes;
  }

  /** Eq. 8: remaining storage below tau_s. */
  public boolean isNearlyFull(Server server) {
    return server.remainingStorage() < reserveBytes;
  }

  /** A standby server that Eq. 8 turns cold. */
  public boolean shouldTurnCold(Server server) {
    return server.role() == ServerRole.STANDBY && isNearlyFull(server);
  }

  /** Whether {@code server} still takes replicas (remaining &gt;= tau_s) and this one fits. */
  public boolean canHold(Server server, long bytes) {
    return canHold(server.remainingStorage(), bytes);
  }

  /** The same test for a server with {@code remainingBytes} free, e.g. after placements not yet in its snapshot. */
  public boolean canHold(long remainingBytes, long bytes) {
    return remainingBytes >= reserveBytes && remainingBytes >= bytes;
  }
}
