package org.eafr.namenode.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.bench.SyntheticBlockMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The block-map walks across several read-lock holds ({@value #BATCH} blocks a hold here), on a NameNode with a
 * synthetic block map of 3 DataNodes: files 0..149 one replica each on DataNode 1, raised to replication 2 (queued
 * with one live replica, HDFS's highest priority, in file order), and files 150..299 on DataNode 2, which is then
 * removed (queued with no replica, the lowest priority). So the low-redundancy queue holds 150 blocks with a live
 * replica, then 150 without.
 */
class BlockMapWalksTest {
  private static final int BATCH = 100;
  private static final int LIVE = 150;
  private static final int LOST = 150;
  @TempDir
  static java.nio.file.Path dir;
  private static MiniDFSCluster cluster;
  private static NameNode nameNode;
  private static SyntheticBlockMap map;

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = new HdfsConfiguration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.toString());
    SyntheticBlockMap.configure(conf);
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(0).build();
    cluster.waitActive();
    nameNode = cluster.getNameNode();
    map = SyntheticBlockMap.start(nameNode, 3);
    List<String> ids = map.ids();
    map.growTo(LIVE, n -> List.of(ids.get(1)));
    map.growTo(LIVE + LOST, n -> List.of(ids.get(2)));
    nameNode.getNamesystem().getBlockManager().getDatanodeManager().removeDatanode(map.descriptor(ids.get(2)));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  /** The first 150 queued blocks in file order again (each test may take some out of the queue). */
  @BeforeEach
  void queueInFileOrder() throws IOException {
    setReplication(0, LIVE, 1);
    setReplication(0, LIVE, 2);
  }

  @Test
  void aScanVisitsEveryBlockWithoutALiveReplicaAcrossHolds_withinItsLimit() {
    List<List<String>> holders = new ArrayList<>();
    Set<BlockInfo> seen = new HashSet<>();

    BlocksWithoutLiveReplica.Scan scan = scan(10_000);
    while (scan.step((block, on) -> seen.add(block) && holders.add(on))) {
      assertThat(seen).hasSizeLessThanOrEqualTo(LOST);
    }

    assertThat(scan.examined()).isEqualTo(LIVE + LOST);
    assertThat(seen).hasSize(LOST);
    assertThat(holders).allMatch(List::isEmpty);
    seen.clear();
    scan = scan(200);
    while (scan.step((block, on) -> seen.add(block))) {
      assertThat(scan.examined()).isLessThanOrEqualTo(200);
    }
    assertThat(seen).as("the first 200 queued blocks hold 50 without a live replica").hasSize(50);
    int[] visits = {0};
    assertThat(BlocksWithoutLiveReplica.scan(nameNode.getNamesystem(), 10_000, (block, on) -> ++visits[0] < 7))
        .isEqualTo(LIVE + 7);
    assertThat(visits[0]).as("the visitor ends the scan").isEqualTo(7);
  }

  @Test
  void aScanGoesOnAfterItsLastBlockWhenBlocksBeforeItLeftTheQueue() throws IOException {
    BlocksWithoutLiveReplica.Scan scan = scan(10_000);
    Set<BlockInfo> seen = new HashSet<>();
    BiPredicate<BlockInfo, List<String>> visitor = (block, on) -> seen.add(block);
    assertThat(scan.step(visitor)).isTrue();
    assertThat(scan.examined()).isEqualTo(BATCH);

    setReplication(0, 90, 1); // 90 blocks before the last one examined (file 99) leave the queue between two holds
    while (scan.step(visitor)) {
      assertThat(scan.examined()).isLessThanOrEqualTo(10_000);
    }

    assertThat(seen).as("resumed by position, 40 of the blocks without a live replica would be skipped")
        .hasSize(LOST);
    assertThat(scan.examined()).isEqualTo(BATCH + (LIVE - BATCH) + LOST);
    assertThat(scan.restarts()).isZero();
  }

  @Test
  void aScanStartsAgainAtTheHeadWhenItsLastBlockLeftTheQueue() throws IOException {
    BlocksWithoutLiveReplica.Scan scan = scan(10_000);
    Set<BlockInfo> seen = new HashSet<>();
    scan.step((block, on) -> seen.add(block));

    setReplication(90, BATCH, 1); // the last block examined (file 99) is re-replicated meanwhile
    while (scan.step((block, on) -> seen.add(block))) {
      assertThat(scan.examined()).isLessThanOrEqualTo(10_000);
    }

    assertThat(scan.restarts()).isEqualTo(1);
    assertThat(seen).hasSize(LOST);
    assertThat(scan.examined()).isEqualTo(BATCH + (LIVE - 10) + LOST);
    BlocksWithoutLiveReplica.Scan bounded = scan(120);
    bounded.step((block, on) -> true);
    setReplication(0, LIVE, 1);
    while (bounded.step((block, on) -> true)) {
      assertThat(bounded.examined()).isLessThanOrEqualTo(120);
    }
    assertThat(bounded.restarts()).isEqualTo(1);
    assertThat(bounded.examined()).as("blocks examined before a restart count against the limit").isEqualTo(120);
  }

  @Test
  void aStorageWalkSeesEveryBlockAcrossHolds_andStartsAgainWhenBlocksArriveMeanwhile() throws IOException {
    FSNamesystem namesystem = nameNode.getNamesystem();
    String id = map.ids().get(1);
    DatanodeStorageInfo storage = map.descriptor(id).getStorageInfos()[0];
    long held = map.descriptor(id).numBlocks(); // its one storage
    assertThat(held).isEqualTo(LIVE);
    long[] visits = {0};
    int[] batches = {0};

    boolean whole = StorageBlockWalk.walk(namesystem, storage, visitor(visits, batches, () -> { }), BATCH);

    assertThat(whole).isTrue();
    assertThat(visits[0]).isEqualTo(held);
    assertThat(batches[0]).isEqualTo(2);
    visits[0] = 0;
    batches[0] = 0;
    Runnable addOne = () -> {
      try {
        if (batches[0] == 1) {
          map.growTo(map.files() + 1, n -> List.of(id)); // a new replica at the list's head, between two holds
        }
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    };
    assertThat(StorageBlockWalk.walk(namesystem, storage, visitor(visits, batches, addOne), BATCH)).isTrue();
    assertThat(visits[0]).as("the first walk's blocks, then the whole list again with the new one")
        .isEqualTo(held + held + 1);
  }

  private static BlocksWithoutLiveReplica.Scan scan(int maxScanned) {
    return new BlocksWithoutLiveReplica.Scan(nameNode.getNamesystem(), maxScanned, BATCH);
  }

  private static StorageBlockWalk.Visitor visitor(long[] visits, int[] batches, Runnable betweenHolds) {
    return new StorageBlockWalk.Visitor() {
      @Override
      public void visit(BlockInfo block) {
        visits[0]++;
      }

      @Override
      public boolean proceed() {
        batches[0]++;
        betweenHolds.run();
        return true;
      }
    };
  }

  private static void setReplication(int from, int to, int replication) throws IOException {
    for (int n = from; n < to; n++) {
      nameNode.getRpcServer().setReplication(SyntheticBlockMap.path(n), (short) replication);
    }
  }
}
