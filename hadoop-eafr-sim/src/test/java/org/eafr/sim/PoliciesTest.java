package org.eafr.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.eafr.sim.model.SimFile;
import org.eafr.sim.model.SimServer;
import org.eafr.sim.stats.RunResult;
import org.eafr.sim.workload.SyntheticWorkload;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class PoliciesTest {
  static java.util.List<String> policies() {
    return org.eafr.sim.policy.Registry.names();
  }

  private static SimSettings small() {
    return SimSettings.of(Map.of("sim.servers", "16", "sim.racks", "2", "sim.files", "300", "sim.read-files", "100",
        "sim.duration.hours", "1.5", "sim.arrival-rate", "4", "sim.concurrency", "4",
        "sim.file-size.max-bytes", "500000000", "sim.failed-servers", "1", "eafr.interval.ms", "1800000"));
  }

  @ParameterizedTest
  @MethodSource("policies")
  void everyPolicyRunsAndKeepsItsBooksStraight(String policy) {
    SimSettings settings = small();
    Simulator simulator = new Simulator(settings, policy, new SyntheticWorkload(settings), f -> { });
    RunResult result = simulator.run("test", "small");

    assertThat(result.policy()).isEqualTo(policy);
    if (policy.startsWith("ideal")) {
      // The oracle reports the ideal's (or the dwell-bounded ideal's) machine-hours, no reads and no latency.
      assertThat(result.get("machine_hours")).isEqualTo(result.get(policy.equals("ideal") ? "ideal_machine_hours"
          : "dwell_ideal_machine_hours")).isGreaterThanOrEqualTo(result.get("ideal_machine_hours")).isPositive();
      assertThat(result.get("read_mean_ms")).isNaN();
      return;
    }
    assertThat(result.get("reads")).isPositive();
    assertThat(result.get("read_mean_ms")).isGreaterThan(ModelConstants4Test.DISK_MS);
    assertThat(result.get("energy_kwh_day")).isPositive();
    // A file loses its last replica only in a failure, and then recovery reports it unrecoverable (AptStore keeps
    // unpopular files at one replica, so it can lose data; the others cannot with one failure at a time).
    long lost = simulator.files().stream().filter(f -> f.replicaCount() == 0).count();
    assertThat((double) lost).isLessThanOrEqualTo(result.get("unrecoverable"));
    if (!policy.equals("aptstore")) {
      assertThat(lost).isZero();
    }
    for (SimFile file : simulator.files()) {
      for (int server : file.replicas()) {
        assertThat(simulator.cluster().server(server).role().holdsLiveReplicas()).isTrue();
      }
    }
    // Storage books: landed replicas plus copies in flight, per server.
    long[] landed = new long[simulator.cluster().size()];
    for (SimFile file : simulator.files()) {
      for (int server : file.replicas()) {
        landed[server] += file.sizeBytes();
      }
    }
    for (SimServer server : simulator.cluster().servers()) {
      if (server.role() != org.eafr.placement.cluster.ServerRole.FAILED) {
        assertThat(server.storageUsed()).as("storage of %s", server.id()).isGreaterThanOrEqualTo(landed[server.index()]);
      }
    }
  }

  /** The disk access alone, the least a read can take. */
  private static final class ModelConstants4Test {
    static final double DISK_MS = org.eafr.sim.model.ModelConstants.DISK_ACCESS_MICROS / 1e3;
  }
}
