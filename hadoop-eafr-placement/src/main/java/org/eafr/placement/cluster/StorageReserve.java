package org.eafr.placement.cluster;

/**
 * The remaining-storage threshold tau_s of EAFR Eq. 8, used everywhere a server's storage is judged.
 *
 * <p>Eq. 8: a standby server is ready to turn cold when c_s - sum(b_j) &lt; tau_s. A server can take a new replica of
 * b bytes when, after storing it, it still keeps the reserve: c_s - sum(b_j) - b &gt;= tau_s. (Alg. 4 line 11 checks
 * the reserve before the new file; we include the file so that no placement can push a server below its reserve.)
 *
 * <p>Worked example: tau_s = 10 GB, a 250 GB standby server holding 241 GB has 9 GB left: it turns cold. With 200 GB
 * used it can take a 40 GB replica (10 GB left) but not a 41 GB one.
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

  /** Whether {@code server} can store {@code bytes} more and still keep the reserve. */
  public boolean canHold(Server server, long bytes) {
    return server.remainingStorage() - bytes >= reserveBytes;
  }
}
