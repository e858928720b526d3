package org.eafr.namenode.energy;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.eafr.namenode.cluster.MetricNames;
import org.eafr.namenode.power.DataNodePowerState;
import org.eafr.placement.power.ClusterEnergy;

/**
 * One energy sample of the cluster as operators see it, in one place for the EafrNameNode metrics and
 * {@code hdfs eafr status}, so both show the same numbers: DataNodes per power state, watts now and with every
 * DataNode on, kWh used and saved since the NameNode started, and each DataNode's part.
 */
public final class EnergySnapshot {
  private final ClusterEnergy.Sample sample;
  private final Map<String, NodeEnergy> nodes;
  private final Map<DataNodePowerState, Long> perState = new EnumMap<>(DataNodePowerState.class);

  EnergySnapshot(ClusterEnergy.Sample sample, Map<String, NodeEnergy> nodes) {
    this.sample = sample;
    this.nodes = Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
    for (DataNodePowerState state : DataNodePowerState.values()) {
      perState.put(state, 0L);
    }
    for (NodeEnergy node : nodes.values()) {
      perState.merge(node.powerState(), 1L, Long::sum);
    }
  }

  /** Before the first sample: no DataNodes, nothing drawn. */
  static EnergySnapshot empty(ClusterEnergy.Sample start) {
    return new EnergySnapshot(start, Map.of());
  }

  /**
   * Name to value, in display order: Longs are DataNode counts, Doubles watts and kWh ({@code EafrMetrics} names each
   * number's metric).
   */
  public Map<String, Object> values() {
    Map<String, Object> values = new LinkedHashMap<>();
    perState.forEach((state, count) -> values.put(perStateName(state), count));
    values.put("WattsNow", sample.watts());
    values.put("WattsAllOn", sample.allOnWatts());
    values.put("WattsMeasured", sample.measuredWatts());
    values.put("EnergyUsedKwh", sample.kilowattHours());
    values.put("EnergyMeasuredKwh", sample.measuredKilowattHours());
    values.put("EnergySavedKwh", sample.savedKilowattHours());
    return values;
  }

  /** The name of the count of DataNodes in {@code state}: ON -> DataNodesOn, UNKNOWN -> DataNodesPowerUnknown. */
  public static String perStateName(DataNodePowerState state) {
    String word = state.name().charAt(0) + state.name().substring(1).toLowerCase(Locale.ROOT);
    return "DataNodes" + (state == DataNodePowerState.UNKNOWN ? "Power" : "") + word;
  }

  /** The same with JSON-style names (first letter lower case), plus the sample's time, for {@code status -json}. */
  public Map<String, Object> toJsonMap() {
    Map<String, Object> json = MetricNames.toJson(values());
    json.put("sampleTimeMillis", sample.timeMillis());
    return json;
  }

  /** Each DataNode of the sample by IP:transfer port. */
  public Map<String, NodeEnergy> nodes() {
    return nodes;
  }

  public ClusterEnergy.Sample sample() {
    return sample;
  }

  public long count(DataNodePowerState state) {
    return perState.get(state);
  }
}
