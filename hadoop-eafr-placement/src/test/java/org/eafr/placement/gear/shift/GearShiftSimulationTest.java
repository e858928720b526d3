package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Deterministic simulation of the gear shift (FoundationDB / TigerBeetle style, {@link ShiftSchedule}): 10,000 seeded
 * schedules of faults against the core state machine, every invariant checked after every step. A failing seed is
 * printed with the command that replays it alone ({@code -Dshift.seed=N}).
 */
class GearShiftSimulationTest {
  private static final int SCHEDULES = 10_000;

  @Test
  void tenThousandSeededSchedulesKeepEveryInvariant() {
    String only = System.getProperty("shift.seed");
    long first = only == null ? 0 : Long.parseLong(only);
    long count = only == null ? SCHEDULES : 1;
    List<String> failures = new ArrayList<>();
    for (long seed = first; seed < first + count; seed++) {
      ShiftSchedule schedule = new ShiftSchedule(seed);
      Optional<String> failure = schedule.run();
      if (failure.isPresent()) {
        if (only != null) {
          schedule.trace().forEach(System.out::println);
        }
        failures.add(failure.get());
      }
    }
    failures.stream().limit(20).forEach(System.out::println);
    assertThat(failures).isEmpty();
  }
}
