package org.eafr.placement.gear.relayout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearServers;
import org.eafr.placement.gear.LayoutMoves;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.junit.jupiter.api.Test;

class RelayoutPlannerTest {
  @Test
  void workedExample_keepsHoldersThatFitAndMovesTheRest() {
    EqualWorkLayout layout = new EqualWorkLayout(GearServers.chain(6, 1), 2, 1, 2);
    RelayoutPlanner planner = new RelayoutPlanner(layout, 0.1);

    assertThat(planner.plan(new RelayoutBlock("a", 100, 0, 1))).containsExactly(new BlockMove("a", 1, 2, true));
    assertThat(planner.plan(new RelayoutBlock("b", 100, 2, 3))).containsExactly(new BlockMove("b", 2, 1, true));
    assertThat(planner.plan(new RelayoutBlock("c", 100, 0, 4))).isEmpty();
    assertThat(planner.plan(new RelayoutBlock("d", 100, 1, 2))).isEmpty();

    RelayoutReport report = planner.report();
    assertThat(report.movedReplicas()).isEqualTo(2);
    assertThat(report.plannedBytes()).isEqualTo(200);
    assertThat(report.blockBoundBytes()).isEqualTo(200);
    assertThat(report.shareBoundBytes()).isZero();
    assertThat(report.lowerBoundBytes()).isEqualTo(200);
    assertThat(report.ratio()).isEqualTo(1.0);
  }

  @Test
  void excessCopy_isTheHolderWhoseLossLeavesTheBlockOnItsHomes() {
    EqualWorkLayout layout = new EqualWorkLayout(GearServers.chain(6, 1), 2, 1, 2);
    HomeChoices choices = HomeChoices.of(layout);
    int[] held = {2, 3, 0};

    assertThat(RelayoutPlanner.excessCopy(choices, "a", held, new boolean[] {true, true, true})).isEqualTo(0);
    assertThat(RelayoutPlanner.excessCopy(choices, "a", held, new boolean[] {false, true, true})).isEqualTo(1);
    assertThat(RelayoutPlanner.excessCopy(choices, "a", held, new boolean[] {false, false, true})).isEqualTo(-1);
    assertThat(RelayoutPlanner.excessCopy(choices, "a", new int[] {2, 3, 4}, new boolean[] {true, true, true}))
        .isEqualTo(-1);
  }

  @Test
  void withTheBytesExpectedInAll_aFirstBlockKeepsAHolderThatHasRoomInTheEnd() {
    EqualWorkLayout layout = new EqualWorkLayout(GearServers.chain(6, 1), 2, 1, 2);
    RelayoutPlanner planner = new RelayoutPlanner(layout, HomeChoices.of(layout), 0.1, 400);

    assertThat(planner.plan(new RelayoutBlock("a", 100, 0, 1))).containsExactly(new BlockMove("a", 1, 2, true));
    // s2's cap is now 20/57 x 1.1 x 400 + 100 = 254.4 bytes from the start: it keeps b, and s3 moves to s1.
    assertThat(planner.plan(new RelayoutBlock("b", 100, 2, 3))).containsExactly(new BlockMove("b", 3, 1, true));
    assertThat(planner.report().plannedBytes()).isEqualTo(200);
  }

