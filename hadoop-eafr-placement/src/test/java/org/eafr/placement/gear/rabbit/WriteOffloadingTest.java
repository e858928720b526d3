package org.eafr.placement.gear.rabbit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearServers;
import org.eafr.placement.gear.OffloadLedger;
import org.junit.jupiter.api.Test;

class WriteOffloadingTest {
  private final ExpansionChain chain = GearServers.chain(30, 1);

  /** The class comment's worked example: SpringFS Sec. 5's 30 servers, p = 4, a write-only burst at HDFS speed. */
  @Test
  void workedExample_sixOfTenPrimariesOffloaded_roundRobin_cleanupTwoAtEightServersSixAtFour() {
    double share = WriteOffloading.offloadedShare(1_000e6, 100e6, 4);
    assertThat(share).isCloseTo(0.6, within(1e-12));
    WriteOffloading offloading = new WriteOffloading(4);
    offloading.share(share);
    OffloadLedger ledger = new OffloadLedger();
    ActiveSet all = ActiveSet.all(chain);
    List<Integer> offloadedBlocks = new ArrayList<>();
    List<Integer> targets = new ArrayList<>();

    for (int b = 1; b <= 10; b++) {
      BlockPlacement dealt = BlockPlacement.atHome(chain, (b - 1) % 4, 12, 20);
      BlockPlacement placed = offloading.apply(dealt, BlockRequest.of("b" + b, 3), all);
      ledger.record("b" + b, placed);
      if (placed.isOffloaded(0)) {
        offloadedBlocks.add(b);
        targets.add(placed.holder(0));
        assertThat(placed.home(0)).isEqualTo((b - 1) % 4);
        assertThat(placed.holder(1)).isEqualTo(12);
      }
    }

    assertThat(offloadedBlocks).containsExactly(2, 4, 5, 7, 9, 10);
    assertThat(targets).containsExactly(4, 5, 6, 7, 8, 9);
    assertThat(ledger.cleanupFor(ActiveSet.firstN(chain, 8)).moves()).extracting(BlockMove::from)
        .containsExactlyInAnyOrder(8, 9);
    assertThat(ledger.cleanupFor(ActiveSet.firstN(chain, 4)).blocks()).isEqualTo(6);
    assertThat(ledger.cleanupFor(ActiveSet.firstN(chain, 4)).moves()).allMatch(m -> m.to() < 4);
  }

  @Test
  void primariesThatKeepUp_offloadNothing_andNoCleanupAtAnySize() {
    assertThat(WriteOffloading.offloadedShare(400e6, 100e6, 4)).isZero();
    assertThat(WriteOffloading.offloadedShare(0, 100e6, 4)).isZero();
    WriteOffloading offloading = new WriteOffloading(4);
    OffloadLedger ledger = new OffloadLedger();

    for (int b = 0; b < 100; b++) {
      ledger.record("b" + b, offloading.apply(BlockPlacement.atHome(chain, b % 4, 12, 20),
          BlockRequest.of("b" + b, 3), ActiveSet.all(chain)));
    }

    assertThat(ledger.blocks()).isZero();
  }

  @Test
  void targetsPassOverHoldersFullServersAndSleepers_andNoTargetKeepsThePlacement() {
    WriteOffloading offloading = new WriteOffloading(4);
    offloading.share(1);
    ActiveSet on = ActiveSet.of(chain, 0, 1, 2, 3, 4, 5, 6, 9);
    BlockRequest sixFull = BlockRequest.of("b", 3).withSize(1, (position, bytes) -> position != 6);

    BlockPlacement placed = offloading.apply(BlockPlacement.atHome(chain, 0, 4, 5), sixFull, on);
    assertThat(placed.holder(0)).isEqualTo(9);
    assertThat(placed.home(0)).isZero();

    BlockPlacement none = BlockPlacement.atHome(chain, 1, 4, 5);
    assertThat(offloading.apply(none, BlockRequest.of("c", 3).excluding(9), ActiveSet.of(chain, 0, 1, 2, 3, 4, 5, 9)))
        .isSameAs(none);
  }

  /** Reflection leaves offloaded primaries where they are (they move as cleanup); other owed moves go ahead. */
  @Test
  void beforeCleanup_keepsOffloadedPrimariesOutOfReflection() {
    WriteOffloading offloading = new WriteOffloading(4);
    List<BlockMove> owed = List.of(new BlockMove("a", 7, 2, true), new BlockMove("b", 7, 15, true),
        new BlockMove("c", 5, 4, false));

    assertThat(offloading.beforeCleanup(owed)).containsExactly(owed.get(1), owed.get(2));
  }

  @Test
  void badInput_namesTheValue() {
    assertThatThrownBy(() -> WriteOffloading.offloadedShare(1, 0, 4)).hasMessageContaining("0.0 B/s per server");
    assertThatThrownBy(() -> new WriteOffloading(4).share(1.5)).hasMessageContaining("1.5");
    assertThatThrownBy(() -> new WriteOffloading(0)).hasMessageContaining("p = 0");
  }

  /**
   * 1,000 random cases (seeded): share f, servers on (the primaries and a random subset), blocks dealt with primary,
   * secondary and tertiary homes. Exactly round(n f) of n blocks are offloaded (within one); every offloaded primary
   * sits on a non-primary that is on, with its home on a primary; and every offloaded primary is accounted for as
   * cleanup when shrinking to the primaries, unless another holder of the block is a primary.
   */
  @Test
  void property_offloadedShareExact_targetsOnPastThePrimaries_allAccountedForAsCleanup() {
    Random random = new Random(42);
    for (int c = 0; c < 1_000; c++) {
      int p = 1 + random.nextInt(6);
      double share = random.nextDouble();
      WriteOffloading offloading = new WriteOffloading(p);
      offloading.share(share);
      java.util.BitSet bits = new java.util.BitSet();
      bits.set(0, p);
      for (int s = p; s < chain.size(); s++) {
        bits.set(s, random.nextInt(3) > 0);
      }
      ActiveSet on = ActiveSet.of(chain, bits);
      OffloadLedger ledger = new OffloadLedger();
      int blocks = 20 + random.nextInt(40);
      int offloaded = 0;
      int needCleanup = 0;
      for (int b = 0; b < blocks; b++) {
        int second = p + random.nextInt(chain.size() - p);
        int third = second;
        while (third == second) {
          third = p + random.nextInt(chain.size() - p);
        }
        BlockPlacement placed = offloading.apply(BlockPlacement.atHome(chain, random.nextInt(p), second, third),
            BlockRequest.of("b" + b, 3), on);
        ledger.record("b" + b, placed);
        if (placed.isOffloaded(0)) {
          offloaded++;
          needCleanup++;
          assertThat(placed.holder(0)).isGreaterThanOrEqualTo(p);
          assertThat(on.contains(placed.holder(0))).isTrue();
          assertThat(placed.home(0)).isLessThan(p);
        }
      }
      assertThat((double) offloaded).as("case %d: f = %s over %d blocks", c, share, blocks)
          .isCloseTo(share * blocks, within(1.0 + 1e-6));
      assertThat(ledger.cleanupFor(ActiveSet.firstN(chain, p)).blocks()).isEqualTo(needCleanup);
    }
  }
}
