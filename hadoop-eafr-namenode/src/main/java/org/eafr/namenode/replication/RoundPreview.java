package org.eafr.namenode.replication;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eafr.placement.popularity.FileTemperature;
import org.eafr.placement.popularity.IntervalReads;
import org.eafr.placement.replication.PlanOutcome;
import org.eafr.placement.replication.ReplicaAction;
import org.eafr.placement.replication.ReplicationPlan;

/**
 * What the next replication round would do, as {@link ReplicationMonitor#preview()} found it without doing anything:
 * the actions it would start (each with its reason), those its budgets would leave for a later round, the actions
 * still in flight, the files per class and per planner outcome, the standby servers it would turn cold (Eq. 8), and
 * the read interval it looked at. Immutable.
 */
public final class RoundPreview {
  private final List<Planned> starts;
  private final List<Planned> deferred;
  private final Map<String, String> inFlight;
  private final Map<FileTemperature, Integer> perClass;
  private final Map<PlanOutcome, Integer> outcomes;
  private final List<String> standbysTurningCold;
  private final int filesBelowMinReplicas;
  private final int trackedFiles;
  private final long floor;

  private RoundPreview(Builder builder, IntervalReads reads, ReplicationPlan plan,
      Map<FileTemperature, Integer> perClass, Map<String, String> inFlight, List<String> standbysTurningCold,
      int filesBelowMinReplicas) {
    this.starts = List.copyOf(builder.starts);
    this.deferred = List.copyOf(builder.deferred);
    this.inFlight = new LinkedHashMap<>(inFlight);
    this.perClass = new EnumMap<>(FileTemperature.class);
    for (FileTemperature temperature : FileTemperature.values()) {
      this.perClass.put(temperature, perClass.getOrDefault(temperature, 0));
    }
    this.outcomes = plan.outcomes();
    this.standbysTurningCold = List.copyOf(standbysTurningCold);
    this.filesBelowMinReplicas = filesBelowMinReplicas;
    this.trackedFiles = reads.trackedFiles();
    this.floor = reads.floor();
  }

  /** The actions the round would start, in the order it would start them. */
  public List<Planned> starts() {
    return starts;
  }

  /** Planned actions the round's budgets (actions in flight, bytes per round) would leave for a later round. */
  public List<Planned> deferred() {
    return deferred;
  }

  /** Actions HDFS is still carrying out, by file: the round moves them on first and plans nothing else for them. */
  public Map<String, String> inFlight() {
    return inFlight;
  }

  public Map<FileTemperature, Integer> perClass() {
    return perClass;
  }

  /** Files per planner outcome (why a hot file gains nothing, why a cold one keeps its replicas). */
  public Map<PlanOutcome, Integer> outcomes() {
    return outcomes;
  }

  /** Standby servers below the storage reserve that the round would put to sleep (Eq. 8). */
  public List<String> standbysTurningCold() {
    return standbysTurningCold;
  }

  public int filesBelowMinReplicas() {
    return filesBelowMinReplicas;
  }

  /** Files with read counts of their own in the interval so far. */
  public int trackedFiles() {
    return trackedFiles;
  }

  /** The most reads an untracked file can have had in the interval so far. */
  public long floor() {
    return floor;
  }

  /** One planned action, why the plan chose it, and (when deferred) why the round would not start it yet. */
  public static final class Planned {
    private final ReplicaAction action;
    private final String reason;
    private final String deferredBecause;

    Planned(ReplicaAction action, String reason, String deferredBecause) {
      this.action = action;
      this.reason = reason;
      this.deferredBecause = deferredBecause;
    }

    public ReplicaAction action() {
      return action;
    }

    public String reason() {
      return reason;
    }

    /** Why the budgets defer it; null for an action the round starts. */
    public String deferredBecause() {
      return deferredBecause;
    }
  }

  /** Collects a preview's actions while the round walks. */
  public static final class Builder {
    private final List<Planned> starts = new ArrayList<>();
    private final List<Planned> deferred = new ArrayList<>();

    public void starts(ReplicaAction action, String reason) {
      starts.add(new Planned(action, reason, null));
    }

    public void defers(ReplicaAction action, String reason, String why) {
      deferred.add(new Planned(action, reason, why));
    }

    public List<Planned> starting() {
      return starts;
    }

    public RoundPreview build(IntervalReads reads, ReplicationPlan plan, Map<FileTemperature, Integer> perClass,
        Map<String, String> inFlight, List<String> standbysTurningCold, int filesBelowMinReplicas) {
      return new RoundPreview(this, reads, plan, perClass, inFlight, standbysTurningCold, filesBelowMinReplicas);
    }
  }
}
