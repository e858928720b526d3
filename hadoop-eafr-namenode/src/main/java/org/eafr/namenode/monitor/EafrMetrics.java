package org.eafr.namenode.monitor;

import java.util.function.Supplier;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;
import org.eafr.namenode.energy.EnergySnapshot;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.namenode.gear.GearStatus;
import org.eafr.namenode.transfer.TransferTracker;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.popularity.FileTemperature;

/**
 * EAFR's metrics2 source on the NameNode (JMX {@code Hadoop:service=NameNode,name=EafrNameNode}, and the /prom page
 * with {@code hadoop.prometheus.endpoint.enabled}): files per class and nodes per role as of the last round, replicas
 * added, removed and migrated, bytes copied, rounds, time spent deciding, and the DataNode-to-DataNode copies timed
 * for the transfer-speed EWMA (Eq. 9); and the gears ({@link GearStatus}: gear, target gear, phase, sleeping DataNodes,
 * reflection backlog, shifts, refusals, power failures, blocks reflected); and the energy estimate
 * ({@link EnergySnapshot}: DataNodes per power state, watts now and all on, kWh used and saved since start). Each
 * DataNode's role and power state are in the {@link EafrDataNodes} bean, not here: a metrics2 tag becomes a label of
 * every metric on /prom.
 */
public final class EafrMetrics implements MetricsSource {
  public static final String NAME = "EafrNameNode";

  private final MonitorStats stats;
  private final TransferTracker transfers;
  private final GearRuntime gears;
  private final Supplier<EnergySnapshot> energy;

  /** @param energy the energy estimate's latest sample ({@link EnergySnapshot}), or null for none */
  public EafrMetrics(MonitorStats stats, TransferTracker transfers, GearRuntime gears,
      Supplier<EnergySnapshot> energy) {
    this.stats = stats;
    this.transfers = transfers;
    this.gears = gears;
    this.energy = energy;
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    MetricsRecordBuilder record = collector.addRecord(NAME).setContext("dfs");
    record.addGauge(Interns.info("HotFiles", "Files classified hot in the last round"),
        stats.files(FileTemperature.HOT));
    record.addGauge(Interns.info("NormalFiles", "Files classified normal in the last round"),
        stats.files(FileTemperature.NORMAL));
    record.addGauge(Interns.info("ColdFiles", "Files classified cold in the last round"),
        stats.files(FileTemperature.COLD));
    for (ServerRole role : ServerRole.values()) {
      String name = role.name().charAt(0) + role.name().substring(1).toLowerCase(java.util.Locale.ROOT);
      record.addGauge(Interns.info(name + "Nodes", "DataNodes in role " + role + " in the last round"),
          stats.nodes(role));
    }
    record.addGauge(Interns.info("FilesBelowMinReplicas",
        "Files whose replication factor was below eafr.min-replicas in the last round (reported, not raised)"),
        stats.filesBelowMinReplicas());
    record.addCounter(Interns.info("Rounds", "Replication rounds run"), stats.rounds());
    record.addCounter(Interns.info("ReplicasAdded", "Replicas added for hot files"), stats.added());
    record.addCounter(Interns.info("ReplicasRemoved", "Replicas removed from cold files"), stats.removed());
    record.addCounter(Interns.info("ReplicasMigrated", "Replicas migrated to standby servers"), stats.migrated());
    record.addCounter(Interns.info("BytesMoved", "Bytes of file data copied by adds and migrations"),
        stats.bytesMoved());
    record.addCounter(Interns.info("DecidingMillis",
        "Time spent reading the namespace, classifying and planning, in milliseconds"),
        stats.decidingNanos() / 1_000_000);
    record.addCounter(Interns.info("TransfersTimed", "DataNode-to-DataNode copies timed for the speed EWMA"),
        transfers.timed());
    record.addCounter(Interns.info("BytesTimed", "Bytes of the copies timed for the speed EWMA"),
        transfers.timedBytes());
    record.addCounter(Interns.info("TransfersNotTimed", "Copies scheduled but not timed (bound, no block, timeout)"),
        transfers.untimed());
    GearStatus.of(gears).values().forEach((name, value) -> {
      if (value instanceof String) {
        record.tag(Interns.info(name, "Gears: " + name), (String) value);
      } else {
        record.addGauge(Interns.info(name, "Gears: " + name + " (docs/namenode.md, Gears)"), (Long) value);
      }
    });
    if (energy != null) {
      energy.get().values().forEach((name, value) -> {
        MetricsInfo info = Interns.info(name, "Energy: " + name + " (docs/namenode.md, Energy)");
        if (value instanceof Double) {
          record.addGauge(info, (Double) value);
        } else {
          record.addGauge(info, (Long) value);
        }
      });
    }
  }
}
