package org.eafr.placement.gear.eafr;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.ExpansionChain;
import org.junit.jupiter.api.Test;

class OwedMigrationsTest {
  private static final ExpansionChain CHAIN = chain(20);
  /** Gear 1 running: positions 0-9 (10-14 are on but leaving the gear). */
  private static final ActiveSet RUNNING = ActiveSet.firstN(CHAIN, 10);

  private static ExpansionChain chain(int servers) {
    List<Server> list = new ArrayList<>();
    for (int i = 0; i < servers; i++) {
      list.add(Server.builder("s" + i).serviceCapacity(10).storageCapacity(1L << 40).build());
    }
    return ExpansionChain.of(list);
  }

  private static BlockMove move(String block, int from, int to) {
    return new BlockMove(block, from, to, true);
  }

  @Test
  void workedExample() {
    OwedMigrations owed = new OwedMigrations();
    owed.owe(move("a", 3, 12), 10);
    owed.owe(move("b", 3, 5), 20);
    owed.owe(move("c", 4, 5), 30);
    owed.owe(move("d", 6, 7), 40);

    assertThat(owed.due(RUNNING)).containsExactly(move("b", 3, 5), move("d", 6, 7));
    assertThat(owed.due(RUNNING)).as("4 -> 5 waits while 5 receives").isEmpty();
    assertThat(owed.ended(move("b", 3, 5))).isTrue();
    assertThat(owed.due(RUNNING)).containsExactly(move("c", 4, 5));
    assertThat(owed.owedCount()).as("3 -> 12 stays owed: 12 is not in the running gear").isEqualTo(1);
    assertThat(owed.bytesByTarget(20)[12]).isEqualTo(10);
    assertThat(owed.bytesByTarget(20)[5]).as("handed out: no longer owed").isZero();
  }

  @Test
  void charged_countsTheBytesOwedToAServerAsUsedThere_andSkipsServersNotInTheView() {
    OwedMigrations owed = new OwedMigrations();
    owed.owe(move("a", 3, 12), 10);
    owed.owe(move("b", 4, 12), 20);
    owed.owe(move("c", 6, 19), 40);
    List<Server> inView = new ArrayList<>();
    for (int i = 0; i < 15; i++) {
      inView.add(Server.builder("s" + i).serviceCapacity(10).storageCapacity(1L << 40).storageUsed(100).build());
    }

    ClusterView charged = owed.charged(ClusterView.of(inView), CHAIN);

    assertThat(charged.find("s12").orElseThrow().storageUsed()).isEqualTo(130);
    assertThat(charged.find("s3").orElseThrow().storageUsed()).as("a source is not charged").isEqualTo(100);
    assertThat(charged.find("s19")).as("not in the view: left out").isEmpty();
  }

  @Test
  void aServerLeavingTheGear_isNeverGivenAMigration_evenWhenOn() {
    OwedMigrations owed = new OwedMigrations();
    for (int i = 0; i < 5; i++) {
      owed.owe(move("m" + i, 10 + i, 1 + i), 1);
    }
    assertThat(owed.due(RUNNING)).isEmpty();
    assertThat(owed.due(ActiveSet.firstN(CHAIN, 15))).hasSize(5);
  }

  @Test
  void pendingUntilLanded_andAnAbandonedCopyIsSettled() {
    OwedMigrations owed = new OwedMigrations();
    owed.owe(move("a", 1, 2), 5);
    assertThat(owed.pending("a")).isTrue();
    List<BlockMove> due = owed.due(RUNNING);
    assertThat(owed.pending("a")).as("in flight").isTrue();
    owed.settle(block -> true); // still copying
    assertThat(owed.pending("a")).isTrue();
    owed.settle(block -> false); // the copy ended without landing
    assertThat(owed.pending("a")).isFalse();
    assertThat(owed.ended(due.get(0))).as("already settled").isFalse();
    owed.owe(move("b", 1, 3), 5);
    owed.forget("b");
    assertThat(owed.pending("b")).isFalse();
    assertThat(owed.due(RUNNING)).isEmpty();
  }
}
