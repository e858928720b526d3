package org.eafr.placement.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.gear.MutableClock;
import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.api.Test;

class ClusterEnergyTest {
  private static final long HOUR = 3_600_000L;

  private final MutableClock clock = new MutableClock();
  private final ClusterEnergy energy = new ClusterEnergy(PowerModel.of(EafrSettings.defaults()), clock);

  @Test
  void workedExample_fourAwakeAndEightAsleepForTwoHours() {
    List<Server> servers = new ArrayList<>();
    int[] reads = {0, 10, 50, 100}; // of a service capacity of 100: utilization 0, 0.1, 0.5, 1.0
    for (int i = 0; i < reads.length; i++) {
      servers.add(server("on" + i, ServerRole.HOT, reads[i]));
    }
    for (int i = 0; i < 8; i++) {
      servers.add(server("off" + i, ServerRole.COLD, 0));
    }

    ClusterEnergy.Sample now = energy.sample(servers);
    clock.advanceMillis(2 * HOUR);
    ClusterEnergy.Sample later = energy.sample(servers);

    assertThat(now.watts()).isCloseTo(521.55, within(1e-9));
    assertThat(now.allOnWatts()).isCloseTo(1191.15, within(1e-9));
    assertThat(now.kilowattHours()).isZero();
    assertThat(later.kilowattHours()).isCloseTo(1.0431, within(1e-12));
    assertThat(later.allOnKilowattHours()).isCloseTo(2.3823, within(1e-12));
    assertThat(later.savedKilowattHours()).isCloseTo(1.3392, within(1e-12));
    assertThat(later.timeMillis()).isEqualTo(2 * HOUR);
    assertThat(energy.last()).isSameAs(later);
  }

  @Test
  void workedExample_measuredDrawsReplaceTheModel_andAreIntegratedApart() {
    List<Server> servers = List.of(server("m1", ServerRole.HOT, 0), server("s2", ServerRole.HOT, 0),
        server("m3", ServerRole.COLD, 0));
    java.util.Map<String, Double> measured = java.util.Map.of("m1", 120.0, "m3", 8.0);

    ClusterEnergy.Sample now = energy.sample(servers, measured);
    clock.advanceMillis(HOUR);
    ClusterEnergy.Sample later = energy.sample(servers, measured);

    assertThat(now.watts()).isCloseTo(221.7, within(1e-9));
    assertThat(now.measuredWatts()).isCloseTo(128.0, within(1e-9));
    assertThat(now.allOnWatts()).isCloseTo(307.4, within(1e-9));
    assertThat(later.kilowattHours()).isCloseTo(0.2217, within(1e-12));
    assertThat(later.measuredKilowattHours()).isCloseTo(0.128, within(1e-12));
    assertThat(later.savedKilowattHours()).isCloseTo(0.0857, within(1e-12));
  }

  @Test
  void drawHoldsUntilTheNextSample_soAWakeCountsFromWhenItIsSampled() {
    Server asleep = server("s1", ServerRole.COLD, 0);
    energy.sample(List.of(asleep));
    clock.advanceMillis(HOUR);
    energy.sample(List.of(asleep.withRole(ServerRole.HOT)));
    clock.advanceMillis(HOUR);

    ClusterEnergy.Sample last = energy.sample(List.of(asleep.withRole(ServerRole.HOT)));

    assertThat(last.kilowattHours()).isCloseTo((10.0 + 93.7) / 1000, within(1e-12));
    assertThat(last.savedKilowattHours()).isCloseTo(83.7 / 1000, within(1e-12));
  }

  @Test
  void failedServersDrawNothing_andSaveNothing() {
    energy.sample(List.of(server("s1", ServerRole.FAILED, 0)));
    clock.advanceMillis(HOUR);

    ClusterEnergy.Sample last = energy.sample(List.of(server("s1", ServerRole.FAILED, 0)));

    assertThat(last.watts()).isZero();
    assertThat(last.allOnWatts()).isZero();
    assertThat(last.savedKilowattHours()).isZero();
  }

  @Test
  void beforeTheFirstSample_nothingIsDrawn() {
    assertThat(energy.last().watts()).isZero();
    assertThat(energy.last().kilowattHours()).isZero();
    assertThat(energy.last().servers()).isZero();
  }

  private static Server server(String id, ServerRole role, int reads) {
    return Server.builder(id).role(role).serviceCapacity(100).concurrentReads(reads).build();
  }
}