  /**
   * A NameNode run of RelayoutClusterTest (12 DataNodes on 3 racks, p = 4, g = 2, slack 0.5, 11,194,486 bytes
   * expected, nine 0.5 MB blocks and six 1 MB ones, batches of 5, 6 and 4 blocks): planned block by block, c's
   * primary replica moves from s0 to s3 (s0's rack, so HDFS drops s0), and then d, whose s3 and s9 fit group 1's
   * slots, finds s3 at its cap (5,246,508 bytes: 0.25 x 1.5 x 11,194,486 + 1 MB) and moves two replicas where the
   * bound counts one: 1.133x. Planned a batch at a time, s3's room counts d's megabyte, so c's replica goes to s1
   * (HDFS drops the relayout's source there too) and d keeps s3: the bound exactly.
   */
  @Test
  void aTargetKeepsRoomForItsOwnReplicasLaterInTheBatch_soTheClusterRunMeetsTheBound() {
    EqualWorkLayout layout = new EqualWorkLayout(GearServers.chain(12, 3), 4, 2, 3);
    List<List<RelayoutBlock>> batches = clusterRunBlocks();

    RelayoutPlanner oneByOne = new RelayoutPlanner(layout, HomeChoices.of(layout), 0.5, 11_194_486);
    List<BlockMove> c = List.of();
    List<BlockMove> d = List.of();
    for (List<RelayoutBlock> batch : batches) {
      for (RelayoutBlock block : batch) {
        List<BlockMove> moves = oneByOne.plan(block);
        c = block.id().equals("c") ? moves : c;
        d = block.id().equals("d") ? moves : d;
      }
    }
    assertThat(c).containsExactly(new BlockMove("c", 0, 3, true));
    assertThat(d).containsExactly(new BlockMove("d", 3, 6, true), new BlockMove("d", 9, 4, true));
    assertThat(oneByOne.report().plannedBytes()).isEqualTo(8_912_896);
    assertThat(oneByOne.report().lowerBoundBytes()).isEqualTo(7_864_320);

    RelayoutPlanner byBatch = new RelayoutPlanner(layout, HomeChoices.of(layout), 0.5, 11_194_486);
    List<List<BlockMove>> last = List.of();
    for (List<RelayoutBlock> batch : batches) {
      last = byBatch.plan(batch);
    }
    assertThat(last.get(2)).containsExactly(new BlockMove("c", 0, 1, true));
    assertThat(last.get(3)).containsExactly(new BlockMove("d", 2, 5, true));
    assertThat(byBatch.report().plannedBytes()).isEqualTo(7_864_320);
    assertThat(byBatch.report().lowerBoundBytes()).isEqualTo(7_864_320);
    assertThat(byBatch.report().ratio()).isEqualTo(1.0);
  }

  /**
   * The same blocks with d in a batch of its own: the batch no longer shows c's target choice that s3 holds d, but
   * each server's bytes held, known from the start (a NameNode reads them from the DataNodes' use), do.
   */
  @Test
  void aTargetKeepsRoomForItsReplicasInLaterBatches_whenItsBytesHeldAreKnown() {
    EqualWorkLayout layout = new EqualWorkLayout(GearServers.chain(12, 3), 4, 2, 3);
    List<List<RelayoutBlock>> batches = clusterRunBlocks();
    List<RelayoutBlock> all = new ArrayList<>();
    batches.forEach(all::addAll);
    List<List<RelayoutBlock>> split = List.of(all.subList(0, 14), all.subList(14, 15));
    long[] held = heldBytes(12, all);

    RelayoutPlanner unknown = new RelayoutPlanner(layout, HomeChoices.of(layout), 0.5, 11_194_486);
    split.forEach(unknown::plan);
    assertThat(unknown.report().plannedBytes()).isEqualTo(8_912_896);

    RelayoutPlanner known = new RelayoutPlanner(layout, HomeChoices.of(layout), 0.5, 11_194_486, held);
    known.plan(split.get(0));
    known = RelayoutPlanner.resume(layout, 0.5, known.state()); // as a NameNode restarted between the batches
    assertThat(known.plan(split.get(1)).get(0)).containsExactly(new BlockMove("d", 2, 5, true));
    assertThat(known.report().plannedBytes()).isEqualTo(7_864_320);
    assertThat(known.report().lowerBoundBytes()).isEqualTo(7_864_320);
  }

