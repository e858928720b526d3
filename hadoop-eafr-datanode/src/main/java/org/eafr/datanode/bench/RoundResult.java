package org.eafr.datanode.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * One measured round of a scenario in one mode: block copies, their transfer time p50 and p99 (nearest rank), the
 * goodput into the receivers (bytes of all copies over first start to last end), TCP retransmitted segments and
 * retransmission timeouts on the senders, and the completion time (from the moment replication was asked for to
 * the last copy's end). One CSV row.
 */
public final class RoundResult {
  public static final String CSV_HEADER =
      "scenario,mode,round,blocks,p50_ms,p99_ms,goodput_mbit_s,retrans_segs,rto_timeouts,completion_ms";

  private final String scenario;
  private final String mode;
  private final int round;
  private final int blocks;
  private final long p50Millis;
  private final long p99Millis;
  private final double goodputMbitPerSecond;
  private final long retransmittedSegments;
  private final long timeouts;
  private final long completionMillis;

  RoundResult(String scenario, String mode, int round, int blocks, long p50Millis, long p99Millis,
      double goodputMbitPerSecond, long retransmittedSegments, long timeouts, long completionMillis) {
    this.scenario = scenario;
    this.mode = mode;
    this.round = round;
    this.blocks = blocks;
    this.p50Millis = p50Millis;
    this.p99Millis = p99Millis;
    this.goodputMbitPerSecond = goodputMbitPerSecond;
    this.retransmittedSegments = retransmittedSegments;
    this.timeouts = timeouts;
    this.completionMillis = completionMillis;
  }

  /**
   * Summarises the transfers of one round.
   *
   * @param requestedMillis when replication was asked for (epoch ms)
   */
  public static RoundResult of(String scenario, String mode, int round, List<BlockTransfer> transfers,
      long requestedMillis, long retransmittedSegments, long timeouts) {
    if (transfers.isEmpty()) {
      throw new IllegalArgumentException(scenario + " " + mode + " round " + round
          + ": no block copies found in the logs (were the DataNodes logging at INFO?)");
    }
    List<Long> durations = new ArrayList<>();
    long bytes = 0;
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (BlockTransfer transfer : transfers) {
      durations.add(transfer.durationMillis());
      bytes += transfer.bytes();
      first = Math.min(first, transfer.startMillis());
      last = Math.max(last, transfer.endMillis());
    }
    Collections.sort(durations);
    double seconds = Math.max(1, last - first) / 1000.0;
    return new RoundResult(scenario, mode, round, transfers.size(), nearestRank(durations, 50),
        nearestRank(durations, 99), bytes * 8 / 1e6 / seconds, retransmittedSegments, timeouts,
        last - requestedMillis);
  }

  /** The nearest-rank percentile of sorted values: the smallest value with at least p% of values at or below it. */
  static long nearestRank(List<Long> sorted, int percent) {
    int rank = (int) Math.ceil(percent / 100.0 * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }

  public static RoundResult parseCsv(String line) {
    String[] f = line.split(",");
    if (f.length != 10) {
      throw new IllegalArgumentException("results line '" + line + "' is malformed: expected the 10 columns "
          + CSV_HEADER);
    }
    try {
      return new RoundResult(f[0], f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3]), Long.parseLong(f[4]),
          Long.parseLong(f[5]), Double.parseDouble(f[6]), Long.parseLong(f[7]), Long.parseLong(f[8]),
          Long.parseLong(f[9]));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("results line '" + line + "' is malformed: " + e.getMessage(), e);
    }
  }

  public String toCsv() {
    return String.format(Locale.ROOT, "%s,%s,%d,%d,%d,%d,%.2f,%d,%d,%d", scenario, mode, round, blocks, p50Millis,
        p99Millis, goodputMbitPerSecond, retransmittedSegments, timeouts, completionMillis);
  }

  public String scenario() {
    return scenario;
  }

  public String mode() {
    return mode;
  }

  public int round() {
    return round;
  }

  public int blocks() {
    return blocks;
  }

  public long p50Millis() {
    return p50Millis;
  }

  public long p99Millis() {
    return p99Millis;
  }

  public double goodputMbitPerSecond() {
    return goodputMbitPerSecond;
  }

  public long retransmittedSegments() {
    return retransmittedSegments;
  }

  public long timeouts() {
    return timeouts;
  }

  public long completionMillis() {
    return completionMillis;
  }
}
