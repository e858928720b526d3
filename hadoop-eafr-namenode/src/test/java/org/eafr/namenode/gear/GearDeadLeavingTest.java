package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.power.ForwardingPowerDriver;
import org.eafr.namenode.power.MiniClusterPower;
import org.eafr.namenode.power.PowerDriver;
import org.eafr.namenode.power.PowerException;
import org.eafr.namenode.power.PowerState;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.GearedLayout;
import org.junit.jupiter.api.Test;

/**
 * A registered DataNode whose process died before a gear-down (its host still runs) goes IN_MAINTENANCE at once,
 * without this NameNode seeing it alive in maintenance, so the power-off guard refuses its host. It holds no live
 * replica: the shift counts it asleep with no power command and reaches the gear. Once an operator restarts the
 * DataNode it registers in maintenance, and the next gear-up takes it out like any sleeping DataNode.
 */
class GearDeadLeavingTest {
  @Test
  void aDataNodeDeadBeforeTheGearDown_isCountedAsleepWithNoPowerOff_andTheShiftFinishes() throws Exception {
    EafrCluster cluster = EafrCluster.start(GearTestCluster.conf("gear-dead-leaving"), GearTestCluster.RACKS);
    GearRuntime gears = GearTestCluster.gears(cluster);
    try {
      GenericTestUtils.waitFor(() -> gears.layout().isPresent(), 50, 60_000);
      GearedLayout layout = gears.layout().orElseThrow();
      String dead = layout.serversOn(4).minus(layout.serversOn(3)).ids().get(0);
      String other = layout.serversOn(4).minus(layout.serversOn(3)).ids().get(1);
      Map<String, PowerDriver> drivers = MiniClusterPower.drivers(cluster.mini(), null);
      CrashedDataNode crashed = new CrashedDataNode(drivers.get(dead));
      drivers.put(dead, crashed);
      gears.power(MiniClusterPower.manager(cluster.mini(), drivers));
      for (int i = 0; i < 3; i++) {
        cluster.write("/data/f" + i, 3, EafrCluster.BLOCK_SIZE + 4096 * i, i);
      }
      crashed.crash();
      GenericTestUtils.waitFor(() -> !GearTestCluster.descriptor(cluster, dead).isAlive(), 100, 60_000);

      gears.service().requestGear(3);
      GearTestCluster.awaitGear(cluster, 3);
      assertThat(gears.state().sleeping()).containsExactlyInAnyOrder(dead, other);
      assertThat(GearTestCluster.descriptor(cluster, dead).isInMaintenance()).isTrue();
      assertThat(GearTestCluster.running(cluster)).doesNotContain(dead, other).hasSize(10);
      assertThat(crashed.offCommands.get()).as("no power-off reached the host the guard refused").isZero();

      crashed.restartDataNode(); // an operator restarts the DataNode: it registers, still in maintenance
      GenericTestUtils.waitFor(() -> GearTestCluster.descriptor(cluster, dead).isAlive(), 100, 60_000);
      assertThat(GearTestCluster.descriptor(cluster, dead).isInMaintenance()).isTrue();
      gears.service().requestGear(4);
      GearTestCluster.awaitGear(cluster, 4);
      assertThat(GearTestCluster.running(cluster)).hasSize(GearTestCluster.RACKS.length);
      GenericTestUtils.waitFor(() -> GearTestCluster.descriptor(cluster, dead).isInService(), 100, 60_000);
      assertThat(crashed.offCommands.get()).isZero();
      cluster.verifyChecksums();
    } finally {
      GearTestCluster.stop(cluster);
    }
  }

  /** A host whose DataNode process can crash while the host runs: its BMC then reads ON. */
  private static final class CrashedDataNode extends ForwardingPowerDriver {
    final AtomicInteger offCommands = new AtomicInteger();
    private volatile boolean crashed;

    CrashedDataNode(PowerDriver host) {
      super(host);
    }

    /** The DataNode process dies (the NameNode declares it dead at once); the host stays on. */
    void crash() throws PowerException {
      super.forcedOff();
      crashed = true;
    }

    void restartDataNode() throws PowerException {
      super.powerOn();
      crashed = false;
    }

    @Override
    public void gracefulOff() throws PowerException {
      offCommands.incrementAndGet();
      super.gracefulOff();
    }

    @Override
    public void forcedOff() throws PowerException {
      offCommands.incrementAndGet();
      super.forcedOff();
    }

    @Override
    public PowerState state() throws PowerException {
      return crashed ? PowerState.ON : super.state();
    }
  }
}
