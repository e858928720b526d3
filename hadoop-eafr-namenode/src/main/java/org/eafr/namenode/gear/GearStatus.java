package org.eafr.namenode.gear;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.eafr.namenode.cluster.MetricNames;
import org.eafr.namenode.grid.GridGate;
import org.eafr.placement.gear.GearReason;

/**
 * The gear state as operators see it, in one place for {@code hdfs eafr status} and the metrics2 source, so both
 * always show the same numbers: the gear in force and the target, the phase of a shift, why the settings build no
 * layout (when they do not: the gears cannot run), the sleeping DataNodes, the
 * reflection backlog and the service's counters since the NameNode started; the gear mode, the autopilot's decisions
 * by reason, its last decision and the shifts it started; the grid ({@link GridGate#values()}). A gear is null before
 * the expansion chain is fixed, the layout problem and the last decision null when there is none.
 */
public final class GearStatus {
  /** The names of the states in words (Strings, or null where there is none); every other value is a number. */
  public static final Set<String> WORDS = words();

  /** Name (capitalized, as JMX spells it) to value, in display order. */
  private final Map<String, Object> values = new LinkedHashMap<>();

  private GearStatus(GearRuntime gears) {
    GearRecord state = gears.state();
    GearCounters counters = gears.counters();
    values.put("Layout", gears.settings().layout());
    values.put("Gear", gearOrNull(state.gear()));
    values.put("TargetGear", gearOrNull(state.target()));
    values.put("GearPhase", state.phase().name());
    GearService service = gears.service();
    values.put("GearBlockedBy", service == null ? null : service.blockedBy().orElse(null));
    values.put("GearSafeModeWake", service == null ? null : safeModeWake(service.poweredInSafeMode(),
        service.poweredForSafeMode()));
    values.put("MaximumGear", gears.layout().map(layout -> (long) layout.maximumGear()).orElse(null));
    values.put("LayoutProblem", gears.layoutProblem().orElse(null));
    values.put("SleepingNodes", (long) state.sleeping().size());
    values.put("ReflectionBacklogFiles", counters.owedFiles.get());
    values.put("GearShifts", counters.shifts.get());
    values.put("GearShiftsRefused", counters.refusedShifts.get());
    values.put("GearPowerFailures", counters.powerFailures.get());
    values.put("BlocksReflected", counters.blocksReflected.get());
    values.put("ReflectionMoveFailures", counters.reflectionFailures.get());
    values.put("PassiveMigrationBacklogFiles", counters.passiveOwedFiles.get());
    values.put("PassiveMigratedBlocks", counters.passiveMigratedBlocks.get());
    values.put("PassiveMigratedBytes", counters.passiveMigratedBytes.get());
    values.put("PassiveMigrationsDropped", counters.passiveMigrationsDropped.get());
    values.put("WakingNodes", (long) state.waking().size());
    values.put("WakesForFailures", counters.wakesForFailures.get());
    values.put("WakesForBlocks", counters.wakesForBlocks.get());
    values.put("NodesWoken", counters.nodesWoken.get());
    values.put("ReadsWithoutReplica", counters.readsWithoutReplica.get());
    values.put("ReReplicationsDeferred", counters.reReplicationsDeferred.get());
    GearAutopilot autopilot = gears.autopilot();
    values.put("GearMode", (autopilot == null ? gears.settings().mode() : autopilot.mode()).word());
    values.put("GearAutoLastDecision", autopilot == null ? null : autopilot.lastDecision()
        .map(GearAutopilot.AutoDecision::toString).orElse(null));
    values.put("GearAutoShifts", counters.autoShifts.get());
    long decisions = 0;
    for (Map.Entry<GearReason, AtomicLong> reason : counters.autoDecisions.entrySet()) {
      if (reason.getKey() == GearReason.MANUAL) {
        continue; // the controller's reason for an operator's gear: never an auto decision
      }
      values.put(decisionsMetric(reason.getKey()), reason.getValue().get());
      decisions += reason.getValue().get();
    }
    values.put("GearAutoDecisions", decisions);
    values.putAll(gears.grid().values());
  }

  private static Set<String> words() {
    Set<String> words = new HashSet<>(Set.of("Layout", "GearPhase", "GearBlockedBy", "GearSafeModeWake",
        "LayoutProblem", "GearMode", "GearAutoLastDecision"));
    words.addAll(GridGate.WORDS);
    return Set.copyOf(words);
  }

  /**
   * What safe mode's read-only steps power on, in words: {@code ID, ID for dead ID} per dead DataNode, then
   * {@code ID, ID as safe mode outlasted them}, joined by {@code "; "}; null when nothing is.
   */
  static String safeModeWake(Map<String, Set<String>> powered, Set<String> forSafeMode) {
    if (powered.isEmpty() && forSafeMode.isEmpty()) {
      return null;
    }
    StringJoiner text = new StringJoiner("; ");
    powered.forEach((dead, group) -> text.add(String.join(", ", new TreeSet<>(group)) + " for dead " + dead));
    if (!forSafeMode.isEmpty()) {
      text.add(String.join(", ", new TreeSet<>(forSafeMode)) + " as safe mode outlasted them");
    }
    return text.toString();
  }

  /** A gear of the state, or null before the expansion chain is fixed (the state's -1). */
  public static Long gearOrNull(int gear) {
    return gear < 0 ? null : (long) gear;
  }

  /** The metric counting the autopilot's decisions for {@code reason}: UP_FOR_LOAD -> GearAutoDecisionsUpForLoad. */
  public static String decisionsMetric(GearReason reason) {
    StringBuilder name = new StringBuilder("GearAutoDecisions");
    for (String word : reason.name().split("_")) {
      name.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
    }
    return name.toString();
  }

  public static GearStatus of(GearRuntime gears) {
    return new GearStatus(gears);
  }

  /**
   * Name to value: Strings are states in words (layout, phase, layout problem, mode, last decision: JMX attributes of
   * the EafrGears bean), Longs numbers (metrics); null where a value is not known or there is none.
   */
  public Map<String, Object> values() {
    return values;
  }

  /** The same with JSON-style names (first letter lower case), for {@code status -json}. */
  public Map<String, Object> toJsonMap() {
    return MetricNames.toJson(values);
  }
}
