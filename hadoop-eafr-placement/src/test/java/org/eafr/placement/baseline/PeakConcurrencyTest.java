package org.eafr.placement.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class PeakConcurrencyTest {
  private final PeakConcurrency peaks = new PeakConcurrency();

  @Test
  void workedExample_threeOverlappingReads_giveAPeakOfThree() {
    peaks.readStarted("f", 0);
    peaks.readStarted("f", 1_000);
    peaks.readStarted("f", 2_000);
    peaks.readFinished("f", 3_000);
    peaks.readStarted("f", 4_000);

    assertThat(peaks.peak("f")).isEqualTo(3);
  }

  @Test
  void workedExample_readsStillInFlight_carryIntoTheNextWindow() {
    peaks.readStarted("f", 0);
    peaks.readStarted("f", 1_000);
    peaks.readStarted("f", 2_000);
    peaks.readFinished("f", 3_000);
    peaks.readStarted("f", 4_000);

    peaks.startWindow(5_000);

    assertThat(peaks.peak("f")).isEqualTo(3);
    peaks.readFinished("f", 6_000);
    peaks.readFinished("f", 7_000);
    assertThat(peaks.peak("f")).isEqualTo(3);
  }

  @Test
  void fileWithNoReadInFlight_isForgottenAtTheNextWindow() {
    peaks.readStarted("f", 0);
    peaks.readFinished("f", 10);

    peaks.startWindow(20);

    assertThat(peaks.peak("f")).isZero();
    assertThat(peaks.peaks()).isEmpty();
  }

  @Test
  void readFinishingWhenAnotherStartsAtTheSameInstant_doesNotOverlapIt() {
    peaks.readStarted("f", 0);
    peaks.readFinished("f", 5);
    peaks.readStarted("f", 5);

    assertThat(peaks.peak("f")).isEqualTo(1);
  }

  @Test
  void filesAreCountedSeparately() {
    peaks.readStarted("f", 0);
    peaks.readStarted("g", 0);
    peaks.readStarted("g", 1);

    assertThat(peaks.peaks()).containsExactly(entry("f", 1), entry("g", 2));
    assertThat(peaks.peak("never-read")).isZero();
  }

  @Test
  void peaksMap_isUnmodifiable() {
    peaks.readStarted("f", 0);

    assertThatThrownBy(() -> peaks.peaks().put("g", 1)).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void finishWithoutARead_isRejected() {
    assertThatThrownBy(() -> peaks.readFinished("f", 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("readFinished for file f").hasMessageContaining("none is");
  }

  @Test
  void eventBeforeThePreviousOne_isRejected() {
    peaks.readStarted("f", 100);

    assertThatThrownBy(() -> peaks.readStarted("g", 99)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("event time 99 ms").hasMessageContaining("previous event's 100 ms");
  }

  @Property(tries = 1000, seed = "70707")
  void peak_isTheMostReadsInFlightAtAnyMomentOfTheWindow(
      @ForAll @Size(max = 60) List<@IntRange(min = 0, max = 5) Integer> events) {
    PeakConcurrency window = new PeakConcurrency();
    Map<String, Integer> inFlight = new HashMap<>();
    Map<String, Integer> expected = new HashMap<>();
    long t = 0;
    for (int event : events) {
      String file = "f" + event % 3;
      int now = inFlight.getOrDefault(file, 0);
      if (event < 3 || now == 0) {
        window.readStarted(file, t++);
        inFlight.put(file, now + 1);
        expected.merge(file, now + 1, Math::max);
      } else {
        window.readFinished(file, t++);
        inFlight.put(file, now - 1);
      }
    }

    for (String file : List.of("f0", "f1", "f2")) {
      assertThat(window.peak(file)).isEqualTo(expected.getOrDefault(file, 0));
    }
  }
}
