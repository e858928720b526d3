package org.eafr.namenode.relayout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.eafr.namenode.relayout.RelayoutClusterTest.gears;
import static org.eafr.namenode.relayout.RelayoutClusterTest.relayout;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.gear.GearTestCluster;
import org.eafr.namenode.testing.EafrCluster;
import org.junit.jupiter.api.Test;

/**
 * {@code eafr.relayout.grow.auto = 1}: RelayoutGrowTest's cluster and data (12 DataNodes of 16 MB, p = 2, 24 MB
 * stored with 3 replicas, headroom 0.5, so the lowest gear holds 89% of one copy) with no command given: the active
 * NameNode grows the layout to p = 4 by itself, relays the blocks out onto it, and grows no further once the lowest
 * gear holds one copy.
 */
class RelayoutAutoGrowTest {
  @Test
  void theLowestGearShortOfOneCopy_growsByItself() throws Exception {
    long started = System.nanoTime();
    Configuration conf = RelayoutClusterTest.conf("relayout-auto-grow", 4);
    conf.set("eafr.relayout.grow.auto", "1");
    EafrCluster cluster = RelayoutGrowTest.startShortOfOneCopy(conf);
    try {
      assertThat(relayout(cluster).values()).containsEntry("state", "never run").containsEntry("growAuto", true);
      RelayoutGrowTest.writeData(cluster);

      GenericTestUtils.waitFor(() -> "finished".equals(relayout(cluster).values().get("state")), 100, 60_000);
      Map<String, Object> done = relayout(cluster).values();
      assertThat(done).containsEntry("grownFrom", 2).containsEntry("grownTo", 4)
          .containsEntry("lowestGearDataNodes", 4);
      assertThat(gears(cluster).state().primaries()).isEqualTo(4);
      assertThat(((Number) done.get("movedBytes")).doubleValue()).as("bytes moved against the lower bound")
          .isPositive().isLessThanOrEqualTo(1.2 * ((Number) done.get("lowerBoundBytes")).longValue());
      relayout(cluster).step();
      assertThat(relayout(cluster).values()).as("one copy held: no further growth").containsEntry("state", "finished")
          .containsEntry("grownTo", 4);
      cluster.verifyChecksums();
    } finally {
      GearTestCluster.stop(cluster);
      System.out.printf("RelayoutAutoGrowTest wall time: %.1f s%n", (System.nanoTime() - started) / 1e9);
    }
  }
}
