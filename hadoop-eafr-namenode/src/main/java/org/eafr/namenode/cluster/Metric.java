package org.eafr.namenode.cluster;

import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricType;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsVisitor;
import org.apache.hadoop.metrics2.lib.Interns;

/**
 * One EAFR metric as JMX and /prom show it, following Prometheus' conventions: Hadoop's Prometheus sink names it
 * {@code <record>_<name>} in snake case and adds no suffix, so a counter's name ends in {@code Total} and a unit is
 * spelled out before it ({@code EnergyUsedKwhTotal} becomes {@code eafr_name_node_energy_used_kwh_total}); the help
 * says what the number is. A value that is not known yet (a gear before the chain is fixed) is NaN, so the series
 * never vanishes.
 */
public final class Metric {
  private final MetricsInfo info;
  private final boolean counter;

  private Metric(String name, String help, boolean counter) {
    if (counter != name.endsWith("Total")) {
      throw new IllegalArgumentException("metric " + name + ": a counter's name ends in Total, a gauge's does not");
    }
    this.info = Interns.info(name, help);
    this.counter = counter;
  }

  /** A count or a sum since the NameNode started, which only grows. */
  public static Metric counter(String name, String help) {
    return new Metric(name, help, true);
  }

  /** A value that goes up and down. */
  public static Metric gauge(String name, String help) {
    return new Metric(name, help, false);
  }

  public String name() {
    return info.name();
  }

  public boolean isCounter() {
    return counter;
  }

  /** Adds {@code value} (a Long, an Integer, a Double, or null when not known) to {@code record}. */
  public void addTo(MetricsRecordBuilder record, Number value) {
    if (counter && value == null) {
      record.add(new DoubleCounter(info, Double.NaN));
    } else if (counter && (value instanceof Long || value instanceof Integer)) {
      record.addCounter(info, value.longValue());
    } else if (counter && value != null) {
      record.add(new DoubleCounter(info, value.doubleValue()));
    } else if (value == null) {
      record.addGauge(info, Double.NaN);
    } else if (value instanceof Double) {
      record.addGauge(info, value.doubleValue());
    } else {
      record.addGauge(info, value.longValue());
    }
  }

  /**
   * A counter of a fractional amount (kWh, seconds), which metrics2's record builder does not offer; JMX shows it as a
   * double attribute.
   */
  private static final class DoubleCounter extends AbstractMetric {
    private final double value;

    DoubleCounter(MetricsInfo info, double value) {
      super(info);
      this.value = value;
    }

    @Override
    public Number value() {
      return value;
    }

    @Override
    public MetricType type() {
      return MetricType.COUNTER;
    }

    @Override
    public void visit(MetricsVisitor visitor) {
      visitor.gauge(this, value); // the visitor has no double counter; its JMX attribute type is what matters
    }
  }
}