  /**
   * Another NameNode run of RelayoutClusterTest (batches of 6 and 9 blocks), where s0 holds 11 of the 15 blocks
   * (7,864,320 bytes against its cap of 5,246,508): it must send 2,617,812 bytes away, and the blocks it holds whose
   * fewest moves may take its replica (b, c and l) hold only 2,097,152, so the plan needs at least one move more than
   * the block bound's 4,194,304 bytes: the combined bound is 4,714,963 bytes. With each server's bytes held known, c
   * moves s0's replica as one of the two it must move, o moves it besides, and the plan moves 5,242,880 bytes: 1.112x
   * the combined bound (1.500x the block bound, without them).
   */
  @Test
  void aServerAboveItsShare_sendsAwayWhatTheBlocksMustMoveAnyway_andTheCombinedBoundCountsTheRest() {
    EqualWorkLayout layout = new EqualWorkLayout(GearServers.chain(12, 3), 4, 2, 3);
    long half = 512 * 1024;
    long mb = 1024 * 1024;
    List<RelayoutBlock> first = List.of(block("a", half, 0, 8, 6), block("b", half, 0, 5, 1),
        block("c", half, 0, 2, 1), block("d", half, 0, 6, 4), block("e", half, 8, 10, 0), block("f", half, 0, 8, 7));
    List<RelayoutBlock> second = List.of(block("g", half, 3, 5, 7), block("h", half, 0, 8, 4),
        block("i", half, 3, 5, 7), block("j", mb, 7, 1, 11), block("k", mb, 3, 5, 1), block("l", mb, 5, 0, 7),
        block("m", mb, 0, 6, 4), block("n", mb, 6, 0, 8), block("o", mb, 10, 0, 8));
    List<RelayoutBlock> all = new ArrayList<>(first);
    all.addAll(second);
    long[] held = heldBytes(12, all);
    RelayoutPlanner planner = new RelayoutPlanner(layout, HomeChoices.of(layout), 0.5, 11_194_486, held);
    planner.plan(first);
    planner = RelayoutPlanner.resume(layout, 0.5, planner.state());
    planner.plan(second);

    RelayoutReport report = planner.report();
    assertThat(report.blockBoundBytes()).isEqualTo(4_194_304);
    assertThat(report.shareBoundBytes()).isEqualTo(2_617_811);
    assertThat(report.combinedBoundBytes()).isEqualTo(4_714_963);
    assertThat(report.lowerBoundBytes()).isEqualTo(4_714_963);
    assertThat(report.plannedBytes()).isEqualTo(5_242_880);
    assertThat(report.ratio()).isLessThanOrEqualTo(1.2);
  }

  @Test
  void randomLayoutToEqualWork_everyBlockReachesGearZeroAndItsGroup_withinTheGoalOfTheBound() {
    ExpansionChain chain = GearServers.chain(12, 3);
    EqualWorkLayout layout = new EqualWorkLayout(chain, 4, 2, 3);
    RelayoutPlanner planner = new RelayoutPlanner(layout, 0.1);
    EqualWorkLayout baseline = new EqualWorkLayout(chain, 4, 2, 3);
    long placedAnew = 0;
    Random random = new Random(7);
    for (int b = 0; b < 2_000; b++) {
      int[] holders = randomHolders(random, 12, 3);
      long bytes = 1 + random.nextInt(1000);
      List<BlockMove> moves = planner.plan(new RelayoutBlock("blk_" + b, bytes, holders));
      BlockPlacement anew = baseline.place(BlockRequest.of("blk_" + b, 3), ActiveSet.all(chain));
      for (int holder : holders) {
        placedAnew += anew.holds(holder) ? 0 : bytes;
      }
      int[] placed = apply(holders, moves);
      assertThat(java.util.Arrays.stream(placed).anyMatch(p -> p < 4)).as("block %d in gear 0", b).isTrue();
      for (int p : placed) {
        assertThat(layout.homeMates(placed[0] == p ? placed[1] : placed[0]).contains(p)).isTrue();
      }
      for (BlockMove move : moves) {
        assertThat(move.dropSource()).isTrue();
      }
    }
    RelayoutReport report = planner.report();
    assertThat(report.lowerBoundBytes()).isPositive();
    // 1.009x the bound; the baseline, every block placed anew where the layout would put a new one, 2.418x.
    assertThat(report.ratio()).as(report.toString()).isLessThanOrEqualTo(1.2);
    assertThat((double) report.plannedBytes()).isLessThan(0.5 * placedAnew);
  }

  @Test
  void sameBlocksSamePlan_andAResumedPlannerGoesOnAsIfNeverStopped() {
    EqualWorkLayout layout = new EqualWorkLayout(GearServers.chain(12, 3), 4, 2, 3);
    List<RelayoutBlock> blocks = new ArrayList<>();
    Random random = new Random(11);
    for (int b = 0; b < 300; b++) {
      blocks.add(new RelayoutBlock("blk_" + b, 64 + random.nextInt(64), randomHolders(random, 12, 3)));
    }
    RelayoutPlanner whole = new RelayoutPlanner(layout, HomeChoices.of(layout), 0.1, 20_000);
    RelayoutPlanner first = new RelayoutPlanner(layout, HomeChoices.of(layout), 0.1, 20_000);
    List<BlockMove> once = new ArrayList<>();
    List<BlockMove> split = new ArrayList<>();
    for (int b = 0; b < blocks.size(); b++) {
      once.addAll(whole.plan(blocks.get(b)));
      if (b == 150) {
        first = RelayoutPlanner.resume(layout, 0.1, first.state());
      }
      split.addAll(first.plan(blocks.get(b)));
    }
    assertThat(split).isEqualTo(once);
    assertThat(first.report().toString()).isEqualTo(whole.report().toString());
  }

