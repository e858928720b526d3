package org.eafr.namenode.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.net.DFSNetworkTopology;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.net.NodeBase;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.gear.GearRecord;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.eafr.placement.gear.shift.ShiftState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reader ordering (EAFR Alg. 3) on a real DFSNetworkTopology built the way the NameNode builds it, with DataNodes whose
 * heartbeat load is set by hand: A (/r1, 5 xceivers), B (/r2, 0), C (/r1, 1), S (/r1, standby, 1), D (/r3, 0).
 */
class EafrNetworkTopologyTest {
  private Configuration conf;
  private DFSNetworkTopology topology;
  private final DatanodeDescriptor a = node("10.0.0.1", "/r1", 5);
  private final DatanodeDescriptor b = node("10.0.0.2", "/r2", 0);
  private final DatanodeDescriptor c = node("10.0.0.3", "/r1", 1);
  private final DatanodeDescriptor s = node("10.0.0.4", "/r1", 1);
  private final DatanodeDescriptor d = node("10.0.0.5", "/r3", 0);

  @BeforeEach
  void buildTopology() throws Exception {
    Path tmp = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
    Path dir = Files.createTempDirectory(tmp, "topology");
    Path roles = dir.resolve("roles");
    Files.write(roles, List.of("standby 10.0.0.4"));
    conf = new Configuration(false);
    conf.set(DFSConfigKeys.DFS_NAMENODE_NAME_DIR_KEY, dir.toString());
    conf.set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, EafrNetworkTopology.class.getName());
    conf.set("eafr.roles.file", roles.toString());
    topology = DFSNetworkTopology.getInstance(conf);
    for (DatanodeDescriptor node : List.of(a, b, c, s, d)) {
      topology.add(node);
    }
  }

  @AfterEach
  void release() {
    EafrRuntime.release(conf);
  }

  private static DatanodeDescriptor node(String ip, String rack, int xceivers) {
    DatanodeDescriptor node = DFSTestUtil.getDatanodeDescriptor(ip, rack);
    node.setAlive(true);
    node.setXceiverCount(xceivers);
    return node;
  }

  private List<String> sorted(DatanodeDescriptor reader, DatanodeDescriptor... holders) {
    DatanodeDescriptor[] nodes = holders.clone();
    topology.sortByDistance(reader, nodes, nodes.length);
    return Arrays.stream(nodes).map(DatanodeDescriptor::getIpAddr).collect(Collectors.toList());
  }

  @Test
  void isTheTopologyTheNameNodeBuilds() {
    assertThat(topology).isInstanceOf(EafrNetworkTopology.class);
  }

  @Test
  void readerOnRackX_getsASameRackReplicaFirst_theLessLoadedOfTwo() {
    // Reader on /r1: C (1 xceiver) before A (5), both before B on /r2 though B is idle.
    DatanodeDescriptor readerOnR1 = node("10.0.0.9", "/r1", 0);
    assertThat(sorted(readerOnR1, a, b, c)).containsExactly("10.0.0.3", "10.0.0.1", "10.0.0.2");
  }

  @Test
  void readerOffTheReplicaRacks_getsTheShortestQueueFirst() {
    assertThat(sorted(d, a, c, b)).containsExactly("10.0.0.2", "10.0.0.3", "10.0.0.1");
  }

  @Test
  void equalQueues_hotBeforeStandby() {
    DatanodeDescriptor readerOnR1 = node("10.0.0.9", "/r1", 0);
    assertThat(sorted(readerOnR1, s, c)).containsExactly("10.0.0.3", "10.0.0.4");
  }

  @Test
  void aReloadedRolesFile_ordersTheNextReadByItsRoles() throws Exception {
    DatanodeDescriptor readerOnR1 = node("10.0.0.9", "/r1", 0);
    s.setXceiverCount(2);
    // C (1 xceiver) first; the read directed to it makes both queues 2, so next time the roles decide.
    assertThat(sorted(readerOnR1, s, c)).containsExactly("10.0.0.3", "10.0.0.4");
    Path swapped = Files.write(Path.of(conf.get("eafr.roles.file") + ".swapped"), List.of("standby 10.0.0.3"));

    EafrRuntime.of(conf).roles().reload(swapped,
        List.of(a, b, c, s, d).stream().map(ServerTranslator::nameOf).collect(Collectors.toList()));

    assertThat(sorted(readerOnR1, s, c)).containsExactly("10.0.0.4", "10.0.0.3");
  }

  @Test
  void readsDirectedToAReplica_lengthenItsQueue_soEqualReplicasTakeTurns() {
    DatanodeDescriptor readerOnR1 = node("10.0.0.9", "/r1", 0);
    c.setXceiverCount(5); // now A and C both have 5
    assertThat(sorted(readerOnR1, a, c).get(0)).isEqualTo("10.0.0.1");
    assertThat(sorted(readerOnR1, a, c).get(0)).isEqualTo("10.0.0.3");
    assertThat(sorted(readerOnR1, a, c).get(0)).isEqualTo("10.0.0.1");
  }

  /**
   * C sleeps in gear 0, then a gear-up wakes it (the record in force no longer has it asleep). A's queue is 70, above
   * one round of c = 64 slots (as the warm holders' were at the demo's peak), C's 1: by Alg. 3 C would come first.
   * While C warms (eafr.reads.warm-up.ms, 30 s by default), A is listed first every time, and B, off the reader's
   * rack, before C too; C is first for a block only it holds live.
   */
  @Test
  void aDataNodeTheGearsWoke_isListedAfterEveryWarmHolder_whileItWarms() {
    DatanodeDescriptor readerOnR1 = node("10.0.0.9", "/r1", 0);
    a.setXceiverCount(70);
    EafrRuntime runtime = EafrRuntime.of(conf);
    runtime.gears().state(new GearRecord(List.of(), new ShiftState(0, 0, ShiftPhase.STEADY,
        Set.of(ServerTranslator.idOf(c)), Set.of())));
    assertThat(sorted(readerOnR1, b)).containsExactly("10.0.0.2");
    runtime.gears().state(new GearRecord(List.of(), new ShiftState(0, 1, ShiftPhase.REFLECTING, Set.of(),
        Set.of())));

    for (int read = 0; read < 3; read++) {
      assertThat(sorted(readerOnR1, c, a)).containsExactly("10.0.0.1", "10.0.0.3");
    }
    assertThat(sorted(readerOnR1, c, b, a)).containsExactly("10.0.0.1", "10.0.0.2", "10.0.0.3");
    assertThat(sorted(readerOnR1, c)).containsExactly("10.0.0.3");
  }

  /** Without a gear-up C (queue 1) comes before A (queue 70), on the same rack: Alg. 3, nothing warms. */
  @Test
  void withoutAGearUp_theShorterQueueComesFirst() {
    a.setXceiverCount(70);
    EafrRuntime.of(conf).gears().state(new GearRecord(List.of(), new ShiftState(0, 0, ShiftPhase.STEADY,
        Set.of(ServerTranslator.idOf(d)), Set.of())));
    assertThat(sorted(node("10.0.0.9", "/r1", 0), a, c)).containsExactly("10.0.0.3", "10.0.0.1");
  }

  @Test
  void inactiveReplicas_keepTheirPlaceBehindTheActiveOnes() {
    DatanodeDescriptor[] nodes = {a, c, b};
    topology.sortByDistance(node("10.0.0.9", "/r1", 0), nodes, 2);
    assertThat(nodes).containsExactly(c, a, b);
  }

  @Test
  void clientOutsideTheCluster_getsTheShortestQueueFirst() {
    DatanodeDescriptor[] nodes = {a, c, b};
    topology.sortByDistanceUsingNetworkLocation(new NodeBase("/r9/client"), nodes, 3);
    assertThat(nodes).containsExactly(b, c, a);
  }
}
