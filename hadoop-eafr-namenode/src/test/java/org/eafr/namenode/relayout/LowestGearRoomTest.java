package org.eafr.namenode.relayout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.junit.jupiter.api.Test;

/** LowestGearRoom's worked example: 4 primaries of 100 GB, 10 GB reserves, r = 3, 5% headroom. */
class LowestGearRoomTest {
  private static final long GB = 1_000_000_000L;
  private static final long RESERVE = 10 * GB;

  private static EqualWorkLayout layout() {
    List<Server> servers = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      servers.add(Server.builder("dn" + i).rack("r" + i % 2).build());
    }
    return new EqualWorkLayout(ExpansionChain.of(servers), 4, 1, 3);
  }

  private static Map<String, Long> capacities(long gb) {
    Map<String, Long> capacities = new HashMap<>();
    for (int i = 0; i < 12; i++) {
      capacities.put("dn" + i, gb * GB);
    }
    return capacities;
  }

  @Test
  void aLowestGearShortOfOneCopy_saysHowMuchItHolds_andThePToGrowTo() {
    LowestGearRoom room = LowestGearRoom.of(layout(), capacities(100), 1_200 * GB, 3, RESERVE, 0.05, 1);

    assertThat(room.heldShare()).isEqualTo(360.0 / 420.0);
    assertThat(room.holdsOneCopy()).isFalse();
    assertThat(room.text()).isEqualTo("lowest gear (4 DataNodes, 360.0 GB usable) holds 86% of one copy (400.0 GB"
        + " stored / r, with 5% headroom): grow p to 5 ('hdfs eafr relayout grow' grows the layout and relays out"
        + " its blocks)\n");
    assertThat(room.toJsonMap()).containsEntry("primariesNeeded", 5).containsEntry("oneCopyBytes", 400 * GB)
        .containsEntry("lowestGearUsableBytes", 360 * GB);
  }

  @Test
  void aLowestGearThatHoldsTheCopy_namesNoGrowth() {
    LowestGearRoom room = LowestGearRoom.of(layout(), capacities(200), 1_200 * GB, 3, RESERVE, 0.05, 1);

    assertThat(room.holdsOneCopy()).isTrue();
    assertThat(room.text()).startsWith("lowest gear (4 DataNodes, 760.0 GB usable) holds 181% of one copy")
        .doesNotContain("grow p");
  }

  @Test
  void dataNodesThatReportNoCapacity_countAsTheMeanOfThoseThatDo() {
    Map<String, Long> capacities = capacities(100);
    capacities.put("dn1", 0L);
    capacities.remove("dn2");

    LowestGearRoom room = LowestGearRoom.of(layout(), capacities, 1_200 * GB, 3, RESERVE, 0.05, 1);

    assertThat(room.toJsonMap()).containsEntry("lowestGearUsableBytes", 360 * GB);
  }

  @Test
  void aCopyTheWholeChainCannotHold_saysToAddDataNodes() {
    LowestGearRoom room = LowestGearRoom.of(layout(), capacities(100), 3_600 * GB, 3, RESERVE, 0.05, 1);

    assertThat(room.text()).endsWith("the whole expansion chain cannot hold one copy with that headroom; add"
        + " DataNodes\n");
    assertThat(room.toJsonMap()).containsEntry("primariesNeeded", null);
  }
}
