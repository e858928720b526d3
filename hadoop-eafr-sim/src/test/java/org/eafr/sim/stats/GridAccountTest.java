package org.eafr.sim.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import org.eafr.placement.grid.GridSignal;
import org.eafr.placement.grid.MoveEnergy;
import org.eafr.sim.SimSettings;
import org.eafr.sim.model.GridSignals;
import org.junit.jupiter.api.Test;

/** How much of a run fell in the signal's gaps (grid_gap_h). */
class GridAccountTest {
  private static final long DAY = 86_400_000L;

  private static GridAccount account(String week, String start) {
    GridSignal signal = GridSignals.of(SimSettings.of(Map.of("sim.grid.signal", "classpath:grid/" + week + ".csv")));
    return new GridAccount(signal, Instant.parse(start).toEpochMilli(), new MoveEnergy(41.3, 1e8));
  }

  /**
   * NESO's outage in the GB October week: 91 half-hours (45.5 h) from Friday 22:00, a gap in both the actual and the
   * forecast column, counted once. The whole week holds all 45.5 h, the Friday its last 2 h, the Monday none.
   */
  @Test
  void theOctoberWeekHoldsNesosOutageOnce() {
    assertThat(account("gb-2023-10-16", "2023-10-16T00:00:00Z").gapMillis(7 * DAY)).isEqualTo(91 * 1_800_000L);
    assertThat(account("gb-2023-10-16", "2023-10-20T00:00:00Z").gapMillis(DAY)).isEqualTo(2 * 3_600_000L);
    assertThat(account("gb-2023-10-16", "2023-10-16T00:00:00Z").gapMillis(DAY)).isZero();
    assertThat(account("gb-2023-10-16", "2023-10-16T00:00:00Z").metrics(7)).containsEntry("grid_gap_h", 45.5);
    assertThat(account("gb-2023-01-09", "2023-01-09T00:00:00Z").metrics(7)).containsEntry("grid_gap_h", 0.0);
  }
}
