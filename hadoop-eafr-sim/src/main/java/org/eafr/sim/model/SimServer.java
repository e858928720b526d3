package org.eafr.sim.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;

/**
 * One simulated server: its fixed hardware (rack, service capacity, storage, link speed) and its changing state
 * (role, reads being served, the FIFO of waiting reads, bytes stored, transfers in and out). Reads beyond the service
 * capacity wait in the queue; their wait counts in read latency. The core sees the server through {@link #snapshot()},
 * an immutable {@link Server} rebuilt only after a change.
 */
public final class SimServer {
  private final int index;
  private final String id;
  private final int rack;
  private final String rackName;
  private final int capacity;
  private final long storageCapacity;
  private final double linkBytesPerSecond;

  private ServerRole role;
  private long storageUsed;
  private long peakStorageUsed;
  private int serving;
  private long[] queueArrivals = new long[16];
  private long[] queueServices = new long[16];
  private int[] queueFiles = new int[16];
  private int queueHead;
  private int queueSize;
  private Server snapshot;
  private long busySince;
  private double busySlotMicros;
  private long wakeAt = -1;
  private long powerOns;
  final List<Flow> inFlows = new ArrayList<>();
  final List<Flow> outFlows = new ArrayList<>();
  private int replicationStreams;
  private int peakConcurrentReads;
  /** Its cluster's index of servers that serve no reads, kept as the role changes ({@link Cluster#down}). */
  private BitSet downIndex;

  public SimServer(int index, int rack, int capacity, long storageCapacity, double linkBytesPerSecond,
      ServerRole role) {
    this.index = index;
    this.id = idOf(index);
    this.rack = rack;
    this.rackName = "/rack" + rack;
    this.capacity = capacity;
    this.storageCapacity = storageCapacity;
    this.linkBytesPerSecond = linkBytesPerSecond;
    this.role = role;
  }

  public int index() {
    return index;
  }

  /**
   * "s" and the index: the id of the server with that index, one string per index shared by every run, so the core's
   * views of millions of files name their servers without a string each.
   */
  public static String idOf(int index) {
    String[] ids = sharedIds;
    return index < ids.length ? ids[index] : grownTo(index)[index];
  }

  private static volatile String[] sharedIds = new String[0];

  private static synchronized String[] grownTo(int index) {
    String[] ids = sharedIds;
    if (index >= ids.length) {
      String[] more = Arrays.copyOf(ids, Math.max(index + 1, 2 * ids.length));
      for (int i = ids.length; i < more.length; i++) {
        more[i] = "s" + i;
      }
      sharedIds = more;
      ids = more;
    }
    return ids;
  }

  public String id() {
    return id;
  }

  public int rack() {
    return rack;
  }

  public String rackName() {
    return rackName;
  }

  public int capacity() {
    return capacity;
  }

  public long storageCapacity() {
    return storageCapacity;
  }

  public long storageUsed() {
    return storageUsed;
  }

  public double linkBytesPerSecond() {
    return linkBytesPerSecond;
  }

  public ServerRole role() {
    return role;
  }

  /** h: reads being served plus reads waiting. */
  public int concurrentReads() {
    return serving + queueSize;
  }

  public int serving() {
    return serving;
  }

  public boolean hasFreeSlot() {
    return serving < capacity;
  }

  /** Replication transfers this server is sending now. */
  public int replicationStreams() {
    return replicationStreams;
  }

  public void changeReplicationStreams(int delta) {
    replicationStreams += delta;
  }

  /** The time a waking cold server becomes able to serve, or -1 when it is not waking. */
  public long wakeAt() {
    return wakeAt;
  }

  public void setWakeAt(long micros) {
    this.wakeAt = micros;
  }

  /** It came up from sleep (one power cycle). */
  public void poweredOn() {
    powerOns++;
  }

  /** How often it came up from sleep in the run. */
  public long powerOns() {
    return powerOns;
  }

