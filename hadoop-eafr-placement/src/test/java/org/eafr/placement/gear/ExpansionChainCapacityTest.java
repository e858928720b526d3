package org.eafr.placement.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.eafr.placement.cluster.Server;
import org.junit.jupiter.api.Test;

/** ExpansionChain#largestFirst's worked example: the largest servers first, equal capacities in chain order. */
class ExpansionChainCapacityTest {
  private static final long GB = 1_000_000_000L;

  private static Server server(String id, String rack, long gb) {
    return Server.builder(id).rack(rack).storageCapacity(gb * GB).build();
  }

  @Test
  void largestFirst_ordersByCapacity_keepingTheChainOrderBetweenEqualDisks() {
    ExpansionChain chain = ExpansionChain.of(List.of(server("a1", "A", 250), server("b1", "B", 750),
        server("a2", "A", 500), server("b2", "B", 750)));

    ExpansionChain largest = chain.largestFirst();

    assertThat(largest.ids(new int[] {0, 1, 2, 3})).containsExactly("b1", "b2", "a2", "a1");
    assertThat(largest.capacity(0)).isEqualTo(750 * GB);
    assertThat(largest.capacity(3)).isEqualTo(250 * GB);
    assertThat(largest.rackName(2)).isEqualTo("A");
    assertThat(largest.rackName(0)).isEqualTo("B");
  }

  @Test
  void largestFirst_ofEqualDisks_isTheSameChain() {
    ExpansionChain chain = ExpansionChain.rackInterleaved(GearServers.servers(30, 3));

    assertThat(chain.largestFirst().toString()).isEqualTo(chain.toString());
    assertThat(chain.largestFirst().rackName(4)).isEqualTo(chain.rackName(4));
  }
}
