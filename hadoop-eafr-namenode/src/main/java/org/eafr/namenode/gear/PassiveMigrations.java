package org.eafr.namenode.gear;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.ReplicaMap;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.policy.OwedMoves;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.eafr.placement.gear.springfs.PassiveMigration;
import org.eafr.placement.settings.EafrSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SpringFS's passive migration on a NameNode (Xu et al., Sec. 3; the core's {@link PassiveMigration}, as the
 * simulator's springfs policy runs it each control period), for a geared policy whose owed moves are
 * {@link OwedMoves#PASSIVE_MIGRATION}. A replica written away from its home while the home slept is not reflected at
 * gear-up (the gear service finds nothing owed, so a gear-up ends once its DataNodes are back in service): every
 * resizing interval ({@code eafr.gear.auto.interval.ms}) this service starts 1/T of the moves owed to homes that are
 * on (T = {@code eafr.gear.migration-threshold}), drops what is owed to a DataNode that already stores its equal-work
 * share (its block count against the namespace's, {@link DataNodeBlockCounts}), and leaves the rest to later
 * intervals.
 *
 * <p>The moves are reflection's ({@link OwedReflection}, {@link BlockMover}: replaceBlock with the source as the
 * deletion hint, throttled by the DataNodes' {@code dfs.datanode.balance.*}, at most
 * {@code eafr.gear.reflection.blocks-per-step} in flight), so a block never has fewer live replicas than before its
 * move. What is owed is recorded in the namespace beside the gear state ({@code <eafr.gear.state.dir>/passive}), so a
 * restarted or newly active NameNode resumes it. Runs on the active NameNode, out of safe mode, while no shift is
 * under way.
 */
public final class PassiveMigrations implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PassiveMigrations.class);

  private final NameNode nameNode;
  private final GearRuntime gears;
  private final GearStore store;
  private final OwedReflection migrator;
  private final PassiveMigration migration;
  private final ScheduledExecutorService scheduler;

  private PassiveMigrations(NameNode nameNode, GearRuntime gears, EafrSettings core, ReplicaMap replicaMap) {
    this.nameNode = nameNode;
    this.gears = gears;
    this.store = new GearStore(nameNode, gears.settings().stateDir() + "/passive");
    GearCounters counters = gears.counters();
    this.migrator = new OwedReflection(nameNode, gears, store, replicaMap, new GearDataNodes(nameNode, gears),
        bytes -> {
          counters.passiveMigratedBlocks.incrementAndGet();
          counters.passiveMigratedBytes.addAndGet(bytes);
        });
    this.migration = OwedMoves.PASSIVE_MIGRATION.migration(core, gears.settings().reflectionBlocksPerStep())
        .orElseThrow();
    this.scheduler = Executors.newSingleThreadScheduledExecutor(GearService.daemon("eafr-passive-migration"));
  }

  /** Starts the intervals of the policy in force, or returns empty when its owed moves are reflected. */
  public static Optional<PassiveMigrations> start(NameNode nameNode, GearRuntime gears, EafrSettings core,
      ReplicaMap replicaMap) {
    if (!gears.migratesPassively()) {
      return Optional.empty();
    }
    PassiveMigrations service = new PassiveMigrations(nameNode, gears, core, replicaMap);
    long interval = gears.settings().autoIntervalMillis();
    service.scheduler.scheduleWithFixedDelay(service::stepSafely, interval, interval, TimeUnit.MILLISECONDS);
    return Optional.of(service);
  }

  private void stepSafely() {
    try {
      step();
    } catch (Exception | Error e) { // keep the intervals: the next one starts again from the owed records
      LOG.error("EAFR passive migration interval failed", e);
    }
  }

  /** One resizing interval: records what new writes owe, then migrates 1/T of it. Tests call it directly too. */
  public synchronized void step() throws IOException {
    if (!nameNode.isActiveState() || nameNode.getNamesystem().isInSafeMode()) {
      return;
    }
    migrator.record(gears.takePassiveOwedPaths());
    Optional<GearedLayout> layout = gears.layout();
    if (layout.isPresent() && gears.state().phase() == ShiftPhase.STEADY) {
      migrator.migrate(layout.get(), migration, PassiveMigration.fromCounts(layout.get(),
          new DataNodeBlockCounts(nameNode.getNamesystem().getBlockManager(), layout.get().chain())));
    }
    gears.counters().passiveOwedFiles.set(store.owedCount());
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
    migrator.close();
  }
}
