package org.eafr.placement.gear.layout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.api.Test;

/** The equal-work layout with its primaries dealt by capacity (the capacity-aware constructor's worked example). */
class EqualWorkCapacityTest {
  private static final long GB = 1_000_000_000L;

  private static ExpansionChain chain(long... gb) {
    List<Server> servers = new ArrayList<>();
    for (int i = 0; i < gb.length; i++) {
      servers.add(Server.builder("s" + i).rack("r0").storageCapacity(gb[i] * GB).build());
    }
    return ExpansionChain.of(servers);
  }

  /** Blocks dealt to each position when {@code blocks} blocks of r replicas are placed with every server on. */
  private static long[] dealt(EqualWorkLayout layout, int blocks, int replicas) {
    long[] held = new long[layout.chain().size()];
    for (int b = 0; b < blocks; b++) {
      BlockPlacement placement = layout.place(BlockRequest.of("b" + b, replicas), ActiveSet.all(layout.chain()));
      for (int k = 0; k < placement.size(); k++) {
        held[placement.home(k)]++;
      }
    }
    return held;
  }

  @Test
  void primariesOf750And250Gb_takeThreeAndOneOfEveryFourBlocks() {
    EqualWorkLayout layout = new EqualWorkLayout(chain(750, 250, 500, 500, 500, 500, 500, 500, 500, 500, 500, 500),
        2, 1, 3, 12, true);

    long[] held = dealt(layout, 400, 3);

    assertThat(layout.byCapacity()).isTrue();
    assertThat(layout.share(0)).isEqualTo(0.75);
    assertThat(layout.share(1)).isEqualTo(0.25);
    assertThat(held[0]).isBetween(299L, 301L);
    assertThat(held[1]).isBetween(99L, 101L);
  }

  /**
   * p = 4 primaries of 750, 750, 250 and 250 GB, g = 1, r = 3 on 24 servers; each non-primary has 4/3 of the bytes its
   * share deals it, so 1,500 blocks of 1 GB (one copy of 1.5 TB, 3 copies of 6 TB raw) fill the cluster to 75%.
   * Dealt by capacity every server holds at most its capacity (the primaries 562 and 188 GB, 75%); dealt equal
   * block counts, as without the setting, each 250 GB primary is dealt 375 GB.
   */
  @Test
  void at75PercentFill_noHomeOverflowsDealtByCapacity_whereEqualCountsOverflowTheSmallPrimaries() {
    int servers = 24;
    long[] gb = new long[servers];
    gb[0] = 750;
    gb[1] = 750;
    gb[2] = 250;
    gb[3] = 250;
    EqualWorkLayout shape = new EqualWorkLayout(chain(gb), 4, 1, 3, servers, false);
    int copy = 1_500;
    long raw = 2_000;
    for (int i = 4; i < servers; i++) {
      gb[i] = (long) Math.ceil(shape.share(i) * copy * 4 / 3);
      raw += gb[i];
    }
    assertThat(3.0 * copy / raw).isBetween(0.74, 0.75);

    long[] byCapacity = dealt(new EqualWorkLayout(chain(gb), 4, 1, 3, servers, true), copy, 3);
    long[] byCount = dealt(new EqualWorkLayout(chain(gb), 4, 1, 3, servers, false), copy, 3);

    for (int i = 0; i < servers; i++) {
      assertThat(byCapacity[i]).as("GB dealt to s%d of %d GB", i, gb[i]).isLessThanOrEqualTo(gb[i]);
    }
    assertThat(byCapacity[0]).isBetween(561L, 564L);
    assertThat(byCapacity[2]).isBetween(186L, 189L);
    assertThat(byCount[2]).isEqualTo(375L).isGreaterThan(gb[2]);
    assertThat(byCount[3]).isEqualTo(375L).isGreaterThan(gb[3]);
  }

  @Test
  void fromSettings_dealsByCapacityOnlyWhenAsked_andOnlyOnAChainThatKnowsCapacities() {
    ExpansionChain sized = chain(750, 250, 500, 500, 500, 500, 500, 500, 500, 500, 500, 500);
    EafrSettings on = EafrSettings.builder().set(EafrSettings.GEAR_PRIMARIES, 2)
        .set(EafrSettings.GEAR_CAPACITY_AWARE, 1).build();

    assertThat(EqualWorkLayout.from(on, sized).byCapacity()).isTrue();
    assertThat(EqualWorkLayout.from(on.toBuilder().set(EafrSettings.GEAR_CAPACITY_AWARE, 0).build(), sized)
        .byCapacity()).isFalse();
    assertThat(EqualWorkLayout.from(on, org.eafr.placement.gear.GearServers.chain(12, 1)).share(1)).isEqualTo(0.5);
  }
}
