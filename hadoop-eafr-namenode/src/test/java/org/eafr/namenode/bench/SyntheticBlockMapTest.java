package org.eafr.namenode.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.gear.GearScaleProbe;
import org.eafr.namenode.relayout.RelayoutDryRun;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.UnavailableBlock;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.gear.relayout.RelayoutSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scale benchmark's parts at small sizes, on one NameNode with 12 synthetic DataNodes. The bench runs first: the
 * later tests add a block the bench's layout would not place, and plan a relayout.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SyntheticBlockMapTest {
  private static final long THRESHOLD_MS = 5;
  @TempDir
  static java.nio.file.Path dir;
  private static MiniDFSCluster cluster;
  private static NameNode nameNode;
  private static SyntheticBlockMap map;
  private static LockHoldReports locks;

  @BeforeAll
  static void start() throws Exception {
    cluster = GearScaleBench.cluster(dir.toString(), THRESHOLD_MS);
    nameNode = cluster.getNameNode();
    locks = LockHoldReports.attach(THRESHOLD_MS);
    map = SyntheticBlockMap.start(nameNode, GearScaleBench.DATANODES);
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  @Test
  @Order(1)
  void benchGrowsTheNamespaceWithTheChangingDataNodesReplicasFixed() throws Exception {
    GearScaleBench bench = new GearScaleBench(nameNode, map, locks, 1, new int[] {64});
    bench.measureAt(400, true);
    long onTopGroup = map.descriptor(map.ids().get(10)).numBlocks() + map.descriptor(map.ids().get(11)).numBlocks();
    bench.measureAt(800, false);

    assertThat(nameNode.getNamesystem().getBlockManager().getTotalBlocks()).isEqualTo(800);
    assertThat(map.ids().stream().mapToLong(id -> map.descriptor(id).numBlocks()).sum()).isEqualTo(3 * 800);
    assertThat(map.descriptor(map.ids().get(10)).numBlocks() + map.descriptor(map.ids().get(11)).numBlocks())
        .isPositive().isEqualTo(onTopGroup);
    String report = bench.report();
    assertThat(report).contains("gear-down check 4 -> 3", "gear-down check 4 -> 0", "namespace walk 4 -> 3",
        "wake detection scan").contains(String.format("%,14d", onTopGroup));
    ExpansionChain chain = chain();
    long[] visited = new long[1];
    assertThat(GearScaleProbe.gearDownCheck(nameNode, id -> true, ActiveSet.firstN(chain, 10), visited)).isEmpty();
    assertThat(visited[0]).as("the check visits the leaving DataNodes' replicas, not the namespace")
        .isEqualTo(onTopGroup);
  }

  @Test
  @Order(2)
  void theGearDownCheckNamesABlockOnlyOnLeavingDataNodes() throws Exception {
    List<String> ids = map.ids();
    long before = map.files();
    map.growTo(before + 1, n -> List.of(ids.get(10), ids.get(11)));
    ExpansionChain chain = chain();

    Optional<UnavailableBlock> gap = GearScaleProbe.gearDownCheck(nameNode, id -> true, ActiveSet.firstN(chain, 10));

    assertThat(gap).isPresent();
    assertThat(gap.get().holders()).containsExactlyInAnyOrder(ids.get(10), ids.get(11));
    assertThat(GearScaleProbe.gearDownCheck(nameNode, id -> true, ActiveSet.firstN(chain, 11))).isEmpty();
  }

  @Test
  @Order(3)
  void aRelayoutPlanningPassPlansEveryBlockAndMovesNothing() throws Exception {
    List<String> ids = map.ids();
    long[] held = ids.stream().mapToLong(id -> map.descriptor(id).numBlocks()).toArray();
    GearedLayout layout = new EqualWorkLayout(chain(), GearScaleBench.PRIMARIES, GearScaleBench.GROUP,
        GearScaleBench.REPLICAS);

    RelayoutDryRun.Result plan = RelayoutDryRun.plan(nameNode, layout, RelayoutSettings.defaults());

    assertThat(plan.files()).isEqualTo(map.files());
    assertThat(plan.report().blocks()).isEqualTo(map.files());
    assertThat(plan.blocksToMove()).as("the block held by the top gear group alone has no replica in gear 0")
        .isPositive();
    assertThat(plan.report().lowerBoundBytes()).isGreaterThanOrEqualTo(1L << 20);
    assertThat(ids.stream().mapToLong(id -> map.descriptor(id).numBlocks()).toArray()).as("nothing moved")
        .containsExactly(held);
    RelayoutDryRun.Result again = RelayoutDryRun.plan(nameNode, layout, RelayoutSettings.defaults());
    assertThat(again.toString()).as("the same plan for the same blocks").isEqualTo(plan.toString());
  }

  private static ExpansionChain chain() {
    return ExpansionChain.of(map.ids().stream().map(id -> Server.builder(id).build()).collect(Collectors.toList()));
  }

  @Test
  void aReadLockHeldPastTheThresholdIsReportedWithItsLength() {
    FSNamesystem namesystem = nameNode.getNamesystem();
    locks.reset();
    namesystem.readLock();
    long start = System.nanoTime();
    try {
      while (System.nanoTime() - start < 4 * THRESHOLD_MS * 1_000_000) {
        Thread.onSpinWait(); // a hold of a known length; the lock is the thing measured
      }
    } finally {
      namesystem.readUnlock();
    }
    assertThat(locks.readReports()).isPositive();
    assertThat(locks.longestReadMillis()).isGreaterThanOrEqualTo(4 * THRESHOLD_MS);
  }
}
