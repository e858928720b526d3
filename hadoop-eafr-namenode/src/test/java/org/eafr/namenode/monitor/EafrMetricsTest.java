package org.eafr.namenode.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricType;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.namenode.replication.MonitorStats;
import org.eafr.namenode.gear.GearSettings;
import org.eafr.namenode.gear.GearStatus;
import org.eafr.namenode.transfer.TransferTracker;
import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.api.Test;

/**
 * The EafrNameNode source follows Prometheus' conventions for every number it has, including one added to the gear
 * status later: each has a metric (else the whole source fails to report), no tag, and a counter is typed counter
 * exactly when its name ends in Total.
 */
class EafrMetricsTest {
  @Test
  void everyGearNumberHasAMetric_noTags_countersEndInTotal() {
    GearRuntime gears = new GearRuntime(GearSettings.from(key -> null), EafrSettings.defaults());
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    new EafrMetrics(new MonitorStats(), new TransferTracker(10, 1, 1_000, (target, bytes, millis) -> { }), gears,
        null).getMetrics(collector, true);

    MetricsRecord record = collector.getRecords().get(0);
    assertThat(record.tags()).extracting(tag -> tag.name()).as("no tag but Hadoop's context").containsOnly("Context");
    List<String> names = new ArrayList<>();
    for (AbstractMetric metric : record.metrics()) {
      names.add(metric.name());
      assertThat(metric.type()).as(metric.name())
          .isEqualTo(metric.name().endsWith("Total") ? MetricType.COUNTER : MetricType.GAUGE);
      assertThat(metric.description()).as(metric.name()).doesNotContain("docs/");
    }
    for (Map.Entry<String, Object> value : GearStatus.of(gears).values().entrySet()) {
      if (!GearStatus.WORDS.contains(value.getKey())) {
        assertThat(names).as("the metric of " + value.getKey())
            .contains(EafrMetrics.GEAR_METRICS.get(value.getKey()).name());
      }
    }
    assertThat(names).contains("ReReplicationsDeferredTotal", "GearShiftsTotal", "Gear", "GearShiftUnderWay");
  }
}
