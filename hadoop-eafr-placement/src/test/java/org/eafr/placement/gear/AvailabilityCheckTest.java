package org.eafr.placement.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.eafr.placement.cluster.ReplicatedFile;
import org.junit.jupiter.api.Test;

class AvailabilityCheckTest {
  private static final List<ReplicatedFile> BLOCKS =
      List.of(ReplicatedFile.of("b1", 1, "A", "B"), ReplicatedFile.of("b2", 1, "B", "C"));

  @Test
  void workedExample_aAndCStayingOn_keepEveryBlock() {
    assertThat(AvailabilityCheck.firstUnavailable(BLOCKS, id -> id.equals("A") || id.equals("C"))).isEmpty();
  }

  @Test
  void workedExample_onlyAStayingOn_namesB2AndItsHolders() {
    UnavailableBlock gap = AvailabilityCheck.firstUnavailable(BLOCKS, "A"::equals).orElseThrow();

    assertThat(gap.blockId()).isEqualTo("b2");
    assertThat(gap.holders()).containsExactly("B", "C");
    assertThat(gap.message()).isEqualTo("block b2 would have no live replica on a server that stays on: its replicas"
        + " are on [B, C], none of which stays on");
  }

  @Test
  void activeSet_idsOutsideItsChainDoNotStayOn() {
    ExpansionChain chain = GearServers.chain(3, 1);
    List<ReplicatedFile> blocks = List.of(ReplicatedFile.of("b", 1, "s1", "elsewhere"));

    assertThat(AvailabilityCheck.firstUnavailable(blocks, ActiveSet.of(chain, 1))).isEmpty();
    assertThat(AvailabilityCheck.firstUnavailable(blocks, ActiveSet.of(chain, 0, 2))).isPresent();
  }
}
