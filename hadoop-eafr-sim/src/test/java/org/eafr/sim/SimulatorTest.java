package org.eafr.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.sim.model.ModelConstants;
import org.eafr.sim.model.SimServer;
import org.eafr.sim.stats.RunResult;
import org.junit.jupiter.api.Test;

class SimulatorTest {
  private static final long MB = 1_000_000;

  private static SimSettings settings(Map<String, String> extra) {
    Map<String, String> raw = new java.util.HashMap<>(Map.of("sim.servers", "2", "sim.racks", "1",
        "sim.files", "1", "sim.read-files", "1", "sim.duration.hours", "1", "sim.concurrency", "1",
        "sim.hdfs.replicas", "1"));
    raw.putAll(extra);
    return SimSettings.of(raw);
  }

  @Test
  void readsBeyondCapacityQueueAndTheWaitCountsInLatency() {
    SimSettings settings = settings(Map.of());
    InlineWorkload probe = new InlineWorkload(new long[] {MB}, List.of());
    Simulator sizing = new Simulator(settings, "hdfs", probe, f -> { });
    sizing.run("test", "probe");
    SimServer holder = sizing.cluster().server(sizing.files().get(0).replicas()[0]);
    int capacity = holder.capacity();
    long service = ModelConstants.DISK_ACCESS_MICROS
        + Math.round(ModelConstants.RESPONSE_BYTES / holder.linkBytesPerSecond() * 1e6);

    // capacity + 1 reads at once on a one-replica file: capacity of them take one service time, the last two.
    InlineWorkload burst = new InlineWorkload(new long[] {MB},
        List.of(InlineWorkload.read(1_000_000, 0, capacity + 1)));
    RunResult result = new Simulator(settings, "hdfs", burst, f -> { }).run("test", "burst");

    assertThat(result.get("reads")).isEqualTo(capacity + 1);
    double expectedMeanMs = (capacity * service + 2.0 * service) / (capacity + 1) / 1e3;
    assertThat(result.get("read_mean_ms")).isCloseTo(expectedMeanMs, within(1e-9));
    assertThat(result.get("read_p99_ms")).isCloseTo(Math.floor(2.0 * service / 10) * 10 / 1e3, within(1e-9));
  }

  @Test
  void idleClusterDrawsTable2IdlePowerAllDay() {
    SimSettings settings = settings(Map.of("sim.servers", "4"));
    RunResult result = new Simulator(settings, "hdfs", new InlineWorkload(new long[] {MB}, List.of()), f -> { })
        .run("test", "idle");
    // 4 idle awake servers at 93.7 W for a day: 4 x 93.7 x 24 / 1000 kWh.
    assertThat(result.get("energy_kwh_day")).isCloseTo(4 * 93.7 * 24 / 1000, within(1e-9));
  }

  @Test
  void storageIsTheBytesOfEveryReplica() {
    SimSettings settings = settings(Map.of("sim.servers", "6", "sim.racks", "2", "sim.files", "3",
        "sim.hdfs.replicas", "3"));
    InlineWorkload workload = new InlineWorkload(new long[] {MB, 2 * MB, 3 * MB}, List.of());
    RunResult result = new Simulator(settings, "hdfs", workload, f -> { }).run("test", "storage");
    assertThat(result.get("storage_tb")).isEqualTo(3 * 6 * MB / 1e12);
    assertThat(result.get("replicas_per_file")).isEqualTo(3.0);
  }

  @Test
  void eafrPlacesNewFilesOnHotServersOnly() {
    SimSettings settings = SimSettings.of(Map.of("sim.servers", "20", "sim.racks", "2", "sim.files", "200",
        "sim.read-files", "10", "sim.duration.hours", "0.1", "sim.file-size.max-bytes", "1000000000"));
    Simulator simulator = new Simulator(settings, "eafr", new org.eafr.sim.workload.SyntheticWorkload(settings),
        f -> { });
    simulator.run("test", "placement");
    simulator.files().forEach(file -> {
      assertThat(file.replicaCount()).isEqualTo(2);
      for (int server : file.replicas()) {
        assertThat(simulator.cluster().server(server).role()).isEqualTo(ServerRole.HOT);
      }
    });
    long standby = simulator.cluster().servers().stream().filter(s -> s.role() == ServerRole.STANDBY).count();
    assertThat(standby).isEqualTo(6);
  }
}
