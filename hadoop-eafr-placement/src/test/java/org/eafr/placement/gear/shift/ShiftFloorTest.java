package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import org.eafr.placement.gear.GearServers;
import org.eafr.placement.gear.UnavailableBlock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The worked example of {@link ShiftFloor}: blocks b1 on s0, s4 and b2 on s4, s5; s4 and s5 change, s0 is kept. */
class ShiftFloorTest {
  private final SimulatedCluster cluster = new SimulatedCluster(GearServers.chain(12, 3), new Random(1));
  private final List<String> asked = new ArrayList<>();
  private final Predicate<String> keptS0 = id -> {
    asked.add(id);
    return id.equals("s0");
  };

  @BeforeEach
  void blocks() {
    cluster.addBlock("b1", List.of("s0", "s4"));
    cluster.addBlock("b2", List.of("s4", "s5"));
  }

  @Test
  void theBlockHeldOnNoKeptDataNodeIsTheGap_eachDataNodeAskedAboutOnce() {
    ShiftFloor.Gaps gaps = ShiftFloor.check(cluster, List.of("s4", "s5"), keptS0);

    assertThat(gaps.complete().map(UnavailableBlock::blockId)).contains("b2");
    assertThat(gaps.beingWritten()).isEmpty();
    assertThat(asked).containsExactly("s4", "s0", "s5");
  }

  @Test
  void aChangingDataNodeNotRunningIsNotWalked_theRunningOneStillFindsTheGap() {
    cluster.crash("s5", 10);

    assertThat(ShiftFloor.firstComplete(cluster, List.of("s5", "s4"), keptS0).map(UnavailableBlock::blockId))
        .contains("b2");
  }

  @Test
  void aBlockBeingWrittenOnlyOnChangingDataNodesIsFoundOnceNoCompleteBlockIs() {
    cluster.startWrite("w1", List.of("s4"), 5);
    Predicate<String> keptS0S5 = id -> id.equals("s0") || id.equals("s5");

    ShiftFloor.Gaps gaps = ShiftFloor.check(cluster, List.of("s4"), keptS0S5);

    assertThat(gaps.complete()).isEmpty();
    assertThat(gaps.beingWritten().map(UnavailableBlock::blockId)).contains("w1");
  }
}
