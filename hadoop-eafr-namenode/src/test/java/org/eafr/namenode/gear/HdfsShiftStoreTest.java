package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.XAttrHelper;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.placement.gear.shift.OwedBlock;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.eafr.placement.gear.shift.ShiftState;
import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gear shift's store in the namespace ({@link HdfsShiftStore}) on one MiniDFSCluster (one DataNode, 1 MB blocks):
 * per-file records expanded into blocks in file order with an opaque cursor, homes planned once per block and kept
 * across a NameNode restart, a record removed once each of its blocks is forgotten, and damaged records named with
 * nothing changed.
 */
class HdfsShiftStoreTest {
  private static final int BLOCK = 1 << 20;
  private static MiniDFSCluster cluster;
  private static GearRuntime gears;
  private static final AtomicInteger planned = new AtomicInteger();

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = new HdfsConfiguration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, Files.createTempDirectory(Paths.get(System.getProperty(
        "java.io.tmpdir")), "hdfs-shift-store").resolve("dfs").toString());
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, BLOCK);
    conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, 1);
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    cluster.waitActive();
    gears = new GearRuntime(GearSettings.from(key -> null), EafrSettings.from(key -> null));
  }

  @AfterAll
  static void stop() {
    cluster.shutdown();
  }

  /** Homes named after the block (h<id>), counting each plan. */
  private static HdfsShiftStore store(String stateDir) {
    NameNode nameNode = cluster.getNameNode();
    return new HdfsShiftStore(nameNode, gears, new GearStore(nameNode, stateDir),
        (path, blockId, replication, holders) -> {
          planned.incrementAndGet();
          return List.of("h" + blockId);
        });
  }

  @Test
  void stateAndOwedFilesSurviveARestart_listedBlockByBlockWithACursor_andForgottenPerFile() throws Exception {
    HdfsShiftStore store = store("/system/shift-a");
    assertThat(store.load()).isEmpty();
    ShiftState state = new ShiftState(2, 0, ShiftPhase.ENTERING_MAINTENANCE, Set.of("s4", "s5"), Set.of(),
        Set.of("s4"));
    store.save(state);
    assertThat(store.load()).contains(state);
    assertThat(gears.state().shift()).isEqualTo(state);

    List<String> three = write("/owed/three", 2 * BLOCK + 100);
    List<String> one = write("/owed/one", 100);
    store.owePath("/owed/three");
    store.owe(new OwedBlock(one.get(0), 1, List.of("any")));
    store.owe(new OwedBlock(one.get(0), 1, List.of("any"))); // once per file
    assertThat(store.owedCount()).isEqualTo(2);

    List<String> all = new ArrayList<>(three);
    all.addAll(one);
    int before = planned.get();
    assertThat(names(store.owedAfter("", 10))).containsExactlyElementsOf(all);
    assertThat(planned.get() - before).as("homes planned, once per block").isEqualTo(4);
    assertThat(store.owedAfter("", 10)).allSatisfy(block -> assertThat(block.homes()).containsExactly("h"
        + org.apache.hadoop.hdfs.protocol.Block.getBlockId(block.blockId())));

    List<OwedBlock> first = store.owedAfter("", 2);
    assertThat(names(first)).containsExactlyElementsOf(all.subList(0, 2));
    List<OwedBlock> second = store.owedAfter(store.cursorOf(first.get(1)), 2);
    assertThat(names(second)).as("the rest of the first file, then the next").containsExactlyElementsOf(
        all.subList(2, 4));
    assertThat(store.owedAfter(store.cursorOf(second.get(1)), 2)).isEmpty();
    assertThatThrownBy(() -> store.owedAfter("three#x", 2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'three#x'");

    cluster.restartNameNode(true);
    HdfsShiftStore restarted = store("/system/shift-a");
    assertThat(restarted.load()).contains(state);
    before = planned.get();
    List<OwedBlock> again = restarted.owedAfter("", 10);
    assertThat(names(again)).containsExactlyElementsOf(all);
    assertThat(planned.get()).as("nothing planned anew after the restart").isEqualTo(before);

    restarted.forget(one.get(0));
    assertThat(restarted.owedCount()).as("the one-block file's record went").isEqualTo(1);
    restarted.forget(three.get(0));
    restarted.forget(three.get(1));
    assertThat(restarted.owedCount()).as("a block of the file is still owed").isEqualTo(1);
    restarted.forget(three.get(2));
    assertThat(restarted.owedCount()).isZero();

    write("/owed/deleted", 100);
    restarted.owePath("/owed/deleted");
    cluster.getFileSystem().delete(new Path("/owed/deleted"), false);
    assertThat(restarted.owedAfter("", 10)).isEmpty();
    assertThat(restarted.owedCount()).as("a deleted file's record is dropped as it is listed").isZero();
  }

  @Test
  void damagedRecordsAreNamed_andNothingChanges() throws Exception {
    HdfsShiftStore store = store("/system/shift-b");
    write("/owed/damaged", 100);
    store.owePath("/owed/damaged");
    long inode = cluster.getNamesystem().getFSDirectory().getINode("/owed/damaged").getId();
    String marker = "/system/shift-b/owed/" + inode;
    byte[] junk = "not json".getBytes(StandardCharsets.UTF_8);
    setXAttr(marker, GearStore.OWED_XATTR, junk);

    assertThatThrownBy(() -> store.owedAfter("", 10)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(marker).hasMessageContaining(GearStore.OWED_XATTR).hasMessageContaining("damaged");
    assertThat(store.owedCount()).isEqualTo(1);
    assertThat(cluster.getFileSystem().getXAttr(new Path(marker), GearStore.OWED_XATTR)).isEqualTo(junk);

    byte[] badState = "{\"gear\":2,\"target\":0,\"phase\":\"SIDEWAYS\"}".getBytes(StandardCharsets.UTF_8);
    cluster.getFileSystem().mkdirs(new Path("/system/shift-b"));
    setXAttr("/system/shift-b", GearStore.STATE_XATTR, badState);
    assertThatThrownBy(store::load).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(GearStore.STATE_XATTR).hasMessageContaining("/system/shift-b")
        .hasMessageContaining("damaged");
    assertThat(cluster.getFileSystem().getXAttr(new Path("/system/shift-b"), GearStore.STATE_XATTR))
        .isEqualTo(badState);
  }

  private static void setXAttr(String path, String name, byte[] value) throws Exception {
    cluster.getNameNodeRpc().setXAttr(path, XAttrHelper.buildXAttr(name, value), EnumSet.of(XAttrSetFlag.CREATE,
        XAttrSetFlag.REPLACE));
  }

  /** Writes {@code bytes} to {@code path}; returns the names of its blocks in file order. */
  private static List<String> write(String path, int bytes) throws Exception {
    try (FSDataOutputStream out = cluster.getFileSystem().create(new Path(path))) {
      out.write(new byte[bytes]);
    }
    List<String> names = new ArrayList<>();
    for (LocatedBlock block : cluster.getNameNodeRpc().getBlockLocations(path, 0, Long.MAX_VALUE)
        .getLocatedBlocks()) {
      names.add(block.getBlock().getLocalBlock().getBlockName());
    }
    return names;
  }

  private static List<String> names(List<OwedBlock> blocks) {
    List<String> names = new ArrayList<>();
    blocks.forEach(block -> names.add(block.blockId()));
    return names;
  }
}
