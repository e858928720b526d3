package org.eafr.placement.gear;

/**
 * The measured storage load over the last window, or one server's capacity for the same quantities: block reads and
 * replica writes per second, bytes read and bytes written (every replica counted) per second, and optionally the
 * block transfers in progress (a NameNode sees them as the DataNodes' xceiver counts). Immutable; every value finite
 * and at least 0.
 *
 * <p>Servers needed (SpringFS Sec. 5.2, the "ideal" count): a server's time is shared between reads and writes, so the
 * load needs ops = reads/R + writes/W servers by operations and bytes = readBytes/RB + writeBytes/WB by bytes, where
 * R, W, RB, WB are one server's capacities; transfers in progress need transfers/X servers, X the concurrent
 * transfers one server carries. The load needs max(ops, bytes, transfers) servers. A capacity of 0 means that
 * dimension is not limiting and is skipped.
 *
 * <p>Worked example: 300 reads/s and 60 writes/s at 100 MB/s read and 30 MB/s written, against a server doing 50
 * reads/s, 20 writes/s, 40 MB/s read and 20 MB/s written: ops 6 + 3 = 9, bytes 2.5 + 1.5 = 4, so 9 servers. With 640
 * transfers in progress against 64 per server, transfers need 10: 10 servers.
 */
public final class LoadSample {
  private final double readsPerSecond;
  private final double writesPerSecond;
  private final double readBytesPerSecond;
  private final double writeBytesPerSecond;
  private final double transfers;

  public LoadSample(double readsPerSecond, double writesPerSecond, double readBytesPerSecond,
      double writeBytesPerSecond) {
    this(readsPerSecond, writesPerSecond, readBytesPerSecond, writeBytesPerSecond, 0);
  }

  /** A load (or capacity) that also counts block transfers in progress (or the concurrent transfers one carries). */
  public LoadSample(double readsPerSecond, double writesPerSecond, double readBytesPerSecond,
      double writeBytesPerSecond, double transfers) {
    this.readsPerSecond = check("readsPerSecond", readsPerSecond);
    this.writesPerSecond = check("writesPerSecond", writesPerSecond);
    this.readBytesPerSecond = check("readBytesPerSecond", readBytesPerSecond);
    this.writeBytesPerSecond = check("writeBytesPerSecond", writeBytesPerSecond);
    this.transfers = check("transfers", transfers);
  }

  public static LoadSample idle() {
    return new LoadSample(0, 0, 0, 0);
  }

  public double readsPerSecond() {
    return readsPerSecond;
  }

  public double writesPerSecond() {
    return writesPerSecond;
  }

  public double readBytesPerSecond() {
    return readBytesPerSecond;
  }

  public double writeBytesPerSecond() {
    return writeBytesPerSecond;
  }

  /** Block transfers in progress (for a capacity: the concurrent transfers one server carries). */
  public double transfers() {
    return transfers;
  }

  /** How many servers of capacity {@code perServer} this load keeps busy (see the class comment). */
  public double serversNeeded(LoadSample perServer) {
    double ops = ratio(readsPerSecond, perServer.readsPerSecond) + ratio(writesPerSecond, perServer.writesPerSecond);
    double bytes = ratio(readBytesPerSecond, perServer.readBytesPerSecond)
        + ratio(writeBytesPerSecond, perServer.writeBytesPerSecond);
    return Math.max(Math.max(ops, bytes), ratio(transfers, perServer.transfers));
  }

  private static double ratio(double load, double capacity) {
    return capacity > 0 ? load / capacity : 0;
  }

  private static double check(String name, double value) {
    if (!(value >= 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException(name + " = " + value + " is not allowed: expected a finite number >= 0");
    }
    return value;
  }

  @Override
  public String toString() {
    return String.format("%.1f reads/s, %.1f writes/s, %.0f B/s read, %.0f B/s written, %.0f transfers",
        readsPerSecond, writesPerSecond, readBytesPerSecond, writeBytesPerSecond, transfers);
  }
}
