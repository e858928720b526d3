package org.eafr.datanode.rate;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;

/**
 * The receive rate control's metrics2 source on a DataNode (JMX
 * {@code Hadoop:service=DataNode,name=EafrDataNode-HOST-PORT}, and the /prom page with
 * {@code hadoop.prometheus.endpoint.enabled}).
 */
public final class ReceiveRateMetrics implements MetricsSource {
  public static final String NAME_PREFIX = "EafrDataNode-";

  private final String name;
  private final ReceiveStats stats;

  public ReceiveRateMetrics(String name, ReceiveStats stats) {
    this.name = name;
    this.stats = stats;
  }

  /** The source name for a DataNode shown as HOST:PORT (several DataNodes may share one JVM in tests). */
  public static String nameFor(String dataNodeDisplayName) {
    return NAME_PREFIX + dataNodeDisplayName.replace(':', '-');
  }

  public String name() {
    return name;
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    MetricsRecordBuilder record = collector.addRecord("EafrDataNode").setContext("dfs");
    record.addGauge(Interns.info("InboundBytesPerSecond", "Block-write bytes received per second, last full second"),
        stats.bytesPerSecond());
    record.addCounter(Interns.info("InboundBytesTotal", "Block-write bytes received through the rate control"),
        stats.bytes());
    record.addGauge(Interns.info("Senders", "Connections writing blocks to this DataNode now"), stats.senders());
    record.addGauge(Interns.info("LinkCapacityBytesPerSecond",
        "c_b in use: the configured link capacity, or the stock write cap when lower"),
        stats.capacityBytesPerSecond());
    record.addCounter(Interns.info("AdjustmentsDownTotal", "Sender rates lowered (Eq. 14), one per sender per round"),
        stats.adjustmentsDown());
    record.addCounter(Interns.info("AdjustmentsUpTotal", "Sender rates raised (Eq. 15), one per sender per round"),
        stats.adjustmentsUp());
    record.addCounter(Interns.info("ThrottledMillisecondsTotal",
        "Milliseconds block writers were held back, summed over writers"),
        stats.throttledMillis());
    record.addCounter(Interns.info("WaitsCappedTotal",
        "Packets let in at the wait cap, half the writers' socket timeout, before their rate allowed"),
        stats.waitsCapped());
    record.addCounter(Interns.info("ReinstallsTotal",
        "Times the throttler was put back after a reconfiguration replaced it"), stats.reinstalls());
  }
}
