package org.eafr.sim.model;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;

/**
 * The simulated servers, spread evenly over racks (server i on rack i mod racks). Hardware is drawn from one seeded
 * {@link Random}: service capacity normal(15, variance 10) rounded, at least 1; storage 250, 500 or 750 GB; link
 * factor uniform in [{@link ModelConstants#MIN_LINK_FACTOR}, 1]. A seeded shuffle picks which servers start hot.
 */
public final class Cluster {
  private final List<SimServer> servers;
  private final int racks;
  private final BitSet down = new BitSet();

  private Cluster(List<SimServer> servers, int racks) {
    this.servers = Collections.unmodifiableList(servers);
    this.racks = racks;
    for (SimServer server : servers) {
      server.indexIn(down);
    }
  }

  /**
   * A cluster of {@code count} servers on {@code racks} racks.
   *
   * @param hotFraction share of servers that start hot; the others start standby, or hot too when
   *     {@code powerManaged} is false (the baselines keep every server on)
   */
  public static Cluster build(int count, int racks, double hotFraction, boolean powerManaged, Random random) {
    List<SimServer> servers = new ArrayList<>(count);
    int[] capacities = new int[count];
    long[] storage = new long[count];
    double[] links = new double[count];
    for (int i = 0; i < count; i++) {
      double c = ModelConstants.CAPACITY_MEAN + Math.sqrt(ModelConstants.CAPACITY_VARIANCE) * random.nextGaussian();
      capacities[i] = (int) Math.max(1, Math.round(c));
      storage[i] = ModelConstants.STORAGE_BYTES[random.nextInt(ModelConstants.STORAGE_BYTES.length)];
      links[i] = ModelConstants.NIC_BYTES_PER_SECOND
          * (ModelConstants.MIN_LINK_FACTOR + (1 - ModelConstants.MIN_LINK_FACTOR) * random.nextDouble());
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      order.add(i);
    }
    Collections.shuffle(order, random);
    int hot = (int) Math.round(count * hotFraction);
    boolean[] isHot = new boolean[count];
    for (int i = 0; i < hot; i++) {
      isHot[order.get(i)] = true;
    }
    for (int i = 0; i < count; i++) {
      ServerRole role = isHot[i] || !powerManaged ? ServerRole.HOT : ServerRole.STANDBY;
      servers.add(new SimServer(i, i % racks, capacities[i], storage[i], links[i], role));
    }
    return new Cluster(servers, racks);
  }

  /** A cluster of exactly these servers (tests). */
  public static Cluster of(List<SimServer> servers, int racks) {
    return new Cluster(new ArrayList<>(servers), racks);
  }

  public SimServer server(int index) {
    return servers.get(index);
  }

  /** The server with core id {@code id} ("s" + index). */
  public SimServer server(String id) {
    return servers.get(Integer.parseInt(id.substring(1)));
  }

  public List<SimServer> servers() {
    return servers;
  }

  /**
   * The indexes of the servers that serve no reads now (cold, failed), kept as their roles change: read it, never
   * change it. A server indexes in the last cluster built on it.
   */
  public BitSet down() {
    return down;
  }

  public int size() {
    return servers.size();
  }

  public int racks() {
    return racks;
  }

  /** An immutable view of every server for the core. */
  public ClusterView view() {
    List<Server> snapshots = new ArrayList<>(servers.size());
    for (SimServer server : servers) {
      snapshots.add(server.snapshot());
    }
    return ClusterView.of(snapshots);
  }

  /**
   * A view in which each server's h is its peak concurrent reads since the previous call: what an interval's planner
   * judges overload by. Reads last milliseconds, so the h of one instant (the interval's end) almost never shows the
   * bursts of concurrent reads that EAFR's Eq. 6 is meant to catch.
   */
  public ClusterView viewWithPeakLoad() {
    List<Server> snapshots = new ArrayList<>(servers.size());
    for (SimServer server : servers) {
      int peak = server.takePeakConcurrentReads();
      Server now = server.snapshot();
      snapshots.add(peak == now.concurrentReads() ? now : now.withConcurrentReads(peak));
    }
    return ClusterView.of(snapshots);
  }

  /** Snapshots of the servers with {@code role}, in index order. */
  public List<Server> withRole(ServerRole role) {
    List<Server> pool = new ArrayList<>();
    for (SimServer server : servers) {
      if (server.role() == role) {
        pool.add(server.snapshot());
      }
    }
    return pool;
  }

  /** Snapshots of every server that is not failed, in index order. */
  public List<Server> live() {
    List<Server> pool = new ArrayList<>();
    for (SimServer server : servers) {
      if (server.role() != ServerRole.FAILED) {
        pool.add(server.snapshot());
      }
    }
    return pool;
  }

  /** Bytes stored across the cluster. */
  public long storageUsed() {
    long used = 0;
    for (SimServer server : servers) {
      used += server.storageUsed();
    }
    return used;
  }
}
