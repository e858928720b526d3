package org.eafr.namenode.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.net.DFSNetworkTopology;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfoWithStorage;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.NodeBase;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.gear.GearRecord;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.StoredBlocks;
import org.eafr.placement.gear.policy.GearedPolicies;
import org.eafr.placement.gear.policy.LayoutContext;
import org.eafr.placement.gear.policy.ReadCandidates;
import org.eafr.placement.gear.policy.ReadOrdering;
import org.eafr.placement.gear.shift.ShiftState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link EafrNetworkTopology} lists every block's replicas exactly as a plain transcription of the ordering does
 * (EAFR Alg. 3 by the core's {@code orderIndices} over each replica's id, rack, role and queue looked up by id, then,
 * under a geared policy, the policy's read ordering on candidates copied into Alg. 3's order), block after block:
 * 2,000 seeded blocks of 1-4 replicas on 26 DataNodes (3 racks, a standby in the roles file, two DataNodes outside
 * the chain, DataNodes entering and leaving decommissioning, heartbeat loads changing), inactive replicas at the end,
 * readers on a DataNode, off the cluster on a known rack, and unknown. The transcription asks a twin of the policy's
 * read ordering, so both balancers count the same choices; the half-life of recently directed reads is set so long
 * that the moment each side reads the clock cannot round a queue differently.
 */
class ReadOrderingEquivalenceTest {
  private static final Clock FIXED = Clock.fixed(Instant.EPOCH, ZoneOffset.UTC);
  private static final int CHAINED = 24;
  private final List<Configuration> confs = new ArrayList<>();

  @AfterEach
  void release() {
    confs.forEach(EafrRuntime::release);
  }

