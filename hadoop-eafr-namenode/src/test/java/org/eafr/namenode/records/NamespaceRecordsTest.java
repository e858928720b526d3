package org.eafr.namenode.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.XAttrHelper;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.gear.GearRecord;
import org.eafr.namenode.gear.GearStore;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.eafr.placement.gear.shift.ShiftState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Records of any size in the namespace ({@link NamespaceRecords}) on a MiniDFSCluster with no DataNode and HDFS's
 * default xattr limits (16,384 bytes, 32 per inode): the gear record of 1,000 synthetic DataNodes does not fit one
 * xattr, those of 10,000 and a relayout record of 10,000 round-trip in chunks and survive a NameNode restart, an old
 * single-xattr record is read as it is, a write cut before its header changes nothing, and a missing or damaged chunk
 * throws naming the record with nothing changed.
 */
class NamespaceRecordsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String GEAR = "trusted.eafr.gear";
  private static MiniDFSCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = new HdfsConfiguration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, Files.createTempDirectory(Paths.get(System.getProperty(
        "java.io.tmpdir")), "namespace-records").resolve("dfs").toString());
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(0).build();
    cluster.waitActive();
  }

  @AfterAll
  static void stop() {
    cluster.shutdown();
  }

  /** {@code n} DataNodes in 40 racks with host names and capacities, every other one asleep (seeded). */
  static GearRecord gearRecord(int n) {
    Random random = new Random(n);
    List<GearRecord.ChainEntry> chain = new ArrayList<>();
    Set<String> sleeping = new TreeSet<>();
    for (int i = 0; i < n; i++) {
      String id = "10." + (i >> 16) + "." + ((i >> 8) & 255) + "." + (i & 255) + ":9866";
      chain.add(new GearRecord.ChainEntry(id, "/dc1/rack" + random.nextInt(40), String.format(
          "dn%05d.prod.example.com", i), 12_000_000_000_000L + random.nextInt(1000) * 1_000_000_000L));
      if (i % 2 == 1) {
        sleeping.add(id);
      }
    }
    return new GearRecord(chain, new ShiftState(1, 1, ShiftPhase.STEADY, sleeping, Set.of()));
  }

  /** A relayout record (RelayoutRecord's JSON) whose planner holds per-server arrays of {@code n} DataNodes. */
  static byte[] relayoutRecord(int n) {
    Random random = new Random(n);
    ObjectNode root = JSON.createObjectNode().put("running", true).put("finished", false)
        .put("cursor", "/data/warehouse/part-00042").put("files", 123_456).put("movedBytes", 9_876_543_210L);
    ObjectNode planner = root.putObject("planner");
    for (String field : List.of("assigned", "held", "expectedHeld", "movableHeld")) {
      ArrayNode values = planner.putArray(field);
      for (int i = 0; i < n; i++) {
        values.add(random.nextLong() & 0x3ff_ffff_ffffL); // up to 4 TB a server
      }
    }
    ArrayNode counters = planner.putArray("counters");
    for (int i = 0; i < 7; i++) {
      counters.add(random.nextInt(1 << 30));
    }
    return root.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static NameNode nameNode() {
    return cluster.getNameNode();
  }

  private static JsonNode header(String dir, String name) throws Exception {
    return JSON.readTree(new NamespaceRecords(nameNode()).read(dir, name + NamespaceRecords.HEADER_SUFFIX));
  }

  @Test
  void oneXattrRefusesTheGearRecordOf1000DataNodes() {
    byte[] value = gearRecord(1000).toBytes();
    System.out.printf("gear record as one xattr: %d bytes for 1,000 DataNodes (%.1f a DataNode)%n", value.length,
        value.length / 1000.0);
    assertThat(value.length).isGreaterThan(16_384);
    assertThatThrownBy(() -> nameNode().getRpcServer().setXAttr("/", XAttrHelper.buildXAttr(GEAR, value),
        EnumSet.of(XAttrSetFlag.CREATE, XAttrSetFlag.REPLACE)))
        .isInstanceOf(HadoopIllegalArgumentException.class).hasMessageContaining("The XAttr is too big");
  }

  @Test
  void gearRecordsOf1000And10000DataNodesRoundTripInChunks_andSurviveARestart() throws Exception {
    GearStore store = new GearStore(nameNode(), "/system/gear-big");
    GearRecord thousand = gearRecord(1000);
    store.write(thousand);
    assertThat(store.read()).contains(thousand);
    GearRecord large = gearRecord(10_000);
    store.write(large);
    store.writeHome("geared", large);
    JsonNode header = header("/system/gear-big", GEAR);
    System.out.printf("gear record of 10,000 DataNodes: %d bytes (%.1f a DataNode), stored deflated in %d bytes"
        + " (%.1f a DataNode), %d chunks%n", header.path("length").asInt(), header.path("length").asInt() / 1e4,
        header.path("stored").asInt(), header.path("stored").asInt() / 1e4, header.path("chunks").asInt());
    assertThat(header.path("generation").asLong()).isEqualTo(2);
    assertThat(header.path("length").asInt()).isEqualTo(large.toBytes().length);
    assertThat(header.path("chunks").asInt()).isEqualTo(7); // 1,152,219 bytes deflated to about 107 KB
    FileSystem fs = cluster.getFileSystem();
    assertThat(fs.listStatus(new Path("/system/gear-big/.eafr-records/" + GEAR))).extracting(s -> s.getPath()
        .getName()).containsExactly("2"); // the first generation is gone
    for (var group : fs.listStatus(new Path("/system/gear-big/.eafr-records/" + GEAR + "/2"))) {
      assertThat(fs.getXAttrs(group.getPath())).hasSizeLessThanOrEqualTo(NamespaceRecords.CHUNKS_PER_DIR);
    }
    assertThat(GearRecord.fromBytes(NamespaceRecords.read(fs, "/system/gear-big", GEAR))).isEqualTo(large);

    cluster.restartNameNode();
    cluster.waitActive();

    assertThat(new GearStore(nameNode(), "/system/gear-big").read()).contains(large);
    assertThat(GearStore.readHome(nameNode())).isPresent(); // 5,000 sleepers: chunked on the root too
  }

  @Test
  void aRelayoutRecordOf10000DataNodesRoundTrips() throws Exception {
    GearStore store = new GearStore(nameNode(), "/system/relayout-big");
    byte[] value = relayoutRecord(10_000);
    store.writeRecord("trusted.eafr.relayout", value);
    JsonNode header = header("/system/relayout-big", "trusted.eafr.relayout");
    System.out.printf("relayout record of 10,000 DataNodes: %d bytes (%.1f a DataNode), stored deflated in %d"
        + " bytes (%.1f a DataNode), %d chunks%n", value.length, value.length / 1e4, header.path("stored").asInt(),
        header.path("stored").asInt() / 1e4, header.path("chunks").asInt());
    assertThat(store.readRecord("trusted.eafr.relayout")).isEqualTo(value);
  }

  @Test
  void anOldSingleXattrRecordIsRead_replacedByChunks_andBackInlineWhenSmallAgain() throws Exception {
    String dir = "/system/gear-upgrade";
    GearRecord small = gearRecord(3);
    nameNode().getRpcServer().mkdirs(dir, new org.apache.hadoop.fs.permission.FsPermission((short) 0700), true);
    nameNode().getRpcServer().setXAttr(dir, XAttrHelper.buildXAttr(GEAR, small.toBytes()),
        EnumSet.of(XAttrSetFlag.CREATE)); // as a NameNode before chunks wrote it
    GearStore store = new GearStore(nameNode(), dir);
    assertThat(store.read()).contains(small);

    GearRecord large = gearRecord(2000);
    store.write(large);
    FileSystem fs = cluster.getFileSystem();
    assertThat(fs.getXAttrs(new Path(dir)).keySet()).containsExactly(GEAR + NamespaceRecords.HEADER_SUFFIX);
    assertThat(store.read()).contains(large);

    store.write(small);
    assertThat(fs.getXAttrs(new Path(dir)).keySet()).containsExactly(GEAR);
    assertThat(fs.getXAttrs(new Path(dir)).get(GEAR)).isEqualTo(small.toBytes());
    assertThat(fs.exists(new Path(dir + "/.eafr-records/" + GEAR))).isFalse();
    assertThat(store.read()).contains(small);
  }

  @Test
  void aWriteCutBeforeItsHeaderChangesNothing_andTheNextWriteClearsIt() throws Exception {
    String dir = "/system/gear-cut";
    GearStore store = new GearStore(nameNode(), dir);
    GearRecord first = gearRecord(1500);
    store.write(first);
    // a NameNode that died after writing generation 2's first chunks, before its header
    String cut = dir + "/.eafr-records/" + GEAR + "/2/0";
    nameNode().getRpcServer().mkdirs(cut, new org.apache.hadoop.fs.permission.FsPermission((short) 0700), true);
    nameNode().getRpcServer().setXAttr(cut, XAttrHelper.buildXAttr("trusted.eafr.chunk.0", new byte[] {1, 2, 3}),
        EnumSet.of(XAttrSetFlag.CREATE));
    assertThat(store.read()).contains(first);

    GearRecord second = gearRecord(1600);
    store.write(second);
    assertThat(store.read()).contains(second);
    assertThat(cluster.getFileSystem().listStatus(new Path(dir + "/.eafr-records/" + GEAR)))
        .extracting(s -> s.getPath().getName()).containsExactly("2");
  }

  @Test
  void aMissingOrDamagedChunkThrowsNamingTheRecord_andChangesNothing() throws Exception {
    String dir = "/system/gear-damaged";
    GearStore store = new GearStore(nameNode(), dir);
    store.write(gearRecord(3000));
    String group = dir + "/.eafr-records/" + GEAR + "/1/0";
    FileSystem fs = cluster.getFileSystem();
    byte[] chunk1 = fs.getXAttr(new Path(group), "trusted.eafr.chunk.1");

    fs.removeXAttr(new Path(group), "trusted.eafr.chunk.1");
    assertThatThrownBy(store::read).hasMessageContaining("record " + GEAR + " on " + dir + " (header")
        .hasMessageContaining("is damaged: chunk 1 of ").hasMessageContaining("(xattr trusted.eafr.chunk.1 on "
            + group + ") is missing; nothing was changed");

    byte[] flipped = chunk1.clone();
    flipped[100] ^= 0x55;
    fs.setXAttr(new Path(group), "trusted.eafr.chunk.1", flipped);
    assertThatThrownBy(store::read).hasMessageContaining("is damaged: its chunks do not inflate to "
        + gearRecord(3000).toBytes().length + " bytes of CRC-32");
    assertThat(fs.getXAttrs(new Path(dir)).keySet()).containsExactly(GEAR + NamespaceRecords.HEADER_SUFFIX);

    fs.setXAttr(new Path(group), "trusted.eafr.chunk.1", chunk1);
    assertThat(store.read()).contains(gearRecord(3000));

    fs.setXAttr(new Path(dir), GEAR + NamespaceRecords.HEADER_SUFFIX, "{gear".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(store::read).hasMessage("record " + GEAR + " on " + dir + " is damaged: its header " + GEAR
        + ".chunked is not JSON: {gear; nothing was changed (the next write of the record replaces it)");
    store.write(gearRecord(2500));
    assertThat(store.read()).contains(gearRecord(2500));
  }

  @Test
  void coldSleepersOf10000DataNodesOnTheRoot_andABigOwedRecordKeptOutOfOwed() throws Exception {
    ObjectNode cold = JSON.createObjectNode(); // ColdSleepStore's JSON
    for (int i = 0; i < 10_000; i++) {
      cold.putObject("10." + (i >> 16) + "." + ((i >> 8) & 255) + "." + (i & 255) + ":9866")
          .put("host", String.format("dn%05d.prod.example.com", i)).put("since", 1_790_000_000_000L + i * 977L);
    }
    byte[] value = cold.toString().getBytes(StandardCharsets.UTF_8);
    NamespaceRecords records = new NamespaceRecords(nameNode());
    records.write("/", "trusted.eafr.cold.asleep", value);
    JsonNode header = header("/", "trusted.eafr.cold.asleep");
    System.out.printf("cold sleepers of 10,000 DataNodes: %d bytes (%.1f a DataNode), stored deflated in %d bytes"
        + " (%.1f a DataNode), %d chunks%n", value.length, value.length / 1e4, header.path("stored").asInt(),
        header.path("stored").asInt() / 1e4, header.path("chunks").asInt());
    assertThat(records.read("/", "trusted.eafr.cold.asleep")).isEqualTo(value);
    assertThat(cluster.getFileSystem().exists(new Path("/.eafr-records/trusted.eafr.cold.asleep/1/0"))).isTrue();

    String dir = "/system/gear-owed";
    GearStore store = new GearStore(nameNode(), dir);
    cluster.getFileSystem().create(new Path("/data/owing"), (short) 1).close();
    assertThat(store.recordOwed("/data/owing")).isTrue();
    GearStore.OwedFile owed = store.owedAfter(-1, 10).get(0);
    java.util.Map<Long, List<String>> homes = new java.util.LinkedHashMap<>();
    for (long block = 0; block < 3000; block++) {
      homes.put(1_073_741_825L + block, List.of("10.0.1." + block % 250 + ":9866", "10.0.2." + block % 249 + ":9866",
          "10.0.3." + block % 248 + ":9866"));
    }
    store.writeOwed(owed.withHomes(homes));
    assertThat(store.owedCount()).isEqualTo(1); // its chunks are not under owed/
    assertThat(store.owedAfter(-1, 10).get(0).homes()).isEqualTo(homes);
    Path chunks = new Path(dir + "/.eafr-records/owed/" + owed.inodeId());
    assertThat(cluster.getFileSystem().exists(chunks)).isTrue();
    store.forgetOwed(owed.inodeId());
    assertThat(store.owedCount()).isZero();
    assertThat(cluster.getFileSystem().exists(chunks)).isFalse();
  }
}
