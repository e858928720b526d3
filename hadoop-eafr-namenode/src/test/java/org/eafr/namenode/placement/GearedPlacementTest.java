package org.eafr.namenode.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.net.DFSNetworkTopology;
import org.apache.hadoop.hdfs.protocol.BlockType;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicies;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.gear.GearRecord;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.testing.InMemoryDataNodes;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.gear.shift.ShiftState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * New blocks under the equal-work layout (every DataNode on, 200 DataNodes on 8 racks, p = 20, g = 5), placed in
 * memory as the NameNode's DatanodeManager would register the DataNodes. Each block lands on exactly the holders the
 * layout names (checked against a twin layout fed the same requests), and a holder HDFS would refuse (in maintenance,
 * without the storage type the policy asks for, or without space) loses its replica to the default's own choice while
 * the block keeps its other holders, three distinct DataNodes on at least two racks.
 */
class GearedPlacementTest {
  private static final int RACKS = 8;
  private static final int PER_RACK = 25;
  private static final long TB = 1L << 40;
  private static final long BLOCK = 128L << 20;

  @TempDir
  java.nio.file.Path dir;
  private Configuration conf;
  private DatanodeDescriptor[] nodes;
  private BlockPlacementPolicy policy;
  private EqualWorkLayout twin;

  @AfterEach
  void releaseRuntime() {
    EafrRuntime.release(conf);
  }

  @Test
  void everyBlockGoesToTheLayoutsHolders() {
    start(Set.of());
    for (int i = 0; i < 400; i++) {
      DatanodeDescriptor writer = nodes[(i * 7) % nodes.length];
      Set<String> expected = twinHolders(writer);

      DatanodeStorageInfo[] targets = chooseTarget(writer);

      assertThat(idsOf(targets)).as("block %d", i).isEqualTo(expected);
      assertThat(racksOf(targets)).hasSizeGreaterThanOrEqualTo(2);
    }
  }

  @Test
  void noReplicasAsked_noTargets_asTheDefault() {
    start(Set.of());
    assertThat(policy.chooseTarget("/data/file", 0, nodes[0], new ArrayList<>(), false, null, BLOCK,
        BlockStoragePolicySuite.createDefaultSuite().getDefaultPolicy(), EnumSet.noneOf(AddBlockFlag.class)))
        .isEmpty();
  }

  @Test
  void refusedHolders_loseOnlyTheirReplica_toTheDefaultsChoice() {
    start(Set.of(1)); // chain position 1: a DataNode with ARCHIVE storage only
    ExpansionChain chain = twin.chain();
    DatanodeDescriptor archiveOnly = node(chain.id(1));
    DatanodeDescriptor inMaintenance = node(chain.id(0));
    DatanodeDescriptor full = node(chain.id(2));
    assertThat(archiveOnly.getStorageTypes()).containsExactly(StorageType.ARCHIVE);
    chooseTarget(nodes[3]); // builds the policy's view of the DataNodes on while all three are still accepted
    twinHolders(nodes[3]);
    inMaintenance.startMaintenance();
    full.setRemaining(0);
    for (DatanodeStorageInfo storage : full.getStorageInfos()) {
      storage.setUtilizationForTesting(4 * TB, 4 * TB, 0, 0);
    }
    Set<DatanodeDescriptor> refused = Set.of(archiveOnly, inMaintenance, full);

    int blocksWithARefusedHolder = 0;
    for (int i = 0; i < 200; i++) {
      DatanodeDescriptor writer = nodes[(i * 7 + 5) % nodes.length];
      Set<String> expected = twinHolders(writer);
      DatanodeStorageInfo[] targets = chooseTarget(writer);

      Set<String> kept = new HashSet<>(expected);
      for (DatanodeDescriptor node : refused) {
        kept.remove(ServerTranslator.idOf(node));
      }
      blocksWithARefusedHolder += kept.size() < expected.size() ? 1 : 0;
      assertThat(targets).as("block %d", i).hasSize(3);
      assertThat(idsOf(targets)).hasSize(3).containsAll(kept);
      assertThat(racksOf(targets)).hasSizeGreaterThanOrEqualTo(2);
      for (DatanodeStorageInfo target : targets) {
        assertThat(refused).doesNotContain(target.getDatanodeDescriptor());
        assertThat(target.getStorageType()).isEqualTo(StorageType.DISK);
      }
    }
    assertThat(blocksWithARefusedHolder).isGreaterThanOrEqualTo(20); // 3 of the 20 primaries: 30 of 200 blocks
  }

