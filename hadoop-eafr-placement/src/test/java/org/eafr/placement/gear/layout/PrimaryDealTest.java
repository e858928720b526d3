package org.eafr.placement.gear.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearServers;
import org.eafr.placement.gear.read.HitRatioBalancer;
import org.junit.jupiter.api.Test;

class PrimaryDealTest {
  private static final int A = 0;
  private static final int B = 1;

  /** PrimaryDeal's worked example: blocks of class 2, 0, 2, 0 go to A, B, B, A; plain turn gives A both of class 2. */
  @Test
  void workedExample_eachPrimaryGetsOneBlockOfEachClass() {
    PrimaryDeal deal = new PrimaryDeal(2, 3);
    List<Integer> chosen = new ArrayList<>();
    for (int blockClass : new int[] {2, 0, 2, 0}) {
      int primary = deal.choose(blockClass, j -> true);
      deal.take(primary, blockClass);
      chosen.add(primary);
    }

    assertThat(chosen).containsExactly(A, B, B, A);
    assertThat(deal.onlyPrimary(A, 1)).isEqualTo(1);
    assertThat(deal.onlyPrimary(B, 1)).isEqualTo(1);
    assertThat(deal.onlyPrimary(A, 0)).isEqualTo(2);
  }

  @Test
  void preferredPrimaries_winWhenAnyIs_otherwiseAllAreCandidates() {
    PrimaryDeal deal = new PrimaryDeal(3, 2);

    assertThat(deal.choose(0, j -> j == 2)).isEqualTo(2);
    assertThat(deal.choose(0, j -> false)).isEqualTo(0);
  }

  /**
   * The `rabbit` scenario's shape (N = 300 on 10 racks, p = 40, g = 1, r = 3, 15,000 blocks, all placed with every
   * server on): at 70 servers on the blocks only a primary can serve are 165 to 169 per primary (B / n = 214.3; 214
   * to 218 before the low tier of EqualWorkLayout's step 2; dealt in turn they were 100 to 288), and a full read
   * through a fresh hit-ratio balancer at every gear from p up keeps the degree of power proportionality at 0.974 or
   * more (0.959 before the low tier; 0.741 dealt in turn).
   */
  @Test
  void rabbitScenarioShape_gEquals1_everyGearAtLeast0point974() {
    List<Server> servers = GearServers.servers(300, 10);
    ExpansionChain chain = ExpansionChain.rackInterleaved(servers);
    EqualWorkLayout layout = new EqualWorkLayout(chain, 40, 1, 3);
    ActiveSet all = ActiveSet.all(chain);
    List<int[]> blocks = new ArrayList<>();
    for (int b = 0; b < 15_000; b++) {
      BlockPlacement placement = layout.place(BlockRequest.of("b" + b, 3), all);
      blocks.add(placement.holders());
    }

    long[] onlyPrimary = onlyPrimaryAt(blocks, layout.serversOn(30), 40);
    assertThat(layout.serversOn(30).size()).isEqualTo(70);
    assertThat(java.util.Arrays.stream(onlyPrimary).min().getAsLong()).isEqualTo(165);
    assertThat(java.util.Arrays.stream(onlyPrimary).max().getAsLong()).isEqualTo(169);

    double least = 1;
    for (int gear = 0; gear <= layout.maximumGear(); gear++) {
      least = Math.min(least, degree(layout, blocks, layout.serversOn(gear)));
    }
    assertThat(least).isCloseTo(0.9745, within(0.0001));
  }

  private static long[] onlyPrimaryAt(List<int[]> blocks, ActiveSet on, int primaries) {
    long[] only = new long[primaries];
    for (int[] holders : blocks) {
      boolean nonPrimaryOn = false;
      for (int i = 1; i < holders.length; i++) {
        nonPrimaryOn |= on.contains(holders[i]);
      }
      only[holders[0]] += nonPrimaryOn ? 0 : 1;
    }
    return only;
  }

  /** Rabbit Sec. 3.4: (B / n) / busiest, a full read through a fresh balancer. */
  private static double degree(EqualWorkLayout layout, List<int[]> blocks, ActiveSet on) {
    HitRatioBalancer balancer = new HitRatioBalancer(layout);
    long[] served = new long[layout.chain().size()];
    for (int[] holders : blocks) {
      served[balancer.choose(holders, on)]++;
    }
    return (double) blocks.size() / on.size() / java.util.Arrays.stream(served).max().getAsLong();
  }
}
