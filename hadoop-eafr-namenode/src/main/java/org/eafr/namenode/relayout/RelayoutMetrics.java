package org.eafr.namenode.relayout;

import java.util.Map;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.eafr.namenode.cluster.Metric;

/**
 * Relayout's metrics2 source (JMX {@code Hadoop:service=NameNode,name=EafrRelayout}; on /prom as
 * {@code eafr_relayout_*}): counters of the moves this NameNode made since it started, and gauges of the relayout
 * under way (running, moves in flight, bytes planned against the lower bound), and the lowest gear's DataNodes and
 * whether it falls short of one copy of the data (the alert for {@code hdfs eafr relayout grow}).
 */
public final class RelayoutMetrics implements MetricsSource {
  public static final String NAME = "EafrRelayout";
  private static final Metric BLOCKS_PLANNED = Metric.counter("BlocksPlannedTotal",
      "Blocks relayout planned since the NameNode started");
  private static final Metric MOVES = Metric.counter("MovesTotal", "Replica moves relayout made");
  private static final Metric MOVED_BYTES = Metric.counter("MovedBytesTotal", "Bytes of the replicas relayout moved");
  private static final Metric FAILED_MOVES = Metric.counter("FailedMovesTotal",
      "Replica moves relayout started that failed (the block stays where it was)");
  private static final Metric RUNNING = Metric.gauge("Running", "1 while a relayout runs or waits to go on, else 0");
  private static final Metric IN_FLIGHT = Metric.gauge("MovesInFlight", "Relayout moves in flight now");
  private static final Metric PLANNED_BYTES = Metric.gauge("PlannedBytes",
      "Bytes the relayout under way (or the last one) has planned to move");
  private static final Metric LOWER_BOUND_BYTES = Metric.gauge("LowerBoundBytes",
      "Bytes any relayout of the same blocks onto the layout within its shares must move");
  private static final Metric LOWEST_GEAR_DATANODES = Metric.gauge("LowestGearDataNodes",
      "DataNodes the layout's lowest gear keeps on (p for equal-work; 'hdfs eafr relayout grow' raises it)");
  private static final Metric LOWEST_GEAR_SHORT = Metric.gauge("LowestGearShort",
      "1 while the lowest gear does not hold one copy of the data with eafr.gear.capacity-headroom (status names the"
          + " p to grow to), else 0");

  private final RelayoutService service;

  public RelayoutMetrics(RelayoutService service) {
    this.service = service;
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    MetricsRecordBuilder record = collector.addRecord(NAME).setContext("dfs");
    RelayoutService.Counters counters = service.counters();
    BLOCKS_PLANNED.addTo(record, counters.blocksPlanned.get());
    MOVES.addTo(record, counters.moves.get());
    MOVED_BYTES.addTo(record, counters.movedBytes.get());
    FAILED_MOVES.addTo(record, counters.failedMoves.get());
    Map<String, Object> values = service.values();
    String state = String.valueOf(values.get("state"));
    RUNNING.addTo(record, state.equals("running") || state.equals("waiting") ? 1 : 0);
    IN_FLIGHT.addTo(record, (Number) values.get("movesInFlight"));
    PLANNED_BYTES.addTo(record, (Number) values.get("plannedBytes"));
    LOWER_BOUND_BYTES.addTo(record, (Number) values.get("lowerBoundBytes"));
    Object lowest = values.get("lowestGearDataNodes");
    LOWEST_GEAR_DATANODES.addTo(record, lowest == null ? 0 : (Number) lowest);
    LOWEST_GEAR_SHORT.addTo(record, service.lowestGearRoom().map(room -> room.holdsOneCopy() ? 0 : 1).orElse(0));
  }
}
