package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNodeTestUtils;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.cluster.ReplicaMap;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.shift.AdminState;
import org.eafr.placement.gear.shift.DataNodeView;
import org.eafr.placement.gear.shift.Reply;
import org.eafr.placement.gear.shift.ShiftFloor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The core gear shift's view of HDFS ({@link HdfsShiftCluster}) and its moves ({@link HdfsMovePort}) against one
 * MiniDFSCluster of twelve DataNodes: each answer is checked against what the NameNode's block map and DataNode
 * manager show. The last test kills a DataNode.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HdfsShiftClusterTest {
  private static EafrCluster cluster;
  private static HdfsShiftCluster view;
  private static ReplicaMap replicaMap;
  private static ExpansionChain chain;

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = GearTestCluster.conf("hdfs-shift-cluster");
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_KEY, 3_000); // 3 heartbeats of 1 s
    cluster = GearTestCluster.start(conf);
    GearRuntime gears = GearTestCluster.gears(cluster);
    replicaMap = new ReplicaMap(cluster.nameNode());
    view = new HdfsShiftCluster(cluster.nameNode(), gears, new GearDataNodes(cluster.nameNode(), gears), replicaMap,
        0, System::currentTimeMillis);
    chain = GearTestCluster.layout(cluster).chain();
  }

  @AfterAll
  static void stop() {
    replicaMap.close();
    GearTestCluster.stop(cluster);
  }

  @Test
  @Order(1)
  void dataNodesAndBlocksAreTheBlockMapsAndTheDataNodeManagers() throws Exception {
    cluster.write("/hsc/three", 3, 4096, 1);
    LocatedBlock located = cluster.mini().getNameNodeRpc().getBlockLocations("/hsc/three", 0, 1).get(0);
    String name = located.getBlock().getLocalBlock().getBlockName();
    List<String> holders = cluster.holders("/hsc/three");

    DataNodeView holder = view.dataNode(holders.get(0));
    assertThat(holder.registered() && holder.alive() && holder.reported() && !holder.stale()).isTrue();
    assertThat(holder.admin()).isEqualTo(AdminState.NORMAL);
    assertThat(view.dataNode("10.255.255.1:1")).isSameAs(DataNodeView.UNREGISTERED);
    assertThat(view.settled()).isTrue();
    assertThat(view.notAlive(chain).isEmpty()).isTrue();
    assertThat(view.activeSinceMillis()).as("not active until the gear service has seen it so")
        .isEqualTo(Long.MAX_VALUE);
    view.becameActive(1_000);
    assertThat(view.activeSinceMillis()).isEqualTo(1_000);
    assertThat(view.deadIntervalMillis()).as("HDFS's expiry: 2 x recheck 15 s + 10 x heartbeat 1 s")
        .isEqualTo(40_000);

    assertThat(view.block(name)).map(ReplicatedFile::replicaServers).get().asList()
        .containsExactlyInAnyOrderElementsOf(holders);
    assertThat(view.block("blk_" + Long.MAX_VALUE)).isEmpty();
    assertThat(view.block("not-a-block")).isEmpty();
    for (String id : holders) {
      assertThat(view.blocksOn(id)).as("blocks on %s", id)
          .anySatisfy(block -> {
            assertThat(block.id()).isEqualTo(name);
            assertThat(block.replicaServers()).containsExactlyInAnyOrderElementsOf(holders);
          });
    }
    String other = firstNotIn(holders);
    assertThat(view.blocksOn(other)).noneMatch(block -> block.id().equals(name));

    ShiftFloor.Gaps gaps = ShiftFloor.check(view, holders, id -> !holders.contains(id));
    assertThat(gaps.complete()).as("a block held only on the DataNodes that leave").isPresent();
    assertThat(ShiftFloor.check(view, holders, id -> true).complete()).isEmpty();

    cluster.write("/hsc/gone", 3, 4096, 2);
    String gone = cluster.mini().getNameNodeRpc().getBlockLocations("/hsc/gone", 0, 1).get(0).getBlock()
        .getLocalBlock().getBlockName();
    assertThat(view.block(gone)).isPresent();
    cluster.delete("/hsc/gone");
    GenericTestUtils.waitFor(() -> view.block(gone).isEmpty(), 50, 60_000);
  }

  @Test
  @Order(2)
  void aBlockBeingWrittenIsAPipelineUntilItsFileCloses() throws Exception {
    String on = chain.id(5);
    Path path = new Path("/hsc/open");
    try (FSDataOutputStream out = GearTestCluster.createOn(cluster, path, on)) {
      out.write(new byte[512]);
      out.hflush();
      assertThat(view.pipelines()).anySatisfy(block -> assertThat(block.replicaServers()).containsExactly(on));
      ShiftFloor.Gaps gaps = ShiftFloor.check(view, List.of(), id -> !id.equals(on));
      assertThat(gaps.beingWritten()).as("the write's only DataNode leaves").isPresent();
    }
    GenericTestUtils.waitFor(() -> !view.pipelines().iterator().hasNext(), 50, 60_000);
  }

  @Test
  @Order(3)
  void aDataNodeWithoutHeartbeatsIsStale() throws Exception {
    String id = chain.id(7);
    DataNodeTestUtils.setHeartbeatsDisabledForTests(cluster.dataNode(cluster.indexOf(id)), true);
    try {
      GenericTestUtils.waitFor(() -> view.stale(chain).contains(chain.position(id)), 100, 60_000);
      assertThat(view.stale(chain).ids()).containsExactly(id);
      assertThat(view.dataNode(id).stale()).isTrue();
    } finally {
      DataNodeTestUtils.setHeartbeatsDisabledForTests(cluster.dataNode(cluster.indexOf(id)), false);
    }
    GenericTestUtils.waitFor(() -> view.stale(chain).isEmpty(), 100, 60_000);
  }

  @Test
  @Order(4)
  void aMoveCopiesTheReplicaToItsTarget_registeredForTheSourcesCopyToBeDeleted_andAGoneBlockFailsAtOnce()
      throws Exception {
    String from = chain.id(2);
    String to = chain.id(3);
    cluster.write("/hsc/move", 1, 4096, 4, cluster.dataNode(cluster.indexOf(from)));
    String name = cluster.mini().getNameNodeRpc().getBlockLocations("/hsc/move", 0, 1).get(0).getBlock()
        .getLocalBlock().getBlockName();
    GearRuntime gears = GearTestCluster.gears(cluster);
    try (HdfsMovePort moves = new HdfsMovePort(cluster.nameNode(), gears, new GearDataNodes(cluster.nameNode(),
        gears), () -> chain, System::currentTimeMillis)) {
      long ticket = moves.start(new BlockMove(name, chain.position(from), chain.position(to), true));
      assertThat(gears.reflectionMoves()).contains(new ReflectionMove(from, to));
      Reply[] reply = {Reply.PENDING};
      GenericTestUtils.waitFor(() -> (reply[0] = moves.poll(ticket)).kind() != Reply.Kind.PENDING, 50, 60_000);
      assertThat(reply[0]).isEqualTo(Reply.DONE);
      GenericTestUtils.waitFor(() -> {
        try {
          return cluster.holders("/hsc/move").equals(List.of(to));
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }, 100, 60_000);
      GenericTestUtils.waitFor(() -> {
        moves.poll(-1); // a poll sweeps what has settled
        return !gears.reflectionMoves().contains(new ReflectionMove(from, to));
      }, 100, 60_000);

      long gone = moves.start(new BlockMove("blk_" + Long.MAX_VALUE, chain.position(from), chain.position(to), true));
      Reply failed = moves.poll(gone);
      assertThat(failed.kind()).isEqualTo(Reply.Kind.FAILED);
      assertThat(failed.reason()).contains("blk_" + Long.MAX_VALUE).contains("no longer exists");
      assertThat(moves.poll(gone).reason()).as("a reply is read once").contains("not known");
    }
  }

  @Test
  @Order(5)
  void aDeadDataNodesOnlyReplicaIsABlockWithoutLiveReplica_scannedOncePerIntervalOrAtOnceAfterARead()
      throws Exception {
    String id = chain.id(9);
    int index = cluster.indexOf(id);
    cluster.write("/hsc/one", 1, 4096, 3, cluster.dataNode(index));
    String name = cluster.mini().getNameNodeRpc().getBlockLocations("/hsc/one", 0, 1).get(0).getBlock()
        .getLocalBlock().getBlockName();
    assertThat(cluster.holders("/hsc/one")).containsExactly(id);

    cluster.kill(index);
    assertThat(view.notAlive(chain).ids()).containsExactly(id);
    assertThat(view.dataNode(id).registered() && !view.dataNode(id).alive()).isTrue();
    GenericTestUtils.waitFor(() -> ids(view.blocksWithoutLiveReplica()).contains(name), 100, 60_000);
    assertThat(view.blocksWithoutLiveReplica()).filteredOn(block -> block.id().equals(name))
        .as("HDFS drops the replicas of a DataNode it declares dead (one in maintenance keeps them)")
        .allSatisfy(block -> assertThat(block.replicaServers()).isEmpty());

    AtomicLong now = new AtomicLong(1_000_000);
    GearRuntime gears = GearTestCluster.gears(cluster);
    HdfsShiftCluster hourly = new HdfsShiftCluster(cluster.nameNode(), gears,
        new GearDataNodes(cluster.nameNode(), gears), replicaMap, 3_600_000, now::get);
    assertThat(ids(hourly.blocksWithoutLiveReplica())).as("the first scan").contains(name);
    now.addAndGet(60_000);
    assertThat(ids(hourly.blocksWithoutLiveReplica())).as("a minute later, nothing asked").isEmpty();
    hourly.readFoundNoReplica();
    assertThat(ids(hourly.blocksWithoutLiveReplica())).as("after a read found no replica").contains(name);
    assertThat(ids(hourly.blocksWithoutLiveReplica())).as("once per read").isEmpty();
  }

  private static List<String> ids(Iterable<ReplicatedFile> blocks) {
    List<String> ids = new ArrayList<>();
    blocks.forEach(block -> ids.add(block.id()));
    return ids;
  }

  private static String firstNotIn(List<String> ids) {
    for (int p = 0; p < chain.size(); p++) {
      if (!ids.contains(chain.id(p))) {
        return chain.id(p);
      }
    }
    throw new IllegalStateException("every DataNode holds the block");
  }
}
