package org.eafr.sim.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.shift.AdminState;
import org.eafr.placement.gear.shift.DataNodeView;
import org.eafr.placement.gear.shift.OwedBlock;
import org.eafr.placement.gear.shift.Power;
import org.eafr.placement.gear.shift.Reply;
import org.eafr.placement.gear.shift.ShiftCluster;
import org.eafr.sim.engine.UnsharedRandom;
import org.eafr.sim.model.Cluster;
import org.eafr.sim.model.ReplicaCounts;
import org.eafr.sim.model.SimFile;
import org.eafr.sim.model.SimServer;
import org.junit.jupiter.api.Test;

/** The gear shift's ports over the simulated cluster: what HDFS would show, and the power and move replies. */
class SimShiftPortsTest {
  private final Cluster cluster = Cluster.build(4, 2, 1.0, false, new UnsharedRandom(1));
  private final List<SimFile> files = new ArrayList<>();
  private final BitSet busy = new BitSet();
  private int changes;
  private final SimMaintenance maintenance = new SimMaintenance(cluster, () -> changes++);
  private final ReplicaCounts replicas = new ReplicaCounts(cluster.size());
  private final SimShiftCluster view = new SimShiftCluster(cluster, files, maintenance, i -> !busy.get(i), replicas);

  @Test
  void aServerInMaintenanceIsEnteringWhileBusy_inMaintenanceOnceIdle_andStaysTrustedWhenPoweredOff() {
    busy.set(1);
    assertThat(view.dataNode("s1").liveInService()).isTrue();

    maintenance.enter(Set.of("s1"));
    maintenance.enter(Set.of("s1")); // already in: nothing changes
    assertThat(changes).isEqualTo(1);
    assertThat(view.dataNode("s1").admin()).isEqualTo(AdminState.ENTERING_MAINTENANCE);

    busy.clear(1);
    assertThat(view.dataNode("s1").admin()).isEqualTo(AdminState.IN_MAINTENANCE);
    SimPower power = new SimPower(cluster, server -> { }, server -> server.setRole(ServerRole.COLD, 0));
    long off = power.send("s1", Power.OFF);
    assertThat(power.poll(off)).isEqualTo(Reply.DONE);
    assertThat(power.read("s1")).contains(Power.OFF);
    DataNodeView asleep = view.dataNode("s1");
    assertThat(asleep.alive()).isFalse();
    assertThat(asleep.admin()).isEqualTo(AdminState.IN_MAINTENANCE);
    assertThat(asleep.toString()).isEqualTo("dead IN_MAINTENANCE");

    maintenance.leave(Set.of("s1"));
    assertThat(changes).isEqualTo(2);
    assertThat(view.dataNode("s1").admin()).isEqualTo(AdminState.NORMAL);
  }

  /**
   * The servers not alive come from the cluster's index as roles change, by chain position, and match the answer of
   * asking every DataNode (the interface's default), including which servers in maintenance are seen alive and idle.
   */
  @Test
  void notAliveComesFromTheIndexByChainPosition_asAskingEveryDataNodeWould() {
    Cluster six = Cluster.build(6, 2, 1.0, false, new UnsharedRandom(1));
    List<Server> reversed = new ArrayList<>(six.view().servers());
    Collections.reverse(reversed);
    ExpansionChain chain = ExpansionChain.of(reversed); // s5 at position 0 .. s0 at 5
    SimMaintenance sixMaintenance = new SimMaintenance(six, () -> { });
    SimShiftCluster indexed = new SimShiftCluster(six, files, sixMaintenance, i -> !busy.get(i),
        new ReplicaCounts(six.size()));
    ShiftCluster askingEach = new ShiftCluster() {
      @Override
      public DataNodeView dataNode(String id) {
        return indexed.dataNode(id);
      }

      @Override
      public Iterable<ReplicatedFile> blocksOn(String id) {
        return List.of();
      }

      @Override
      public Iterable<ReplicatedFile> pipelines() {
        return List.of();
      }

      @Override
      public Optional<ReplicatedFile> block(String blockId) {
        return Optional.empty();
      }
    };
    six.server(1).setRole(ServerRole.COLD, 0);
    six.server(4).setRole(ServerRole.FAILED, 0);
    six.server(5).setRole(ServerRole.COLD, 0);
    sixMaintenance.enter(Set.of("s2", "s3", "s5"));
    busy.set(3);

    assertThat(indexed.notAlive(chain).ids()).containsExactly("s5", "s4", "s1");
    assertThat(indexed.notAlive(chain).positions()).containsExactly(0, 1, 4);
    assertThat(sixMaintenance.seenAlive(2)).isTrue(); // alive, idle, in maintenance: shows IN_MAINTENANCE
    assertThat(sixMaintenance.seenAlive(3)).isFalse(); // still busy: ENTERING_MAINTENANCE
    assertThat(sixMaintenance.seenAlive(5)).isFalse(); // asleep
    assertThat(askingEach.notAlive(chain)).isEqualTo(indexed.notAlive(chain));

    six.server(1).setRole(ServerRole.HOT, 1);
    six.server(4).setRole(ServerRole.STANDBY, 1);
    assertThat(indexed.notAlive(chain).ids()).containsExactly("s5");
    assertThat(askingEach.notAlive(chain)).isEqualTo(indexed.notAlive(chain));
  }

