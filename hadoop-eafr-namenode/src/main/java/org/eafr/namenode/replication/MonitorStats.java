package org.eafr.namenode.replication;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.popularity.FileTemperature;

/**
 * Counters of the replication monitor, for the metrics source and for tests: rounds run, replicas added, removed
 * and migrated, bytes copied, time spent deciding, and the last round's files per class and nodes per role.
 */
public final class MonitorStats {
  private final AtomicLong rounds = new AtomicLong();
  private final AtomicLong added = new AtomicLong();
  private final AtomicLong removed = new AtomicLong();
  private final AtomicLong migrated = new AtomicLong();
  private final AtomicLong bytesMoved = new AtomicLong();
  private final AtomicLong bytesMigrated = new AtomicLong();
  private final AtomicLong decidingNanos = new AtomicLong();
  private volatile Map<FileTemperature, Integer> filesPerClass = new EnumMap<>(FileTemperature.class);
  private volatile Map<ServerRole, Integer> nodesPerRole = new EnumMap<>(ServerRole.class);
  private volatile int filesBelowMinReplicas;
  private volatile List<String> someFilesBelowMinReplicas = List.of();
  private volatile int owedMigrations;

  public void roundDone(long nanos, Map<FileTemperature, Integer> files, Map<ServerRole, Integer> nodes) {
    decidingNanos.addAndGet(nanos);
    filesPerClass = new EnumMap<>(files);
    nodesPerRole = new EnumMap<>(nodes);
    rounds.incrementAndGet();
  }

  public void belowMinReplicas(int files, List<String> examples) {
    filesBelowMinReplicas = files;
    someFilesBelowMinReplicas = List.copyOf(examples);
  }

  /** Files whose replication factor was below r ({@code eafr.min-replicas}) in the last round. */
  public int filesBelowMinReplicas() {
    return filesBelowMinReplicas;
  }

  /** EAFR on gears: the cold migrations owed to DataNodes of gears asleep at the last round. */
  public void owedMigrations(int owed) {
    owedMigrations = owed;
  }

  public int owedMigrations() {
    return owedMigrations;
  }

  /** Up to {@value ReplicationMonitor#BELOW_MIN_EXAMPLES} of them, in namespace order. */
  public List<String> someFilesBelowMinReplicas() {
    return someFilesBelowMinReplicas;
  }

  public void countAdded(long bytes) {
    added.incrementAndGet();
    bytesMoved.addAndGet(bytes);
  }

  public void countRemoved() {
    removed.incrementAndGet();
  }

  public void countMigrated(long bytes) {
    migrated.incrementAndGet();
    bytesMoved.addAndGet(bytes);
    bytesMigrated.addAndGet(bytes);
  }

  public long rounds() {
    return rounds.get();
  }

  public long added() {
    return added.get();
  }

  public long removed() {
    return removed.get();
  }

  public long migrated() {
    return migrated.get();
  }

  public long bytesMoved() {
    return bytesMoved.get();
  }

  /** The bytes of {@link #bytesMoved} that migrations copied. */
  public long bytesMigrated() {
    return bytesMigrated.get();
  }

  public long decidingNanos() {
    return decidingNanos.get();
  }

  public int files(FileTemperature temperature) {
    return filesPerClass.getOrDefault(temperature, 0);
  }

  public int nodes(ServerRole role) {
    return nodesPerRole.getOrDefault(role, 0);
  }
}
