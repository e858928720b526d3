package org.eafr.sim.model;

/**
 * The physical constants of the simulated cluster, each with its source or the reason for its value; see
 * docs/simulator.md. None of them is a knob for making one policy win: they are fixed before any policy runs.
 */
public final class ModelConstants {
  private ModelConstants() {
  }

  /** Nominal NIC speed: 1 Gbit/s Ethernet, the common HDFS DataNode link of the EAFR era, in bytes per second. */
  public static final double NIC_BYTES_PER_SECOND = 125_000_000.0;

  /**
   * Per-server link heterogeneity: a server's effective receive and send speed is the nominal speed times a factor
   * drawn uniformly from [this, 1]. EAFR Fig. 4 shows transfer speeds between servers differing several-fold; a
   * factor of up to 4 covers that range.
   */
  public static final double MIN_LINK_FACTOR = 0.25;

  /**
   * A flow between racks gets at most this share of its endpoints' link speed: a 2:1 oversubscribed rack uplink, the
   * mildest oversubscription that fat-tree and VL2 measurements report for production data centers (1:1 to 1:20+).
   */
  public static final double CROSS_RACK_FACTOR = 0.5;

  /**
   * TCP incast: n &gt; 1 concurrent inflows into one receiver get together 1 / (1 + k (n - 1)) of its link. With k = 0.6
   * goodput falls to about a fifth at 8 senders and below a tenth past 16, the collapse Phanishayee et al. measured
   * on 1 Gbit/s links with shallow switch buffers (FAST 2008, Fig. 2). Receive-side rate control (EAFR Alg. 2)
   * avoids the collapse while the senders' total rate stays below the link.
   */
  public static final double INCAST_PENALTY = 0.6;

  /** How often the receive-side rate controller (EAFR Alg. 2) adjusts its senders: every 100 ms. */
  public static final long RATE_CONTROL_PERIOD_MICROS = 100_000;

  /**
   * Under rate control the senders of one receiver together never go below 5% of its link (a receive window cannot
   * shrink to nothing); each sender's floor is that share divided among them.
   */
  public static final double RATE_CONTROL_MIN_SHARE = 0.05;

  /**
   * Disk access per read request: the average rotational latency of a 7,200 rpm disk (half a revolution, 60 / 7200 / 2
   * s = 4.17 ms); the seek is amortized by HDFS's sequential block reads.
   */
  public static final long DISK_ACCESS_MICROS = 4_167;

  /** The first response of a read is one HDFS packet, 64 KB (dfs.client-write-packet-size default). */
  public static final long RESPONSE_BYTES = 65_536;

  /** Concurrent replication streams per source server: HDFS's dfs.namenode.replication.max-streams default, 2. */
  public static final int REPLICATION_STREAMS_PER_SOURCE = 2;

  /** Update message size for a write: one HDFS packet per update (a record append), 64 KB. */
  public static final long UPDATE_BYTES = 65_536;

  /** A client's NIC: 1 Gbit/s, like the servers'. */
  public static final double CLIENT_BYTES_PER_SECOND = 125_000_000.0;

  /** Utilization sampling: once a minute; EAFR Sec. 4.1.4 reports the maximum of 10 samples per 10 minutes. */
  public static final long SAMPLE_PERIOD_MICROS = 60_000_000;

  /** Samples per reported utilization value (EAFR Sec. 4.1.4). */
  public static final int SAMPLES_PER_REPORT = 10;

  /** Service capacity: normal with mean 15 and variance 10, at least 1 (EAFR Sec. 4). */
  public static final double CAPACITY_MEAN = 15.0;

  public static final double CAPACITY_VARIANCE = 10.0;

  /** Storage capacities drawn uniformly from these (EAFR Sec. 4: 250, 500 or 750 GB). */
  public static final long[] STORAGE_BYTES = {250_000_000_000L, 500_000_000_000L, 750_000_000_000L};
}
