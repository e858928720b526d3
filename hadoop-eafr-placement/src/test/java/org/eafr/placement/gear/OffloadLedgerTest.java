package org.eafr.placement.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class OffloadLedgerTest {
  // Chain A, B, C, D = positions 0..3.
  private final ExpansionChain chain = GearServers.chain(4, 1);

  @Test
  void workedExample_offloadedPrimaryMovesHomeBeforeItsHolderSleeps() {
    OffloadLedger ledger = new OffloadLedger();
    ledger.record("x", new BlockPlacement(chain, new int[] {2, 3}, new int[] {0, 3}));

    CleanupWork cleanup = ledger.cleanupFor(ActiveSet.of(chain, 0, 1));

    assertThat(cleanup.moves()).containsExactly(new BlockMove("x", 2, 0, true));
    assertThat(cleanup.before(2)).hasSize(1);
    assertThat(cleanup.before(3)).isEmpty();
    assertThat(ledger.reflectionFor(ActiveSet.of(chain, 0))).containsExactly(new BlockMove("x", 2, 0, true));
    assertThat(ledger.firstUnavailable(ActiveSet.of(chain, 0, 1))).isEmpty();
  }

  @Test
  void aBlockWithAHolderStayingOn_needsNoCleanup() {
    OffloadLedger ledger = new OffloadLedger();
    ledger.record("x", new BlockPlacement(chain, new int[] {2, 3}, new int[] {0, 3}));

    assertThat(ledger.cleanupFor(ActiveSet.of(chain, 0, 3)).isEmpty()).isTrue();
  }

  @Test
  void finishedMove_bringsTheReplicaHome_andTheBlockLeavesTheLedger() {
    OffloadLedger ledger = new OffloadLedger();
    ledger.record("x", new BlockPlacement(chain, new int[] {2, 3}, new int[] {0, 3}));
    ledger.record("y", BlockPlacement.atHome(chain, 0, 1));

    ledger.moved(new BlockMove("x", 2, 0, true));

    assertThat(ledger.blocks()).isZero();
    assertThat(ledger.owed()).isEmpty();
  }

  @Test
  void noServerStayingOnCanTakeIt_isReportedUnavailable() {
    OffloadLedger ledger = new OffloadLedger();
    ledger.record("x", new BlockPlacement(chain, new int[] {2, 3}, new int[] {0, 3}));

    assertThat(ledger.firstUnavailable(ActiveSet.none(chain)).orElseThrow().holders()).isEqualTo(List.of("s2", "s3"));
  }
}
