package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.accordion.AccordionLayout;
import org.junit.jupiter.api.Test;

/**
 * Accordion's groups on a growing cluster: 12 DataNodes (groups of 3, 6 and 3) with 4 added become groups of 3, 6 and
 * 7: the lower groups, and so every gear below the top, keep their DataNodes; gear 0 and back to the top works with
 * every file intact, and files written in gear 0 are reflected to their homes on the grown chain.
 */
class AccordionGrowthTest {
  @Test
  void fourDataNodesAdded_joinTheLastGroup_andGearZeroAndBackWorks() throws Exception {
    EafrCluster cluster = GearTestCluster.start(GearTestCluster.accordionConf("accordion-growth"));
    try {
      for (int i = 0; i < 4; i++) {
        cluster.write("/before/f" + i, 3, EafrCluster.BLOCK_SIZE + 4096 * i, i);
      }
      List<String> gearOne = GearTestCluster.layout(cluster).serversOn(1).ids();

      GearTestCluster.addDataNodes(cluster, "/r1", "/r2", "/r3", "/r1");

      AccordionLayout grown = (AccordionLayout) GearTestCluster.layout(cluster);
      assertThat(grown.groupSizes()).containsExactly(3, 6, 7);
      assertThat(grown.serversOn(1).ids()).isEqualTo(gearOne);
      assertThat(GearTestCluster.gears(cluster).state().gear()).isEqualTo(2);
      GearTestCluster.gears(cluster).service().requestGear(0);
      GearTestCluster.awaitGear(cluster, 0);
      assertThat(GearTestCluster.running(cluster)).containsExactlyInAnyOrderElementsOf(grown.serversOn(0).ids());
      cluster.verifyChecksums();
      cluster.write("/low/f0", 3, EafrCluster.BLOCK_SIZE, 40);

      GearTestCluster.gears(cluster).service().requestGear(2);
      GearTestCluster.awaitGear(cluster, 2);
      assertThat(GearTestCluster.running(cluster)).hasSize(16);
      GearTestCluster.assertAccordionLayout(cluster, "/low/f0");
      cluster.verifyChecksums();
    } finally {
      GearTestCluster.stop(cluster);
    }
  }
}