  @ParameterizedTest
  @ValueSource(strings = {"random", "rabbit", "accordion", "eafr-geared"})
  void everyBlock_isListedAsTheTranscriptionLists_it(String layout) throws Exception {
    Path dir = Files.createTempDirectory("ordering-equivalence");
    Configuration conf = new Configuration(false);
    confs.add(conf);
    conf.set(DFSConfigKeys.DFS_NAMENODE_NAME_DIR_KEY, dir.toString());
    conf.set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, EafrNetworkTopology.class.getName());
    conf.set("eafr.roles.file", Files.write(dir.resolve("roles"), List.of("standby 10.0.0.4 10.0.0.9")).toString());
    conf.set("eafr.reads.recent.half-life.ms", Long.toString(1L << 50));
    conf.set("eafr.layout", layout);
    DFSNetworkTopology topology = DFSNetworkTopology.getInstance(conf);
    DatanodeDescriptor[] nodes = new DatanodeDescriptor[CHAINED + 2];
    for (int i = 0; i < nodes.length; i++) {
      nodes[i] = DFSTestUtil.getDatanodeDescriptor("10.0.0." + (i + 1), "/r" + (i % 3));
      nodes[i].setAlive(true);
      topology.add(nodes[i]);
    }
    EafrRuntime runtime = EafrRuntime.of(conf);
    ReadOrdering twin = layout.equals("random") ? null : topGearAndTwin(runtime, nodes);
    Random random = new Random(20261127);
    int reordered = 0;
    for (int block = 0; block < 2_000; block++) {
      changeTheCluster(nodes, random);
      DatanodeDescriptor[] holders = distinct(nodes, 1 + random.nextInt(4), random);
      int activeLen = 1 + random.nextInt(holders.length);
      Node reader = reader(nodes, random);

      List<String> expected = transcribed(runtime, twin, reader, holders, activeLen);
      DatanodeInfo[] copies = new DatanodeInfo[holders.length];
      for (int i = 0; i < holders.length; i++) {
        copies[i] = new DatanodeInfoWithStorage(holders[i], "s" + i, StorageType.DISK);
      }
      topology.sortByDistance(reader, copies, activeLen);

      assertThat(ids(copies)).as("block %d", block).isEqualTo(expected);
      reordered += expected.get(0).equals(ServerTranslator.idOf(holders[0])) ? 0 : 1;
    }
    assertThat(reordered).as("blocks whose first replica changed place").isGreaterThan(500);
  }

  /** The chain fixed from the first 24 DataNodes at the layout's top gear; a twin of its read ordering. */
  private static ReadOrdering topGearAndTwin(EafrRuntime runtime, DatanodeDescriptor[] nodes) {
    List<Server> servers = new ArrayList<>();
    for (int i = 0; i < CHAINED; i++) {
      servers.add(Server.builder(ServerTranslator.idOf(nodes[i])).rack(nodes[i].getNetworkLocation()).build());
    }
    GearRuntime gears = runtime.gears();
    List<GearRecord.ChainEntry> chain = GearRuntime.chainOf(servers);
    gears.state(new GearRecord(chain, ShiftState.steady(0)));
    gears.state(new GearRecord(chain, ShiftState.steady(gears.layout().orElseThrow().maximumGear())));
    ExpansionChain fixed = gears.layout().orElseThrow().chain();
    return GearedPolicies.find(runtime.gears().settings().layout()).orElseThrow().build(new LayoutContext(
        runtime.settings().core(), fixed, fixed.size(), FIXED, () -> new Random(fixed.toString().hashCode())),
        StoredBlocks.NONE).reads();
  }

  private static void changeTheCluster(DatanodeDescriptor[] nodes, Random random) {
    nodes[random.nextInt(nodes.length)].setXceiverCount(random.nextInt(12));
    if (random.nextInt(40) == 0) {
      DatanodeDescriptor node = nodes[random.nextInt(nodes.length)];
      if (node.isDecommissionInProgress()) {
        node.stopDecommission();
      } else {
        node.startDecommission();
      }
    }
  }

  private static DatanodeDescriptor[] distinct(DatanodeDescriptor[] nodes, int count, Random random) {
    List<DatanodeDescriptor> pool = new ArrayList<>(List.of(nodes));
    DatanodeDescriptor[] chosen = new DatanodeDescriptor[count];
    for (int i = 0; i < count; i++) {
      chosen[i] = pool.remove(random.nextInt(pool.size()));
    }
    return chosen;
  }

  private static Node reader(DatanodeDescriptor[] nodes, Random random) {
    switch (random.nextInt(4)) {
      case 0:
        return null;
      case 1:
        return new NodeBase("client.example", "/r" + random.nextInt(4));
      default:
        return nodes[random.nextInt(nodes.length)];
    }
  }

  /** The ordering written out with a lookup by id for everything, as the NameNode ordered before it cached them. */
  private static List<String> transcribed(EafrRuntime runtime, ReadOrdering twin, Node reader,
      DatanodeDescriptor[] holders, int activeLen) {
    ServerTranslator translator = runtime.translator();
    String[] ids = new String[activeLen];
    String[] racks = new String[activeLen];
    ServerRole[] roles = new ServerRole[activeLen];
    int[] queues = new int[activeLen];
    for (int i = 0; i < activeLen; i++) {
      ids[i] = ServerTranslator.idOf(holders[i]);
      racks[i] = holders[i].getNetworkLocation();
      roles[i] = translator.roleOf(holders[i], ids[i]);
      queues[i] = translator.readQueue(holders[i], ids[i]);
    }
    String readerRack = reader == null ? null : reader.getNetworkLocation();
    int[] order = new int[activeLen];
    int serving = runtime.readers().orderIndices(readerRack, racks, roles, queues, activeLen, order);
    if (twin != null && serving >= 2) {
      policyFirst(runtime, twin, readerRack, ids, racks, queues, order, serving);
    }
    List<String> listed = new ArrayList<>();
    boolean[] placed = new boolean[holders.length];
    for (int i = 0; i < serving; i++) {
      listed.add(ids[order[i]]);
      placed[order[i]] = true;
    }
    for (int i = 0; i < holders.length; i++) {
      if (!placed[i]) {
        listed.add(ServerTranslator.idOf(holders[i]));
      }
    }
    return listed;
  }

  private static void policyFirst(EafrRuntime runtime, ReadOrdering twin, String readerRack, String[] ids,
      String[] racks, int[] queues, int[] order, int serving) {
    ExpansionChain chain = runtime.gears().layout().orElseThrow().chain();
    ActiveSet awake = runtime.gears().awake().orElseThrow();
    int[] positions = new int[serving];
    String[] orderedRacks = new String[serving];
    int[] orderedQueues = new int[serving];
    int[] slots = new int[serving];
    for (int i = 0; i < serving; i++) {
      positions[i] = chain.position(ids[order[i]]);
      orderedRacks[i] = racks[order[i]];
      orderedQueues[i] = queues[order[i]];
      slots[i] = runtime.settings().serviceCapacity();
    }
    int first = twin.first(new ReadCandidates(readerRack, positions, orderedRacks, orderedQueues, slots, serving,
        awake));
    if (first > 0) {
      int chosen = order[first];
      System.arraycopy(order, 0, order, 1, first);
      order[0] = chosen;
    }
  }

  private static List<String> ids(DatanodeInfo[] listed) {
    List<String> ids = new ArrayList<>();
    for (DatanodeInfo node : listed) {
      ids.add(ServerTranslator.idOf(node));
    }
    return ids;
  }
}
