package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.IntStream;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.power.MiniClusterPower;
import org.eafr.namenode.power.PowerDriver;
import org.eafr.namenode.testing.EafrCluster;
import org.junit.jupiter.api.Test;

/**
 * A NameNode started while DataNodes sleep never sees them register, so it knows them only by the persisted chain;
 * the power inventory names hosts (dn0.eafr.test, no port), as an operator's does. The thrash test's round 69 (seed
 * 394229244): after a NameNode restart at gear 3, the gear-up to 5 found no inventory entry for the sleeping DataNodes
 * (named by IP alone), counted them as on without a command, and waited in REGISTERING for good. And CI's thrash run
 * (seed 78320553): after a NameNode restart at gear 2, the gear-down to 0 asked the power manager to switch off the
 * hosts asleep since before the restart, which it refused (no DataNode of this NameNode runs there, so HDFS cannot
 * show it IN_MAINTENANCE), every second for good: the shift stayed in POWERING_OFF.
 */
class GearRestartAsleepTest {
  @Test
  void aNameNodeStartedWhileDataNodesSleepShiftsDownPastThemAndWakesThemByTheirHostNames() throws Exception {
    String[] hosts = IntStream.range(0, GearTestCluster.RACKS.length).mapToObj(i -> "dn" + i + ".eafr.test")
        .toArray(String[]::new);
    EafrCluster cluster = EafrCluster.start(GearTestCluster.conf("gear-restart-asleep"), GearTestCluster.RACKS,
        hosts);
    Map<String, PowerDriver> drivers = MiniClusterPower.driversByHostName(cluster.mini());
    assertThat(drivers).containsOnlyKeys(hosts);
    GearTestCluster.gears(cluster).power(MiniClusterPower.manager(cluster.mini(), drivers));
    try {
      GenericTestUtils.waitFor(() -> GearTestCluster.gears(cluster).layout().isPresent(), 50, 60_000);
      cluster.write("/data/f0", 3, EafrCluster.BLOCK_SIZE + 1024, 7);
      service(cluster).requestGear(2);
      GearTestCluster.awaitGear(cluster, 2);
      int onInGear2 = GearTestCluster.layout(cluster).serversOn(2).ids().size();

      GearTestCluster.restartNameNode(cluster, drivers);
      GenericTestUtils.waitFor(() -> GearTestCluster.gears(cluster).layout().isPresent(), 50, 60_000);
      assertThat(GearTestCluster.gears(cluster).state().sleeping()).hasSize(hosts.length - onInGear2);
      service(cluster).requestGear(0); // past the hosts asleep since before the restart: they get no command
      GearTestCluster.awaitGear(cluster, 0);
      assertThat(GearTestCluster.running(cluster))
          .containsExactlyInAnyOrderElementsOf(GearTestCluster.layout(cluster).serversOn(0).ids());
      assertThat(GearTestCluster.gears(cluster).state().sleeping()).hasSize(8);

      service(cluster).requestGear(4);
      GearTestCluster.awaitGear(cluster, 4);

      assertThat(GearTestCluster.running(cluster)).hasSize(GearTestCluster.RACKS.length);
      assertThat(GearTestCluster.gears(cluster).counters().powerFailures.get()).isZero();
      cluster.verifyChecksums();
    } finally {
      GearTestCluster.stop(cluster);
    }
  }

  private static GearService service(EafrCluster cluster) {
    return GearTestCluster.gears(cluster).service();
  }
}
