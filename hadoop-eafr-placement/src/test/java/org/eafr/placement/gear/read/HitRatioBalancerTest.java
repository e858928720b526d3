package org.eafr.placement.gear.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.FixedStoredBlocks;
import org.eafr.placement.gear.GearServers;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.junit.jupiter.api.Test;

class HitRatioBalancerTest {

  /** Rabbit Sec. 3.2: a full read of 1,700 blocks stored on 24 servers; the paper: 70.83 +- 1.79 blocks per server. */
  @Test
  void fullReadOf1700BlocksOn24Servers_servesAbout71PerServer_withAStandardDeviationOfAtMost2point5() {
    ExpansionChain chain = GearServers.chain(24, 1);
    EqualWorkLayout layout = new EqualWorkLayout(chain, 3, 1, 3);
    ActiveSet all = ActiveSet.all(chain);
    List<int[]> blocks = new ArrayList<>();
    for (int b = 0; b < 1700; b++) {
      blocks.add(layout.place(BlockRequest.of("b" + b, 3), all).holders());
    }
    HitRatioBalancer balancer = new HitRatioBalancer(layout);

    long[] served = new long[24];
    for (int[] holders : blocks) {
      served[balancer.choose(holders, all)]++;
    }

    double mean = 1700.0 / 24;
    double variance = 0;
    for (long s : served) {
      variance += (s - mean) * (s - mean) / 24;
    }
    assertThat(mean).isCloseTo(70.83, within(0.005));
    assertThat(Math.sqrt(variance)).isLessThanOrEqualTo(2.5);
  }

  @Test
  void desiredHitRatios_primaryPOverN_nthServerOne() {
    ExpansionChain chain = GearServers.chain(120, 1);
    EqualWorkLayout layout = new EqualWorkLayout(chain, 5, 1, 4);
    HitRatioBalancer balancer = new HitRatioBalancer(layout);

    // n = 20 servers on: a primary (b = B/5) should serve 5/20 of its candidate reads, server 20 (b = B/20) all.
    assertThat(balancer.desiredHitRatio(0, 20)).isCloseTo(5.0 / 20, within(1e-12));
    assertThat(balancer.desiredHitRatio(19, 20)).isCloseTo(1.0, within(1e-12));
    assertThat(balancer.desiredHitRatio(9, 20)).isCloseTo(10.0 / 20, within(1e-12));
  }

  /** B = 100 with 4 servers on: a server storing 50 has desired hit ratio 25 / 50 = 0.5; dealt 1/5 (20) it would be 1. */
  @Test
  void desiredHitRatio_fromStoredBlocks_workedExample_andDealtSharesUntilCounted() {
    ExpansionChain chain = GearServers.chain(24, 1);
    EqualWorkLayout layout = new EqualWorkLayout(chain, 5, 1, 3);
    FixedStoredBlocks stored = new FixedStoredBlocks(24).with(0, 50);

    HitRatioBalancer balancer = new HitRatioBalancer(layout, stored);

    assertThat(balancer.desiredHitRatio(0, 4)).isCloseTo(1.0, within(1e-12)); // nothing counted: dealt 1/5
    stored.total(100);
    assertThat(balancer.desiredHitRatio(0, 4)).isCloseTo(0.5, within(1e-12));
    assertThat(balancer.desiredHitRatio(1, 4)).isCloseTo(1.0, within(1e-12)); // stores nothing counted
  }

  /**
   * 1,700 blocks in the layout and 100 more written while only the 3 primaries were on (all their replicas there):
   * a full read with all 24 servers on. The primaries must serve the 100 themselves; a balancer on the dealt shares
   * still gives them their dealt share of the rest, one on the stored counts gives them less of it. (The data lies on
   * the layout's spread, 22 servers, so no read of it can beat 22 / 24 = 0.917 with 24 on.)
   */
  @Test
  void blocksWrittenInGearZero_aBalancerOnStoredCountsSpreadsAFullReadMoreEvenly() {
    ExpansionChain chain = GearServers.chain(24, 1);
    EqualWorkLayout layout = new EqualWorkLayout(chain, 3, 1, 3);
    List<int[]> blocks = new ArrayList<>();
    for (int b = 0; b < 1800; b++) {
      ActiveSet on = b < 1700 ? ActiveSet.all(chain) : layout.serversOn(0);
      blocks.add(layout.place(BlockRequest.of("b" + b, 3), on).holders());
    }

    double dealt = degree(new HitRatioBalancer(layout), blocks, ActiveSet.all(chain));
    double counted = degree(new HitRatioBalancer(layout, new FixedStoredBlocks(24).count(blocks)), blocks,
        ActiveSet.all(chain));

    assertThat(dealt).isCloseTo(0.714, within(0.001)); // the busiest serves 105 of an even 75
    assertThat(counted).isCloseTo(0.789, within(0.001)); // 95

  }

  /** Rabbit Sec. 3.4: (B / n) / the most blocks one server served in a full read. */
  private static double degree(HitRatioBalancer balancer, List<int[]> blocks, ActiveSet on) {
    long[] served = new long[on.size()];
    for (int[] holders : blocks) {
      served[balancer.choose(holders, on)]++;
    }
    long busiest = java.util.Arrays.stream(served).max().orElseThrow();
    return (double) blocks.size() / on.size() / busiest;
  }

  @Test
  void everyHolderAsleep_returnsMinusOne_andCountsNothing() {
    ExpansionChain chain = GearServers.chain(24, 1);
    HitRatioBalancer balancer = new HitRatioBalancer(new EqualWorkLayout(chain, 3, 1, 3));

    assertThat(balancer.choose(new int[] {5, 6}, ActiveSet.of(chain, 0, 1))).isEqualTo(-1);
    assertThat(balancer.actualHitRatio(5)).isZero();
  }

  @Test
  void aSleepingHolderIsSkipped() {
    ExpansionChain chain = GearServers.chain(24, 1);
    HitRatioBalancer balancer = new HitRatioBalancer(new EqualWorkLayout(chain, 3, 1, 3));

    assertThat(balancer.choose(new int[] {1, 10, 20}, ActiveSet.of(chain, 0, 1, 2, 3, 20))).isEqualTo(20);
  }
}
