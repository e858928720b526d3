package org.eafr.sim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.eafr.sim.SimSettings;
import org.junit.jupiter.api.Test;

class SyntheticWorkloadTest {
  @Test
  void readCountsFollowTheCthSkew() throws IOException {
    SimSettings settings = SimSettings.of(Map.of("sim.duration.hours", "6", "sim.write-share", "0"));
    SyntheticWorkload workload = new SyntheticWorkload(settings);
    Map<Integer, Integer> reads = new HashMap<>();
    long last = 0;
    try (TraceReader reader = workload.open()) {
      for (int i = 0; i < workload.patternOperations(); i++) {
        TraceEvent event = reader.next();
        reads.merge(event.file(), 1, Integer::sum);
        last = event.timeMicros();
      }
    }
    assertThat(reads).hasSize(16_566);
    double under30 = reads.values().stream().filter(n -> n < 30).count() / 16_566.0;
    double over400 = reads.values().stream().filter(n -> n > 400).count() / 16_566.0;
    assertThat(under30).isCloseTo(0.43, within(0.02));
    assertThat(over400).isCloseTo(0.04, within(0.01));
    // One pattern at the default 100 reads per second lasts its operations / 100 seconds.
    assertThat(last / 1e6).isCloseTo(workload.patternOperations() / 100.0, within(1.0));
  }

  @Test
  void sizesStayInTheRangeAndTheSameSeedGivesTheSameTrace() throws IOException {
    SimSettings settings = SimSettings.of(Map.of("sim.files", "1000", "sim.read-files", "100",
        "sim.duration.hours", "1", "sim.arrival-rate", "10"));
    SyntheticWorkload a = new SyntheticWorkload(settings);
    SyntheticWorkload b = new SyntheticWorkload(settings);
    assertThat(a.fileSizes()).isEqualTo(b.fileSizes());
    for (long size : a.fileSizes()) {
      assertThat(size).isBetween(100_000L, 10_000_000_000L);
    }
    try (TraceReader ra = a.open(); TraceReader rb = b.open()) {
      for (TraceEvent event = ra.next(); event != null; event = ra.next()) {
        assertThat(rb.next()).isEqualTo(event);
      }
      assertThat(rb.next()).isNull();
    }
  }
}
