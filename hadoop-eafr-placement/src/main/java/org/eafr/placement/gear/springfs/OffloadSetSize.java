package org.eafr.placement.gear.springfs;

/**
 * The size m of SpringFS's offload set (Xu et al., Sec. 3, "Choosing the offload set"): the servers of the offload
 * set write one complete copy of the primary replicas, so m = peak write throughput / one server's write throughput,
 * rounded up, and at least p (m = p is Rabbit without offloading). It is chosen on the fly, for each resizing interval,
 * from the peak write throughput expected in it.
 *
 * <p>Worked example (Sec. 5's small setup, 7 servers, p = 2, offload set of 3): a peak of 250 MB/s of primary writes
 * against 100 MB/s per server gives m = ceil(2.5) = 3; 80 MB/s gives 1, raised to p = 2.
 */
public final class OffloadSetSize {
  private OffloadSetSize() {
  }

  /**
   * @param peakWriteBytesPerSecond the peak rate of primary-replica bytes written (the client's write rate)
   * @param serverWriteBytesPerSecond one server's write throughput, above 0
   * @param primaries p
   * @param servers N, the upper bound
   */
  public static int of(double peakWriteBytesPerSecond, double serverWriteBytesPerSecond, int primaries, int servers) {
    if (!(serverWriteBytesPerSecond > 0) || !(peakWriteBytesPerSecond >= 0)) {
      throw new IllegalArgumentException("peak write " + peakWriteBytesPerSecond + " B/s against "
          + serverWriteBytesPerSecond + " B/s per server is not allowed: expected a peak >= 0 and a server rate > 0");
    }
    double needed = Math.ceil(peakWriteBytesPerSecond / serverWriteBytesPerSecond - 1e-9);
    return (int) Math.max(primaries, Math.min(servers, needed));
  }
}
