package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.junit.jupiter.api.Test;

/**
 * A gear-down cancelled after maintenance takes out of maintenance only the DataNodes it added: those asleep since an
 * earlier gear-down have their hosts off, and stay asleep in maintenance (out of it, HDFS would re-replicate all they
 * hold, and no gear-up would power them on). From gear 2 (positions 8..11 off) the gear-down to 0 adds positions
 * 4..7; a write on one of them holds it before power-off; the primary holding the only replica of a file dies, so the
 * availability check after maintenance finds a block with no live replica in gear 0 and cancels.
 */
class GearCancelAsleepTest {
  @Test
  void aGearDownCancelledAfterMaintenance_wakesOnlyTheDataNodesItAdded() throws Exception {
    EafrCluster cluster = GearTestCluster.start(GearTestCluster.conf("gear-cancel-asleep"));
    GearRuntime gears = GearTestCluster.gears(cluster);
    try {
      GearedLayout layout = gears.layout().orElseThrow();
      for (int i = 0; i < 3; i++) {
        cluster.write("/data/f" + i, 3, EafrCluster.BLOCK_SIZE + 4096 * i, i);
      }
      int primaryPosition = layout.serversOn(0).positions()[0];
      String primary = layout.chain().id(primaryPosition);
      try (FSDataOutputStream out = GearTestCluster.createOn(cluster, new Path("/lost/only-on-primary"), primary)) {
        out.write(new byte[4096]);
      }
      assertThat(cluster.blockHolders("/lost/only-on-primary")).containsExactly(List.of(primary));
      gears.service().requestGear(2);
      GearTestCluster.awaitGear(cluster, 2);
      Set<String> asleepInGear2 = gears.state().sleeping();
      assertThat(asleepInGear2).containsExactlyInAnyOrderElementsOf(layout.serversOn(4).minus(layout.serversOn(2))
          .ids());

      List<String> added = layout.serversOn(2).minus(layout.serversOn(0)).ids();
      FSDataOutputStream held = GearTestCluster.createOn(cluster, new Path("/open/held"), added.get(0));
      held.write(new byte[4096]);
      held.hflush();
      gears.service().requestGear(0);
      GenericTestUtils.waitFor(() -> added.stream()
          .allMatch(id -> GearTestCluster.descriptor(cluster, id).isInMaintenance()), 100, 60_000);
      assertThat(gears.state().phase()).isEqualTo(ShiftPhase.ENTERING_MAINTENANCE);

      cluster.kill(cluster.indexOf(primary)); // its file's only replica gone: no live replica in gear 0
      GenericTestUtils.waitFor(() -> gears.counters().refusedShifts.get() == 1
          && gears.state().phase() == ShiftPhase.STEADY, 100, 60_000);

      GearRecord cancelled = gears.state();
      assertThat(cancelled.gear()).isEqualTo(2);
      Set<String> stillOff = new TreeSet<>(asleepInGear2);
      stillOff.removeAll(layout.recoveryGroup(primaryPosition).ids()); // woken out of turn for the failed primary
      assertThat(stillOff).isNotEmpty();
      assertThat(cancelled.sleeping()).as("asleep since gear 2, hosts off").containsAll(stillOff);
      assertThat(cancelled.sleeping()).as("added by the gear-down").doesNotContainAnyElementsOf(added);
      for (String id : stillOff) {
        assertThat(GearTestCluster.descriptor(cluster, id).isInMaintenance()).as(id + " stays in maintenance").isTrue();
      }
      assertThat(GearTestCluster.running(cluster)).doesNotContainAnyElementsOf(stillOff);
      try {
        held.close();
      } catch (IOException unfinished) {
        // its DataNode was in maintenance meanwhile; the write is not what this test checks
      }
    } finally {
      GearTestCluster.stop(cluster);
    }
  }
}
