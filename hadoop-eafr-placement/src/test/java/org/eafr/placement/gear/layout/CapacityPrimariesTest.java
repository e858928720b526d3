package org.eafr.placement.gear.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.ExpansionChain;
import org.junit.jupiter.api.Test;

/** CapacityPrimaries' worked example: the `fill` scenario's copies on 100 servers each of 750, 500 and 250 GB. */
class CapacityPrimariesTest {
  private static final long GB = 1_000_000_000L;
  private static final long TB = 1000 * GB;
  private static final long RESERVE = 10 * GB;

  /** 300 servers, 750 / 500 / 250 GB in turn (each size 100 times), in 10 racks. */
  private static ExpansionChain interleaved() {
    List<Server> servers = new ArrayList<>();
    long[] sizes = {750, 500, 250};
    for (int i = 0; i < 300; i++) {
      servers.add(Server.builder("s" + i).rack("r" + i % 10).storageCapacity(sizes[i % 3] * GB).build());
    }
    return ExpansionChain.of(servers);
  }

  @Test
  void largestFirst_holdsOneCopyAt50And75PercentWith36And54Primaries() {
    ExpansionChain chain = interleaved().largestFirst();

    assertThat(CapacityPrimaries.primaries(25_060 * GB, 0.05, chain, RESERVE, 1)).isEqualTo(36);
    assertThat(CapacityPrimaries.primaries(37_650 * GB, 0.05, chain, RESERVE, 1)).isEqualTo(54);
  }

  @Test
  void serversOfMixedSizesInTurn_needHalfAsManyAgain() {
    assertThat(CapacityPrimaries.primaries(25_060 * GB, 0.05, interleaved(), RESERVE, 1)).isEqualTo(54);
  }

  @Test
  void roundsUpToAMultipleOfTheGearGroupSize() {
    assertThat(CapacityPrimaries.primaries(25_060 * GB, 0.05, interleaved().largestFirst(), RESERVE, 5))
        .isEqualTo(40);
  }

  @Test
  void heldShare_ofTheLowestGear() {
    long[] usable = CapacityPrimaries.usable(interleaved().largestFirst(), RESERVE);

    // 40 primaries of 740 GB usable hold 29.6 TB: all of 25.06 TB, 78.6% of 37.65 TB.
    assertThat(CapacityPrimaries.heldShare(25_060 * GB, usable, 40)).isEqualTo(1.0);
    assertThat(CapacityPrimaries.heldShare(37_650 * GB, usable, 40)).isCloseTo(29.6 / 37.65,
        org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void aCopyLargerThanTheCluster_isRefusedNamingTheBytes() {
    assertThatThrownBy(() -> CapacityPrimaries.primaries(150 * TB, 0.05, interleaved(), RESERVE, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("150000000000000 bytes")
        .hasMessageContaining("300 servers");
  }

  /** The layout-aware p's worked example: 4 servers of 750 GB then 20 of 250 GB, one copy of 1.4 TB, r = 3. */
  @Test
  void layoutAware_growsPWhileTheServersPastThePrimariesWouldOverflow() {
    List<Server> servers = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      servers.add(Server.builder("s" + i).rack("r0").storageCapacity((i < 4 ? 750 : 250) * GB).build());
    }
    ExpansionChain chain = ExpansionChain.of(servers);

    assertThat(CapacityPrimaries.primaries(1_400 * GB, 0, CapacityPrimaries.usable(chain, RESERVE), 1)).isEqualTo(2);
    assertThat(CapacityPrimaries.primaries(1_400 * GB, 0, chain, RESERVE, 1, 3)).isEqualTo(5);
    EqualWorkLayout layout = new EqualWorkLayout(chain, 5, 1, 3, 24, true, RESERVE);
    assertThat(CapacityPrimaries.copyHeld(layout, CapacityPrimaries.usable(chain, RESERVE), 0))
        .isBetween(1_400.0 * GB, 1_440.0 * GB);
    assertThatThrownBy(() -> CapacityPrimaries.primaries(3_000 * GB, 0, chain, RESERVE, 1, 3))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3000000000000 bytes")
        .hasMessageContaining("r = 3");
  }
}
