package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.GearedLayout;
import org.junit.jupiter.api.Test;

/**
 * Reflection after a gear-up to a middle gear: files written in gear 0 owe copies to homes in every gear group; the
 * gear-up to 2 moves those owed to the homes now on, and keeps the record of each file with a home still asleep
 * (forgotten only once every home holds the block); the gear-up to 4 moves the rest, so every block ends at all its
 * homes.
 */
class GearMiddleReflectionTest {
  @Test
  void aGearUpToAMiddleGearKeepsWhatIsOwedToHomesStillAsleep_andTheNextGearUpMovesIt() throws Exception {
    EafrCluster cluster = GearTestCluster.start(GearTestCluster.conf("gear-middle-reflection"));
    GearRuntime gears = GearTestCluster.gears(cluster);
    try {
      GearedLayout layout = gears.layout().orElseThrow();
      gears.service().requestGear(0);
      GearTestCluster.awaitGear(cluster, 0);
      List<String> files = List.of("/low/f0", "/low/f1", "/low/f2", "/low/f3");
      for (int i = 0; i < files.size(); i++) {
        cluster.write(files.get(i), 3, EafrCluster.BLOCK_SIZE + 512 * i, 100 + i);
      }
      GearStore store = new GearStore(cluster.nameNode(), gears.settings().stateDir());
      org.apache.hadoop.test.GenericTestUtils.waitFor(() -> gears.counters().owedFiles.get() == files.size(), 100,
          60_000);

      gears.service().requestGear(2);
      GearTestCluster.awaitGear(cluster, 2);
      ActiveSet on = layout.serversOn(2);
      Map<Long, List<String>> owedHomes = new HashMap<>();
      for (GearStore.OwedFile file : store.owedAfter(-1, 100)) {
        owedHomes.putAll(file.homes());
      }
      assertThat(owedHomes).as("blocks still owed to homes asleep in gear 2").isNotEmpty();
      for (Map.Entry<Long, List<String>> block : owedHomes.entrySet()) {
        List<String> asleep = new ArrayList<>(block.getValue());
        asleep.removeIf(on::contains);
        List<String> awake = new ArrayList<>(block.getValue());
        awake.removeAll(asleep);
        assertThat(holders(cluster, files, block.getKey())).as("block %d, homes %s", block.getKey(), block.getValue())
            .containsAll(awake);
      }
      assertThat(owedHomes.values()).as("each kept record owes a home asleep")
          .allMatch(homes -> !on.ids().containsAll(homes));

      gears.service().requestGear(4);
      GearTestCluster.awaitGear(cluster, 4);
      // the step that reaches the gear counts the backlog after it has put the state in force
      org.apache.hadoop.test.GenericTestUtils.waitFor(() -> gears.counters().owedFiles.get() == 0, 100, 60_000);
      for (Map.Entry<Long, List<String>> block : owedHomes.entrySet()) {
        assertThat(holders(cluster, files, block.getKey())).as("block %d at every home", block.getKey())
            .containsExactlyInAnyOrderElementsOf(block.getValue());
      }
      cluster.verifyChecksums();
    } finally {
      GearTestCluster.stop(cluster);
    }
  }

  /** The DataNodes holding block {@code blockId} of one of {@code files}, as the NameNode lists them. */
  private static List<String> holders(EafrCluster cluster, List<String> files, long blockId) throws Exception {
    for (String file : files) {
      for (LocatedBlock block : cluster.fs().getClient().getLocatedBlocks(file, 0, Long.MAX_VALUE)
          .getLocatedBlocks()) {
        if (block.getBlock().getBlockId() == blockId) {
          List<String> ids = new ArrayList<>();
          for (org.apache.hadoop.hdfs.protocol.DatanodeInfo dn : block.getLocations()) {
            ids.add(org.eafr.namenode.cluster.ServerTranslator.idOf(dn));
          }
          return ids;
        }
      }
    }
    throw new AssertionError("no block " + blockId + " in " + files);
  }
}
