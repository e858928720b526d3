package org.eafr.placement.gear.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
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
