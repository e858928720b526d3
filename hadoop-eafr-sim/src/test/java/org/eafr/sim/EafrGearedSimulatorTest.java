package org.eafr.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.sim.model.SimFile;
import org.eafr.sim.policy.GearedPolicy;
import org.eafr.sim.stats.RunResult;
import org.eafr.sim.workload.TraceEvent;
import org.junit.jupiter.api.Test;

/** eafr-geared in the simulator: EAFR's hot extras land in the lowest gear, and no file leaves gear 0. */
class EafrGearedSimulatorTest {
  private static final long MB = 1_000_000;
  private static final long SECOND = 1_000_000;

  @Test
  void aHotFileGetsItsExtraReplicaInGear0_andEveryFileKeepsAGear0Replica() {
    // 8 servers, p = 2 primaries (gear 0), gear groups of 1, r = 2; T = 10 minutes; the hot pool stops widening at
    // the first gear with one eligible server (d = 1).
    SimSettings settings = SimSettings.of(Map.ofEntries(Map.entry("sim.servers", "8"), Map.entry("sim.racks", "2"),
        Map.entry("sim.files", "8"), Map.entry("sim.read-files", "8"), Map.entry("sim.duration.hours", "0.25"),
        Map.entry("sim.concurrency", "1"), Map.entry("eafr.gear.primaries", "2"),
        Map.entry("eafr.gear.group-size", "1"), Map.entry("eafr.gear.replicas", "2"),
        Map.entry("eafr.interval.ms", "600000"), Map.entry("eafr.destination.sample-size", "1")));
    // File 0 is read 2,000 times a second for the first 9 minutes: hot at the interval end (10 minutes), and its
    // replica servers queue; the run ends before the next interval could find it cold and delete the extra.
    List<TraceEvent> events = new ArrayList<>();
    for (int s = 1; s <= 540; s++) {
      events.add(InlineWorkload.read(s * SECOND, 0, 2_000));
    }
    long[] sizes = new long[8];
    Arrays.fill(sizes, 100 * MB);
    Simulator simulator = new Simulator(settings, "eafr-geared", new InlineWorkload(sizes, events), f -> { });

    RunResult result = simulator.run("test", "eafr-geared");

    GearedPolicy policy = (GearedPolicy) simulator.policy();
    ActiveSet gear0 = policy.layout().serversOn(0);
    int[] hot = simulator.files().get(0).replicas();
    assertThat(hot).hasSize(3);
    assertThat(Arrays.stream(hot).filter(s -> gear0.contains(simulator.cluster().server(s).id())).count())
        .as("file 0's replicas in gear 0").isEqualTo(2);
    for (SimFile file : simulator.files()) {
      assertThat(Arrays.stream(file.replicas()).anyMatch(s -> gear0.contains(simulator.cluster().server(s).id())))
          .as("%s keeps a replica in gear 0", file.id()).isTrue();
    }
    assertThat(result.get("failed_reads")).isZero();
    assertThat(result.get("replications")).isEqualTo(1.0);
  }

  @Test
  void filesRewrittenInGear0_areLeftToTheLayoutUntilHome_andNothingIsLost() {
    // Every file is rewritten in gear 0 (its other replicas offloaded and owed home), then bursts of reads on every
    // files gear up (minutes 0-1 and 15-16) and down; EAFR plans every 10 minutes over the half hour.
    SimSettings settings = SimSettings.of(Map.ofEntries(Map.entry("sim.servers", "8"), Map.entry("sim.racks", "2"),
        Map.entry("sim.files", "8"), Map.entry("sim.read-files", "8"), Map.entry("sim.duration.hours", "0.5"),
        Map.entry("sim.concurrency", "1"), Map.entry("eafr.gear.primaries", "2"),
        Map.entry("eafr.gear.group-size", "1"), Map.entry("eafr.gear.replicas", "2"),
        Map.entry("eafr.interval.ms", "600000"), Map.entry("eafr.destination.sample-size", "1")));
    List<TraceEvent> events = new ArrayList<>();
    for (int f = 0; f < 8; f++) {
      events.add(new TraceEvent(SECOND + f, TraceEvent.Kind.REWRITE, f, 1));
    }
    for (int s = 2; s <= 1800; s += 7) {
      events.add(InlineWorkload.read(s * SECOND, s % 3, s % 900 < 70 ? 20_000 : 5));
    }
    long[] sizes = new long[8];
    Arrays.fill(sizes, 100 * MB);
    Simulator simulator = new Simulator(settings, "eafr-geared", new InlineWorkload(sizes, events), f -> { });

    RunResult result = simulator.run("test", "eafr-geared");

    ActiveSet gear0 = ((GearedPolicy) simulator.policy()).layout().serversOn(0);
    for (SimFile file : simulator.files()) {
      assertThat(Arrays.stream(file.replicas()).anyMatch(s -> gear0.contains(simulator.cluster().server(s).id())))
          .as("%s keeps a replica in gear 0", file.id()).isTrue();
    }
    assertThat(result.get("failed_reads")).isZero();
    assertThat(result.get("gear_ups")).isPositive();
  }
}
