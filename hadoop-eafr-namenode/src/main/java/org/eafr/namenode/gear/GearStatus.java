package org.eafr.namenode.gear;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The gear state as operators see it, in one place for {@code hdfs eafr status} and the metrics2 source, so both
 * always show the same numbers: the gear in force and the target, the phase of a shift, the sleeping DataNodes, the
 * reflection backlog and the service's counters since the NameNode started.
 */
public final class GearStatus {
  /** JMX metric name (capitalized) to value, in display order. */
  private final Map<String, Object> values = new LinkedHashMap<>();

  private GearStatus(GearRuntime gears) {
    GearState state = gears.state();
    GearCounters counters = gears.counters();
    values.put("Layout", gears.settings().layout());
    values.put("Gear", (long) state.gear());
    values.put("TargetGear", (long) state.target());
    values.put("GearPhase", state.phase().name());
    values.put("MaximumGear", (long) gears.layout().map(layout -> layout.maximumGear()).orElse(-1));
    values.put("SleepingNodes", (long) state.sleeping().size());
    values.put("ReflectionBacklogFiles", counters.owedFiles.get());
    values.put("GearShifts", counters.shifts.get());
    values.put("GearShiftsRefused", counters.refusedShifts.get());
    values.put("GearPowerFailures", counters.powerFailures.get());
    values.put("BlocksReflected", counters.blocksReflected.get());
    values.put("ReflectionMoveFailures", counters.reflectionFailures.get());
    values.put("WakingNodes", (long) state.waking().size());
    values.put("WakesForFailures", counters.wakesForFailures.get());
    values.put("WakesForBlocks", counters.wakesForBlocks.get());
    values.put("NodesWoken", counters.nodesWoken.get());
    values.put("ReadsWithoutReplica", counters.readsWithoutReplica.get());
  }

  public static GearStatus of(GearRuntime gears) {
    return new GearStatus(gears);
  }

  /** Metric name to value: Strings are tags, Longs gauges or counters. */
  public Map<String, Object> values() {
    return values;
  }

  /** The same with JSON-style names (first letter lower case), for {@code status -json}. */
  public Map<String, Object> toJsonMap() {
    Map<String, Object> json = new LinkedHashMap<>();
    values.forEach((name, value) -> json.put(Character.toLowerCase(name.charAt(0)) + name.substring(1), value));
    return json;
  }
}
