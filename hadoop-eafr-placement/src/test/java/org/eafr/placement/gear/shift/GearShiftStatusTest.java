package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The worked examples of {@link GearShift#blockedBy} ({@link ShiftBlocker}) and of a DataNode HDFS decommissions during
 * a shift, on the {@link ShiftFixture} cluster (gear 0 keeps s0..s3 on).
 */
class GearShiftStatusTest {
  private final ShiftFixture fixture = new ShiftFixture();
  private final SimulatedCluster cluster = fixture.cluster;
  private GearShift shift;

  @BeforeEach
  void resumed() {
    shift = fixture.resume();
  }

  @Test
  void blockedBy_namesTheFirstLeaverNotYetInMaintenance() {
    assertThat(shift.blockedBy()).isEmpty();

    shift.request(0);

    assertThat(shift.blockedBy()).contains("DataNode s10: not yet IN_MAINTENANCE (HDFS shows"
        + " ENTERING_MAINTENANCE)");
  }

  @Test
  void blockedBy_namesDataNodesAsTheHostNamesThem() {
    GearShift named = GearShift.resume(fixture.layout, new ShiftPorts(cluster, cluster, cluster, cluster,
        fixture.store).namingBy(id -> "host-" + id + ":9866"), new ShiftSettings(1, 3, 4));

    named.request(0);

    assertThat(named.blockedBy()).contains("DataNode host-s10:9866: not yet IN_MAINTENANCE (HDFS shows"
        + " ENTERING_MAINTENANCE)");
  }

  @Test
  void blockedBy_namesThePowerOnUnderWayThenTheDataNodeNotYetReported() {
    shift.request(0);
    fixture.steps(shift, 3);
    shift.request(4);

    shift.step(cluster.tick);
    String powering = shift.blockedBy().orElseThrow();
    fixture.steps(shift, 1);

    assertThat(powering).isEqualTo("DataNode s10: power on under way");
    assertThat(shift.state().phase()).isEqualTo(ShiftPhase.REGISTERING);
    assertThat(shift.blockedBy()).contains("DataNode s10: powered on; its DataNode has not registered and reported"
        + " its blocks yet");
  }

  @Test
  void gearDown_neitherWaitsForNorPowersADataNodeHdfsDecommissions() {
    cluster.decommission("s11");

    shift.request(0);
    fixture.steps(shift, 3);

    assertThat(shift.state().phase()).isEqualTo(ShiftPhase.STEADY);
    assertThat(shift.state().gear()).isZero();
    assertThat(cluster.powerCommands()).isEqualTo(7);
    assertThat(cluster.poweredOn("s11")).isTrue();
    assertThat(cluster.violations()).isEmpty();
  }
}
