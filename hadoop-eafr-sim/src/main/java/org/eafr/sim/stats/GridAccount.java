package org.eafr.sim.stats;

import java.util.LinkedHashMap;
import java.util.Map;
import org.eafr.placement.grid.DeferredWork;
import org.eafr.placement.grid.GridGap;
import org.eafr.placement.grid.GridMeter;
import org.eafr.placement.grid.GridSignal;
import org.eafr.placement.grid.MoveEnergy;

/**
 * A run's energy against the grid signal (the core's {@link GridMeter}): the servers' draw as the power model gives it
 * each sample minute, and the background data movement's own energy ({@link MoveEnergy}: both ends at the power
 * model's idle-to-peak span for bytes / mean link seconds) when each move lands; plus how long deferred work waited:
 * the released work's waits and every hold's length, also of holds that ended without a release or were open at the
 * end.
 * Run time t falls on the signal at start + t.
 */
public final class GridAccount {
  private final GridSignal signal;
  private final long startMillis;
  private final MoveEnergy moveEnergy;
  private final GridMeter servers;
  private final GridMeter moves;
  private long movedBytes;
  private DeferredWork deferred;

  public GridAccount(GridSignal signal, long startMillis, MoveEnergy moveEnergy) {
    this.signal = signal;
    this.startMillis = startMillis;
    this.moveEnergy = moveEnergy;
    this.servers = new GridMeter(signal);
    this.moves = new GridMeter(signal);
  }

  /** The signal's time of run time {@code runMillis}. */
  public long wallMillis(long runMillis) {
    return startMillis + runMillis;
  }

  public GridSignal signal() {
    return signal;
  }

  void serverEnergy(long runMillis, double joules) {
    servers.add(wallMillis(runMillis), joules / 3.6e6);
  }

  void moved(long runMillis, long bytes) {
    movedBytes += bytes;
    moves.add(wallMillis(runMillis), moveEnergy.kwh(bytes));
  }

  /** The policy's deferred work, for its waits (null: nothing was deferrable). */
  public void deferred(DeferredWork work) {
    this.deferred = work;
  }

  /**
   * How much of the run's first {@code runMillis} fell in slots the signal filled from a neighbour (its gaps, any
   * field, each instant counted once): the run's values there are the last before the gap, not measured.
   */
  long gapMillis(long runMillis) {
    long from = startMillis;
    long to = startMillis + runMillis;
    long counted = from;
    long total = 0;
    java.util.List<GridGap> gaps = new java.util.ArrayList<>(signal.gaps());
    gaps.sort(java.util.Comparator.comparingLong(GridGap::fromMillis));
    for (GridGap gap : gaps) {
      long start = Math.max(counted, gap.fromMillis());
      long end = Math.min(to, gap.toMillis());
      if (end > start) {
        total += end - start;
        counted = end;
      }
    }
    return total;
  }

  /** The metrics per simulated day of {@code days}. */
  Map<String, Double> metrics(double days) {
    Map<String, Double> m = new LinkedHashMap<>();
    double kwh = servers.kwh() + moves.kwh();
    m.put("grid_kwh_day", kwh / days);
    m.put("kg_co2_day", (servers.gramsCo2() + moves.gramsCo2()) / 1000 / days);
    m.put("eur_day", (servers.euros() + moves.euros()) / days);
    m.put("move_gb_day", movedBytes / 1e9 / days);
    m.put("move_kwh_day", moves.kwh() / days);
    m.put("move_g_co2_day", moves.gramsCo2() / days);
    m.put("move_eur_day", moves.euros() / days);
    m.put("grid_uncovered_kwh", servers.uncoveredKwh() + moves.uncoveredKwh());
    m.put("grid_gap_h", gapMillis(Math.round(days * 86_400_000.0)) / 3.6e6);
    boolean none = deferred == null || deferred.releases() == 0;
    m.put("deferred_releases", deferred == null ? 0.0 : deferred.releases());
    m.put("deferred_wait_mean_h", none ? Double.NaN : deferred.meanWaitMillis() / 3.6e6);
    m.put("deferred_wait_max_h", none ? Double.NaN : deferred.longestWaitMillis() / 3.6e6);
    DeferredWork.Holds holds = deferred == null ? null : deferred.holds(wallMillis(Math.round(days * 86_400_000.0)));
    boolean noHolds = holds == null || holds.count() == 0;
    m.put("deferred_holds", holds == null ? 0.0 : holds.count());
    m.put("deferred_holds_unreleased", holds == null ? 0.0 : holds.unreleased() + holds.open());
    m.put("deferred_hold_mean_h", noHolds ? Double.NaN : holds.meanMillis() / 3.6e6);
    m.put("deferred_hold_max_h", noHolds ? Double.NaN : holds.longestMillis() / 3.6e6);
    return m;
  }
}
