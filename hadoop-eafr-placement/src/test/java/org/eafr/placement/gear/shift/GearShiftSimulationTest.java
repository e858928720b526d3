package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Deterministic simulation of the gear shift (FoundationDB / TigerBeetle style, {@link ShiftSchedule}): 10,000 seeded
 * schedules of faults against the core state machine, every invariant checked after every step. A failing seed is
 * printed with the command that replays it alone ({@code -Dshift.seed=N}); {@code -Dshift.schedules=N} runs another
 * number of schedules from seed 0.
 */
class GearShiftSimulationTest {
  private static final int SCHEDULES = 10_000;

  @Test
  void tenThousandSeededSchedulesKeepEveryInvariant() {
    String only = System.getProperty("shift.seed");
    long first = only == null ? 0 : Long.parseLong(only);
    long count = only == null ? Long.getLong("shift.schedules", SCHEDULES) : 1;
    long cpuStart = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    List<String> failures = new ArrayList<>();
    ShiftSchedule.Coverage coverage = new ShiftSchedule.Coverage();
    for (long seed = first; seed < first + count; seed++) {
      ShiftSchedule schedule = new ShiftSchedule(seed);
      Optional<String> failure = schedule.run();
      coverage.add(schedule.coverage);
      if (failure.isPresent()) {
        if (only != null) {
          schedule.trace().forEach(System.out::println);
        }
        failures.add(failure.get());
      }
    }
    failures.stream().limit(20).forEach(System.out::println);
    double cpuSeconds = (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpuStart) / 1e9;
    System.out.printf("%d schedules (%d failed) in %.1f s of CPU: %s%n", count, failures.size(), cpuSeconds,
        coverage);
    assertThat(failures).isEmpty();
    if (only == null) {
      assertThat(coverage.reached).as("gears reached").isGreaterThan(count);
      assertThat(coverage.cancelled).as("gear-downs cancelled after maintenance").isPositive();
      assertThat(coverage.operatorCancels).as("shifts cancelled by an operator").isGreaterThan(count / 10);
      assertThat(coverage.woken).as("wakes out of turn finished").isGreaterThan(count / 10);
      assertThat(coverage.resumedMidPhase).as("restarts and failovers mid-phase").isGreaterThan(count / 10);
      assertThat(coverage.unregisteredWakes).as("wakes for a DataNode dead while the NameNode was down")
          .isGreaterThan(count / 10);
    }
  }

  /**
   * Seeds that found a cancelled gear-down taking DataNodes asleep since an earlier shift, their hosts off, out of
   * maintenance with the ones it had added (HDFS would then re-replicate everything they hold).
   */
  @ParameterizedTest
  @ValueSource(longs = {6760, 6950, 8930})
  void cancelledGearDownAfterAnEarlierOne_keepsTheEarlierSleepersInMaintenance(long seed) {
    assertThat(new ShiftSchedule(seed).run()).isEmpty();
  }

  /**
   * Seeds where primary s0 died for good while the NameNode was down: with only registered DataNodes counted as dead,
   * a block on s0 whose other replicas sleep (e.g. seed 61's blk_026 on s0 and s10) stayed unreadable, no group woken.
   */
  @ParameterizedTest
  @ValueSource(longs = {61, 73, 129})
  void aDataNodeDeadWhileTheNameNodeWasDown_wakesItsGroupWithinTheDeadInterval(long seed) {
    assertThat(new ShiftSchedule(seed).run()).isEmpty();
  }
}
