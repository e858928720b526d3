package org.eafr.sim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.eafr.placement.settings.InvalidSettingException;
import org.eafr.sim.SimSettings;
import org.junit.jupiter.api.Test;

/** A trace replayed every period (sim.trace.period.hours): a week of one day's trace. */
class RepeatingWorkloadTest {
  private static final long HOUR = 3_600_000_000L;

  private static Workload inline(TraceEvent... events) {
    return new Workload() {
      @Override
      public long[] fileSizes() {
        return new long[] {1, 2, 3};
      }

      @Override
      public TraceReader open() {
        Iterator<TraceEvent> it = List.of(events).iterator();
        return () -> it.hasNext() ? it.next() : null;
      }

      @Override
      public String describe() {
        return "inline";
      }
    };
  }

  private static List<TraceEvent> until(TraceReader reader, long endMicros) throws IOException {
    List<TraceEvent> events = new ArrayList<>();
    for (TraceEvent e = reader.next(); e != null && e.timeMicros() <= endMicros; e = reader.next()) {
      events.add(e);
    }
    return events;
  }

  /**
   * Operations at 1 h (file 0), 23 h (file 1, 5 copies of 7 bytes) and 24 h (file 2), period 24 h: the one at 24 h is
   * past the period and dropped; each day replays the other two, shifted by 24 h a day.
   */
  @Test
  void eachReplayIsTheTraceShiftedByAPeriodAndCutAtIt() throws IOException {
    Workload day = inline(new TraceEvent(HOUR, TraceEvent.Kind.READ, 0, 1),
        new TraceEvent(23 * HOUR, TraceEvent.Kind.REWRITE, 1, 5, 7), new TraceEvent(24 * HOUR, TraceEvent.Kind.READ,
            2, 1));
    Workload week = new RepeatingWorkload(day, 24 * HOUR);

    List<TraceEvent> events = until(week.open(), 72 * HOUR);

    assertThat(events).extracting(TraceEvent::timeMicros).containsExactly(HOUR, 23 * HOUR, 25 * HOUR, 47 * HOUR,
        49 * HOUR, 71 * HOUR);
    assertThat(events).extracting(TraceEvent::file).containsExactly(0, 1, 0, 1, 0, 1);
    assertThat(events.get(3)).isEqualTo(new TraceEvent(47 * HOUR, TraceEvent.Kind.REWRITE, 1, 5, 7));
    assertThat(week.fileSizes()).containsExactly(1, 2, 3);
  }

  @Test
  void aTraceWithNothingInsideOnePeriodEnds() throws IOException {
    TraceReader empty = new RepeatingWorkload(inline(), HOUR).open();
    TraceReader late = new RepeatingWorkload(inline(new TraceEvent(2 * HOUR, TraceEvent.Kind.READ, 0, 1)), HOUR)
        .open();

    assertThat(empty.next()).isNull();
    assertThat(late.next()).isNull();
    assertThat(late.next()).isNull();
  }

  /** The shipped FB-2009 trace with a 24 h period: day 2 opens with day 1's first job on the same file, 24 h later. */
  @Test
  void theSwimTraceWithAPeriodRepeatsItsDayWithTheSameFiles() throws IOException {
    SimSettings settings = SimSettings.of(Map.of("sim.files", "1000", "sim.read-files", "1000", "sim.trace.period.hours", "24",
        "sim.duration.hours", "48"));
    Workload once = TraceFormat.open("swim", settings.with(Map.of("sim.trace.period.hours", "0")));
    Workload daily = TraceFormat.open("swim", settings);

    List<TraceEvent> day = until(once.open(), 24 * HOUR);
    List<TraceEvent> twoDays = until(daily.open(), 48 * HOUR);

    assertThat(daily.describe()).endsWith(", replayed every 24.0 h");
    assertThat(twoDays).hasSize(2 * day.size());
    TraceEvent first = day.get(0);
    assertThat(twoDays.get(day.size())).isEqualTo(new TraceEvent(first.timeMicros() + 24 * HOUR, first.kind(),
        first.file(), first.copies(), first.bytesPerCopy()));
    assertThat(twoDays.subList(0, day.size())).isEqualTo(day);
  }

  @Test
  void aNegativePeriodIsRefusedNamingTheKey() {
    assertThatThrownBy(() -> SimSettings.of(Map.of("sim.trace.period.hours", "-1")))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("sim.trace.period.hours = -1.0 is not allowed: expected a number in [0.0, 10000.0]");
  }
}