  @Test
  void powerOnIsPendingUntilTheServerIsUp_andFailsForAFailedServer() {
    List<SimServer> woken = new ArrayList<>();
    SimServer s2 = cluster.server("s2");
    s2.setRole(ServerRole.COLD, 0);
    SimPower power = new SimPower(cluster, woken::add, server -> { });

    long on = power.send("s2", Power.ON);
    assertThat(woken).containsExactly(s2);
    assertThat(power.poll(on)).isEqualTo(Reply.PENDING);
    s2.setRole(ServerRole.HOT, 10_000_000);
    assertThat(power.poll(on)).isEqualTo(Reply.DONE);

    cluster.server("s3").setRole(ServerRole.FAILED, 0);
    assertThat(power.poll(power.send("s3", Power.ON)).kind()).isEqualTo(Reply.Kind.FAILED);
  }

  @Test
  void blocksAreTheFilesWithReplicas_listedByServer_asReplicasComeAndGo() {
    SimFile a = new SimFile(0, 100);
    SimFile b = new SimFile(1, 100);
    files.add(a);
    files.add(b);
    replicas.add(a, 0);
    replicas.add(a, 2);
    replicas.add(b, 2);

    List<ReplicatedFile> onS2 = new ArrayList<>();
    view.blocksOn("s2").forEach(onS2::add);
    assertThat(onS2).extracting(ReplicatedFile::replicaServers).containsExactly(List.of("s0", "s2"), List.of("s2"));
    assertThat(view.blocksOn("s1")).isEmpty();
    replicas.remove(a, 2);
    replicas.remove(b, 2);
    assertThat(view.blocksOn("s2")).isEmpty();
    assertThat(view.blocksOn("s0")).extracting(ReplicatedFile::id).containsExactly("f0");
    assertThat(view.block("f1")).isEmpty();
    assertThat(view.pipelines()).isEmpty();
  }

  @Test
  void aMoveIsDoneWhenItsCopyLands_failedWhenAbandonedOrRefused_andAPolicyMoveIsQueuedTheSameWay() {
    List<BlockMove> queued = new ArrayList<>();
    SimMoves moves = new SimMoves((move, cleanup) -> !move.blockId().equals("f9") && queued.add(move));
    BlockMove landing = new BlockMove("f0", 0, 1, true);
    BlockMove lost = new BlockMove("f1", 0, 2, true);

    long first = moves.start(landing);
    long second = moves.start(lost);
    moves.startForPolicy(new BlockMove("f2", 0, 3, false), true);
    assertThat(moves.poll(first)).isEqualTo(Reply.PENDING);
    moves.ended(landing, true);
    moves.ended(lost, false);
    assertThat(moves.poll(first)).isEqualTo(Reply.DONE);
    assertThat(moves.poll(second).reason()).isEqualTo("the copy of block f1 was abandoned");
    assertThat(moves.poll(moves.start(new BlockMove("f9", 0, 1, true))).kind()).isEqualTo(Reply.Kind.FAILED);
    assertThat(queued).extracting(BlockMove::blockId).containsExactly("f0", "f1", "f2");
  }

  @Test
  void theStoreListsOwedBlocksInIdOrderAfterACursor() {
    MemoryShiftStore store = new MemoryShiftStore();
    assertThat(store.load()).isEmpty();
    for (String id : List.of("f3", "f1", "f2")) {
      store.owe(new OwedBlock(id, 1, List.of("s0")));
    }
    store.forget("f2");
    assertThat(store.owedAfter("", 10)).extracting(OwedBlock::blockId).containsExactly("f1", "f3");
    assertThat(store.owedAfter("f1", 1)).extracting(OwedBlock::blockId).containsExactly("f3");
    assertThat(store.owedCount()).isEqualTo(2);
  }
}
