package org.eafr.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eafr.sim.policy.LayoutPolicy;
import org.eafr.sim.policy.NestedTestLayouts;
import org.eafr.sim.stats.RunResult;
import org.eafr.sim.workload.TraceEvent;
import org.junit.jupiter.api.Test;

/**
 * sim.throughput.trace-peak: one server's byte throughput is the workload's busiest control period over the servers
 * (SpringFS Sec. 5.2), so that period needs every server and the ideal scales with the load from there.
 */
class TracePeakThroughputTest {
  private static final long SECOND = 1_000_000;

  private static RunResult run(String tracePeak) {
    Map<String, String> raw = new HashMap<>(Map.of("sim.servers", "8", "sim.racks", "2", "sim.files", "8",
        "sim.read-files", "8", "sim.duration.hours", "1", "sim.concurrency", "1", "eafr.gear.replicas", "2"));
    raw.put("sim.throughput.trace-peak", tracePeak);
    long[] sizes = new long[8];
    java.util.Arrays.fill(sizes, 100_000_000L);
    // Minute 0: 8 reads of 600 MB (4.8 GB, the peak: 10 MB/s per server); minute 2: 4 of 600 MB (half the peak).
    List<TraceEvent> events = List.of(new TraceEvent(10 * SECOND, TraceEvent.Kind.READ, 0, 8, 600_000_000L),
        new TraceEvent(130 * SECOND, TraceEvent.Kind.READ, 1, 4, 600_000_000L));
    return new Simulator(SimSettings.of(raw), "nested", env -> new LayoutPolicy("nested", env,
        NestedTestLayouts::twoPerGear, layout -> NestedTestLayouts.firstOn()), new InlineWorkload(sizes, events),
        f -> { }).run("test", "geared");
  }

  @Test
  void theBusiestPeriodNeedsEveryServer_halfItNeedsHalf_theRestTheOneCopyFloor() {
    // 8 servers in minute 0, 4 in minute 2, one (the servers holding one copy of 800 MB) in the other 58 minutes.
    assertThat(run("1").get("ideal_machine_hours")).isCloseTo((8 + 4 + 58) / 60.0, within(1e-9));
    // The model's 1 Gbit/s links (times 0.25-1) carry the same load on far fewer servers.
    assertThat(run("0").get("ideal_machine_hours")).isLessThan((8 + 4 + 58) / 60.0 - 0.1);
  }
}