  /** The policy over 200 DataNodes at the equal-work layout's top gear; chain positions in {@code archive} ARCHIVE. */
  private void start(Set<Integer> archive) {
    conf = new HdfsConfiguration();
    conf.set(DFSConfigKeys.DFS_NAMENODE_NAME_DIR_KEY, dir.resolve("name").toString());
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_CONSIDERLOAD_KEY, false);
    conf.set(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY, EafrBlockPlacementPolicy.class.getName());
    conf.set("eafr.storage-reserve.bytes", "0");
    conf.set("eafr.layout", "equal-work");
    conf.set("eafr.gear.primaries", "20");
    conf.set("eafr.gear.group-size", "5");
    conf.set("eafr.gear.replicas", "3");
    List<Server> servers = new ArrayList<>();
    for (int i = 0; i < RACKS * PER_RACK; i++) {
      servers.add(Server.builder(ipOf(i) + ":" + DFSConfigKeys.DFS_DATANODE_DEFAULT_PORT).rack(rackOf(i)).build());
    }
    List<GearRecord.ChainEntry> chainEntries = GearRuntime.chainOf(servers);
    Set<String> archiveIds = new HashSet<>();
    for (int position : archive) {
      archiveIds.add(chainEntries.get(position).id());
    }
    DFSNetworkTopology topology = DFSNetworkTopology.getInstance(conf);
    nodes = new DatanodeDescriptor[servers.size()];
    for (int i = 0; i < nodes.length; i++) {
      boolean isArchive = archiveIds.contains(servers.get(i).id());
      nodes[i] = InMemoryDataNodes.dataNode(i, ipOf(i), rackOf(i), isArchive ? StorageType.ARCHIVE : StorageType.DISK,
          4 * TB);
      assertThat(ServerTranslator.idOf(nodes[i])).isEqualTo(servers.get(i).id());
      topology.add(nodes[i]);
    }
    policy = new BlockPlacementPolicies(conf, null, topology, null).getPolicy(BlockType.CONTIGUOUS);
    GearRuntime gears = EafrRuntime.of(conf).gears();
    gears.state(new GearRecord(chainEntries, ShiftState.steady(0)));
    EqualWorkLayout layout = (EqualWorkLayout) gears.layout().orElseThrow();
    int top = layout.maximumGear();
    gears.state(new GearRecord(chainEntries, ShiftState.steady(top)));
    layout = (EqualWorkLayout) gears.layout().orElseThrow();
    twin = new EqualWorkLayout(layout.chain(), layout.primaries(), layout.groupSize(), 3);
  }

  /** The holders the twin layout names for the next block: the policy's layout deals the same sequence. */
  private Set<String> twinHolders(DatanodeDescriptor writer) {
    BlockPlacement placement = twin.place(BlockRequest.of("/data/file", 3).withPath("/data/file")
        .withWriter(twin.chain().position(ServerTranslator.idOf(writer))), ActiveSet.all(twin.chain()));
    return new HashSet<>(placement.holderIds());
  }

  private DatanodeStorageInfo[] chooseTarget(DatanodeDescriptor writer) {
    return policy.chooseTarget("/data/file", 3, writer, new ArrayList<>(), false, null, BLOCK,
        BlockStoragePolicySuite.createDefaultSuite().getDefaultPolicy(), EnumSet.noneOf(AddBlockFlag.class));
  }

  private DatanodeDescriptor node(String id) {
    for (DatanodeDescriptor node : nodes) {
      if (ServerTranslator.idOf(node).equals(id)) {
        return node;
      }
    }
    throw new AssertionError("no DataNode " + id);
  }

  private static Set<String> idsOf(DatanodeStorageInfo[] targets) {
    Set<String> ids = new HashSet<>();
    for (DatanodeStorageInfo target : targets) {
      ids.add(ServerTranslator.idOf(target.getDatanodeDescriptor()));
    }
    return ids;
  }

  private static Set<String> racksOf(DatanodeStorageInfo[] targets) {
    Set<String> racks = new HashSet<>();
    for (DatanodeStorageInfo target : targets) {
      racks.add(target.getDatanodeDescriptor().getNetworkLocation());
    }
    return racks;
  }

  private static String ipOf(int i) {
    return "10.2." + (i / 250) + "." + (i % 250 + 1);
  }

  private static String rackOf(int i) {
    return "/rack" + (i / PER_RACK);
  }

}
