package org.eafr.placement.gear.layout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearServers;
import org.junit.jupiter.api.Test;

/**
 * Without capacities, the replicas a low gear offloads go round the servers on in turn. Worked example: 300 servers on
 * one rack, p = 40, g = 1, r = 3, gear 0 (the 40 primaries on): 400 blocks offload their 2 non-primary replicas each,
 * 800 in all, 20 to each primary. Before, a cursor over all 300 chain positions sent every value past position 39 to
 * the first server on: positions 0 and 1 took 664 of the 800 (the simulator's rabbit runs then had thousands of writes
 * streaming into each at once, and a gear-down waiting on a copy into them never ended).
 */
class EqualWorkOffloadSpreadTest {
  @Test
  void gear0_400Blocks_offload20ReplicasToEachOfThe40Primaries() {
    ExpansionChain chain = GearServers.chain(300, 1);
    EqualWorkLayout layout = new EqualWorkLayout(chain, 40, 1, 3);
    ActiveSet on = layout.serversOn(0);
    int[] offloadedTo = new int[chain.size()];

    for (int b = 0; b < 400; b++) {
      BlockPlacement placement = layout.place(BlockRequest.of("blk_" + b, 3), on);
      for (int i = 0; i < placement.size(); i++) {
        if (placement.isOffloaded(i)) {
          offloadedTo[placement.holder(i)]++;
        }
      }
    }

    assertThat(on.size()).isEqualTo(40);
    assertThat(Arrays.copyOf(offloadedTo, 40)).containsExactly(20, 21, 21, 20, 21, 21, 20, 21, 21, 21, 21, 21, 21,
        21, 20, 20, 20, 18, 20, 20, 20, 20, 19, 19, 20, 19, 19, 20, 20, 20, 20, 20, 20, 19, 20, 20, 19, 20, 18, 19);
    assertThat(Arrays.stream(offloadedTo).sum()).isEqualTo(800);
  }
}
