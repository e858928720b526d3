package org.eafr.placement.gear;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.api.Test;

class LayoutProblemTest {
  private static final List<org.eafr.placement.settings.Setting<Integer>> EQUAL_WORK_KEYS = List.of(
      EafrSettings.GEAR_PRIMARIES, EafrSettings.GEAR_GROUP_SIZE, EafrSettings.GEAR_REPLICAS);

  @Test
  void equalWorkWithGroupsOfThreeOnNineServers_namesTheKeysTheReasonAndWhatBuilds() {
    EafrSettings settings = EafrSettings.builder().set(EafrSettings.GEAR_GROUP_SIZE, 3).build();

    assertThatThrownBy(() -> LayoutProblem.buildOrExplain("equal-work", settings, chain(9), EqualWorkLayout::from,
        EQUAL_WORK_KEYS)).isInstanceOf(IllegalArgumentException.class).hasMessage("the equal-work layout cannot be built on the 9 DataNodes of the expansion chain"
        + " with eafr.gear.primaries = 0, eafr.gear.group-size = 3, eafr.gear.replicas = 3: 2 gear groups of 3"
        + " servers are too few for 3 replicas with p = 3: the first gear group would need each block more than once"
        + " (1.200); use fewer primaries or replicas, or more servers; allowed on 9 DataNodes with the other keys as"
        + " set: eafr.gear.primaries none; eafr.gear.group-size 1..2; eafr.gear.replicas 2");
  }

  @Test
  void aLayoutThatBuilds_isBuilt() {
    assertThat(LayoutProblem.buildOrExplain("equal-work", EafrSettings.defaults(), chain(9), EqualWorkLayout::from,
        EQUAL_WORK_KEYS).maximumGear()).isPositive();
  }

  @Test
  void ranges_joinRunsOfConsecutiveValues() {
    assertThat(LayoutProblem.ranges(List.of(1, 2, 3, 5, 7, 8))).isEqualTo("1..3, 5, 7..8");
    assertThat(LayoutProblem.ranges(List.of())).isEqualTo("none");
  }

  private static ExpansionChain chain(int servers) {
    List<Server> list = new ArrayList<>();
    for (int i = 0; i < servers; i++) {
      list.add(Server.builder("s" + i).rack("/r" + (i % 3)).build());
    }
    return ExpansionChain.of(list);
  }
}
