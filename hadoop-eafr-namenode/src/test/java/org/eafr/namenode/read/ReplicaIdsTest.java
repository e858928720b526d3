package org.eafr.namenode.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfoWithStorage;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.DatanodeInfoBuilder;
import org.eafr.namenode.cluster.RecentReads;
import org.eafr.namenode.cluster.ServerRoles;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.config.DataNodeName;
import org.eafr.namenode.config.NamenodeSettings;
import org.eafr.namenode.config.RolesFile;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.ExpansionChain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplicaIdsTest {
  private final RecentReads recentReads = new RecentReads(10_000, () -> 0L);
  private final ReplicaIds ids = new ReplicaIds(recentReads);

  private static DatanodeID dataNode(String ip) {
    return new DatanodeID(ip, "dn1.eafr.local", "uuid-1", 9866, 9864, 0, 9867);
  }

  @Test
  void copiesOfOneDataNodeGetTheSameEntry() {
    DatanodeID registered = dataNode("10.0.0.1");
    ReplicaId first = ids.of(new DatanodeID(registered));
    // The premise: HDFS's copy builds a new transfer-address String each time.
    assertThat(new DatanodeID(registered).getXferAddr()).isNotSameAs(new DatanodeID(registered).getXferAddr());
    assertThat(ids.of(new DatanodeID(registered))).isSameAs(first);
    assertThat(first.id).isEqualTo("10.0.0.1:9866");
  }

  @Test
  void aDataNodeAtANewAddressGetsTheNewId() {
    ids.of(new DatanodeID(dataNode("10.0.0.1")));
    ReplicaId moved = ids.of(new DatanodeID(dataNode("10.0.0.2")));
    assertThat(moved.id).isEqualTo("10.0.0.2:9866");
    assertThat(ids.of(new DatanodeID(dataNode("10.0.0.2")))).isSameAs(moved);
  }

  @Test
  void anEqualIpInAnotherString_isTheSameAddress() {
    ReplicaId first = ids.of(dataNode("10.0.0.1"));
    assertThat(ids.of(dataNode(new String("10.0.0.1")))).isSameAs(first);
  }

  @Test
  void aDataNodeAtANewTransferPortGetsTheNewId() {
    ids.of(dataNode("10.0.0.1"));
    ReplicaId moved = ids.of(new DatanodeID("10.0.0.1", "dn1.eafr.local", "uuid-1", 9900, 9864, 0, 9867));
    assertThat(moved.id).isEqualTo("10.0.0.1:9900");
  }

  @Test
  void aReplicaWithoutUuidKeepsItsOwnAddress() {
    DatanodeID noUuid = new DatanodeID("10.0.0.3", "dn3", "", 9866, 9864, 0, 9867);
    assertThat(ids.of(noUuid).id).isEqualTo("10.0.0.3:9866");
  }

  @Test
  void theEntryCountsTheDataNodesRecentReads() {
    ReplicaId replica = ids.of(dataNode("10.0.0.1"));
    replica.directedReads.add(0);
    assertThat(recentReads.count("10.0.0.1:9866")).isEqualTo(1.0);
    recentReads.directed("10.0.0.1:9866");
    assertThat(replica.directedReads.value(0)).isEqualTo(2.0);
  }

  @Test
  void thePositionFollowsTheChainAsked() {
    ExpansionChain chain = ExpansionChain.of(List.of(Server.builder("10.0.0.9:9866").rack("/r1").build(),
        Server.builder("10.0.0.1:9866").rack("/r2").build()));
    ExpansionChain other = ExpansionChain.of(List.of(Server.builder("10.0.0.1:9866").rack("/r2").build()));
    ReplicaId replica = ids.of(dataNode("10.0.0.1"));
    assertThat(replica.position(chain)).isEqualTo(1);
    assertThat(replica.position(other)).isEqualTo(0);
    assertThat(replica.position(chain)).isEqualTo(1);
    assertThat(ids.of(dataNode("10.0.0.7")).position(chain)).isEqualTo(-1);
  }

  @Test
  void theRoleKept_followsTheRolesFileInForce_theHostName_andHdfsAdminState(@TempDir Path dir) throws Exception {
    ServerRoles roles = new ServerRoles(RolesFile.parse("roles", List.of("standby dn1.eafr.local")), 1);
    ServerTranslator translator = new ServerTranslator(roles, recentReads, NamenodeSettings.defaults());
    DatanodeInfo registered = info("dn1.eafr.local");
    ReplicaId replica = ids.of(registered);
    assertThat(replica.role(copy(registered), roles, translator)).isEqualTo(ServerRole.STANDBY);

    DatanodeInfo renamed = info("dn9.eafr.local");
    assertThat(ids.of(renamed)).isSameAs(replica);
    assertThat(replica.role(renamed, roles, translator)).isEqualTo(ServerRole.HOT);
    assertThat(replica.role(registered, roles, translator)).isEqualTo(ServerRole.STANDBY);

    Path file = Files.write(dir.resolve("roles"), List.of("hot dn1.eafr.local", "standby dn2.eafr.local"));
    roles.reload(file, List.of(new DataNodeName("10.0.0.1", "dn1.eafr.local", 9866),
        new DataNodeName("10.0.0.2", "dn2.eafr.local", 9866)));
    assertThat(replica.role(registered, roles, translator)).isEqualTo(ServerRole.HOT);

    DatanodeInfo decommissioning = copy(registered);
    decommissioning.startDecommission();
    assertThat(replica.role(decommissioning, roles, translator)).isEqualTo(ServerRole.COLD);
    assertThat(replica.role(registered, roles, translator)).isEqualTo(ServerRole.HOT);
  }

  @Test
  void dataNodesOnEqualRackNames_getOneRackNumber_andAMovedDataNodeItsNewRacks() {
    RackIds racks = new RackIds();
    DatanodeInfo first = info("dn1.eafr.local");
    first.setNetworkLocation(new String("/r1"));
    DatanodeInfo second = new DatanodeInfoBuilder().setNodeID(new DatanodeID("10.0.0.2", "dn2.eafr.local", "uuid-2",
        9866, 9864, 0, 9867)).build();
    second.setNetworkLocation(new String("/r1"));
    int r1 = ids.of(first).rackId(copy(first), racks);
    assertThat(ids.of(second).rackId(copy(second), racks)).isEqualTo(r1);
    assertThat(racks.idOf("/r1")).isEqualTo(r1);

    first.setNetworkLocation("/r2");
    assertThat(ids.of(first).rackId(copy(first), racks)).isNotEqualTo(r1).isEqualTo(racks.idOf("/r2"));
  }

  /** The copy getBlockLocations hands the ordering. */
  private static DatanodeInfo copy(DatanodeInfo registered) {
    return new DatanodeInfoWithStorage(registered, "s1", StorageType.DISK);
  }

  private static DatanodeInfo info(String hostName) {
    return new DatanodeInfoBuilder().setNodeID(new DatanodeID("10.0.0.1", hostName, "uuid-1", 9866, 9864, 0, 9867))
        .build();
  }
}