  /** The immutable view the core's policies take. */
  public Server snapshot() {
    Server s = snapshot;
    if (s == null) {
      s = Server.builder(id).rack(rackName).role(role).serviceCapacity(capacity).concurrentReads(concurrentReads())
          .storageCapacity(storageCapacity).storageUsed(Math.min(storageUsed, storageCapacity)).build();
      snapshot = s;
    }
    return s;
  }

  public void setRole(ServerRole newRole, long nowMicros) {
    accountBusy(nowMicros);
    role = newRole;
    snapshot = null;
    if (downIndex != null) {
      downIndex.set(index, !newRole.servesReads());
    }
  }

  /** From now on {@code down} holds whether this server serves no reads, at its index. */
  void indexIn(BitSet down) {
    downIndex = down;
    down.set(index, !role.servesReads());
  }

  public void addStorage(long bytes) {
    storageUsed += bytes;
    peakStorageUsed = Math.max(peakStorageUsed, storageUsed);
    snapshot = null;
  }

  /** The most bytes this server has stored at any moment of the run. */
  public long peakStorageUsed() {
    return peakStorageUsed;
  }

  /** Occupies a service slot from now. */
  public void startServing(long nowMicros) {
    accountBusy(nowMicros);
    serving++;
    notePeak();
    snapshot = null;
  }

  private void notePeak() {
    peakConcurrentReads = Math.max(peakConcurrentReads, concurrentReads());
  }

  /** The most concurrent reads (h) since the last call, and starts the next period at the current h. */
  public int takePeakConcurrentReads() {
    int peak = Math.max(peakConcurrentReads, concurrentReads());
    peakConcurrentReads = concurrentReads();
    return peak;
  }

  /** Frees a service slot. */
  public void finishServing(long nowMicros) {
    accountBusy(nowMicros);
    serving--;
    snapshot = null;
  }

  public void enqueue(long arrivalMicros, long serviceMicros, int file) {
    if (queueSize == queueArrivals.length) {
      growQueue();
    }
    int tail = (queueHead + queueSize) % queueArrivals.length;
    queueArrivals[tail] = arrivalMicros;
    queueServices[tail] = serviceMicros;
    queueFiles[tail] = file;
    queueSize++;
    notePeak();
    snapshot = null;
  }

  public boolean hasQueued() {
    return queueSize > 0;
  }

  public long queuedArrival() {
    return queueArrivals[queueHead];
  }

  public long queuedService() {
    return queueServices[queueHead];
  }

  public int queuedFile() {
    return queueFiles[queueHead];
  }

  public void dequeue() {
    queueHead = (queueHead + 1) % queueArrivals.length;
    queueSize--;
    snapshot = null;
  }

  /** Removes every waiting read (a failed server), returning how many were dropped. */
  public int dropQueue() {
    int dropped = queueSize;
    queueSize = 0;
    queueHead = 0;
    snapshot = null;
    return dropped;
  }

  private void growQueue() {
    int n = queueArrivals.length;
    long[] arrivals = new long[n * 2];
    long[] services = new long[n * 2];
    int[] files = new int[n * 2];
    for (int i = 0; i < queueSize; i++) {
      arrivals[i] = queueArrivals[(queueHead + i) % n];
      services[i] = queueServices[(queueHead + i) % n];
      files[i] = queueFiles[(queueHead + i) % n];
    }
    queueArrivals = arrivals;
    queueServices = services;
    queueFiles = files;
    queueHead = 0;
  }

  /** Slot-microseconds of service since the last call; the mean utilization over a period is this / (c_c x period). */
  public double takeBusySlotMicros(long nowMicros) {
    accountBusy(nowMicros);
    double busy = busySlotMicros;
    busySlotMicros = 0;
    return busy;
  }

  private void accountBusy(long nowMicros) {
    busySlotMicros += (double) serving * (nowMicros - busySince);
    busySince = nowMicros;
  }

  @Override
  public String toString() {
    return id + "[" + role + " " + rackName + " " + concurrentReads() + "/" + capacity + "]";
  }
}
