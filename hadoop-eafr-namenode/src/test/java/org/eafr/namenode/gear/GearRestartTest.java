package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.junit.jupiter.api.Test;

/**
 * A NameNode restart in the middle of a gear-down and in the middle of a reflection: the restarted NameNode builds
 * its EAFR state anew (nothing in memory survives), reads the shift from the namespace, finishes it, and every file
 * reads back with its checksum.
 */
class GearRestartTest {
  @Test
  void restartsMidGearDownAndMidReflectionLoseNothingAndFinishTheShift() throws Exception {
    EafrCluster cluster = GearTestCluster.start(GearTestCluster.conf("gear-restart"));
    try {
      for (int i = 0; i < 3; i++) {
        cluster.write("/data/f" + i, 3, EafrCluster.BLOCK_SIZE + 1024 * i, i);
      }
      service(cluster).requestGear(0);
      assertThat(GearTestCluster.gears(cluster).state().phase()).isNotEqualTo(ShiftPhase.STEADY);
      GearTestCluster.restartNameNode(cluster);
      GearTestCluster.awaitGear(cluster, 0);
      assertThat(GearTestCluster.running(cluster))
          .containsExactlyInAnyOrderElementsOf(GearTestCluster.layout(cluster).serversOn(0).ids());
      cluster.verifyChecksums();

      List<String> lowGear = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        lowGear.add("/low/f" + i);
        cluster.write("/low/f" + i, 3, 2 * EafrCluster.BLOCK_SIZE, 50 + i);
      }
      // The three low-gear files owe moves (the restarted NameNode holds back re-replicating the blocks whose other
      // replicas sleep at their homes, so nothing else is copied onto the primaries).
      GenericTestUtils.waitFor(() -> GearTestCluster.gears(cluster).counters().owedFiles.get() >= 3, 100, 60_000);
      service(cluster).requestGear(4);
      GenericTestUtils.waitFor(() -> GearTestCluster.gears(cluster).state().phase() == ShiftPhase.REFLECTING, 50,
          60_000);
      GearTestCluster.restartNameNode(cluster);
      GearTestCluster.awaitGear(cluster, 4);

      assertThat(GearTestCluster.running(cluster)).hasSize(12);
      for (String file : lowGear) {
        GearTestCluster.assertEqualWorkLayout(cluster, file);
      }
      cluster.verifyChecksums();
    } finally {
      GearTestCluster.stop(cluster);
    }
  }

  private static GearService service(EafrCluster cluster) {
    return GearTestCluster.gears(cluster).service();
  }
}