  @Test
  void aCheckingPlannerMovesOnlyBlocksOnNoAlternative() {
    EqualWorkLayout layout = new EqualWorkLayout(GearServers.chain(6, 1), 2, 1, 2);
    RelayoutPlanner checking = RelayoutPlanner.checking(layout);
    for (int b = 0; b < 10; b++) {
      assertThat(checking.plan(new RelayoutBlock("kept" + b, 100, 0, 5))).isEmpty();
    }
    assertThat(checking.plan(new RelayoutBlock("off", 100, 4, 5))).hasSize(1);
  }

  @Test
  void aRackSpreadSourceIsMovedOnlyWhereHdfsDropsItAsTheExcess() {
    // 12 servers on 3 racks (s0, s3, s6, s9 on rack 0, ...): a block on s4 (rack 1), s8 (rack 2) and s9 (rack 0)
    // belongs to recovery group 0 (s4, s8 are gear-group servers of column 0; s9 is of column 1): s9 moves, and to a
    // server on rack 0 when one can take it, since HDFS drops a replica only from a rack that holds two.
    ExpansionChain chain = GearServers.chain(12, 3);
    EqualWorkLayout layout = new EqualWorkLayout(chain, 4, 2, 3);
    List<BlockMove> moves = new RelayoutPlanner(layout, 0.1).plan(new RelayoutBlock("b", 100, 4, 8, 9));
    assertThat(moves).hasSize(1);
    assertThat(chain.rack(moves.get(0).to())).isEqualTo(chain.rack(moves.get(0).from()));
  }

  @Test
  void aStateForAnotherChainIsRefused() {
    EqualWorkLayout small = new EqualWorkLayout(GearServers.chain(6, 1), 2, 1, 2);
    EqualWorkLayout large = new EqualWorkLayout(GearServers.chain(12, 3), 4, 2, 3);
    assertThatThrownBy(() -> RelayoutPlanner.resume(large, 0.1, new RelayoutPlanner(small, 0.1).state()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("6 servers");
  }

  @Test
  void settingsOutOfRangeAreRefusedNamingTheKey() {
    assertThat(RelayoutSettings.defaults().movesPerDataNode()).isEqualTo(2);
    assertThatThrownBy(() -> RelayoutSettings.from(key -> key.equals("eafr.relayout.moves.concurrent") ? "0" : null))
        .hasMessageContaining("eafr.relayout.moves.concurrent");
  }

  /** Per server, the bytes it holds in {@code blocks}. */
  private static long[] heldBytes(int servers, List<RelayoutBlock> blocks) {
    long[] held = new long[servers];
    for (RelayoutBlock block : blocks) {
      for (int holder : block.holders()) {
        held[holder] += block.bytes();
      }
    }
    return held;
  }

  /** RelayoutClusterTest's run, in the batches its NameNode planned them. */
  private static List<List<RelayoutBlock>> clusterRunBlocks() {
    long half = 512 * 1024;
    long mb = 1024 * 1024;
    return List.of(
        List.of(block("1825", half, 1, 5, 11), block("1826", half, 2, 8, 9), block("1827", half, 5, 8, 10),
            block("1828", half, 4, 0, 10), block("1829", half, 6, 0, 10)),
        List.of(block("1830", half, 7, 3, 11), block("1831", half, 4, 2, 10), block("1832", half, 3, 4, 11),
            block("1833", half, 3, 5, 11), block("1834", mb, 3, 11, 5), block("1835", mb, 7, 3, 4)),
        List.of(block("a", mb, 3, 8, 1), block("b", mb, 6, 2, 1), block("c", mb, 7, 0, 5), block("d", mb, 3, 9, 2)));
  }

  private static RelayoutBlock block(String id, long bytes, int... holders) {
    return new RelayoutBlock(id, bytes, holders);
  }

  private static int[] randomHolders(Random random, int servers, int replicas) {
    Set<Integer> chosen = new HashSet<>();
    while (chosen.size() < replicas) {
      chosen.add(random.nextInt(servers));
    }
    return chosen.stream().mapToInt(Integer::intValue).toArray();
  }

  private static int[] apply(int[] holders, List<BlockMove> moves) {
    int[] placed = holders.clone();
    for (BlockMove move : moves) {
      for (int i = 0; i < placed.length; i++) {
        placed[i] = placed[i] == move.from() ? move.to() : placed[i];
      }
    }
    return placed;
  }
}
