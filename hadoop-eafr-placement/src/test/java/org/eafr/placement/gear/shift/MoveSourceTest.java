package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearServers;
import org.junit.jupiter.api.Test;

/** The worked example of {@link MoveSource}: 12 servers on racks r0, r1, r2 dealt round-robin. */
class MoveSourceTest {
  private final ExpansionChain chain = GearServers.chain(12, 3);
  private final List<String> holders = List.of("s0", "s1", "s2");
  private final List<String> homes = List.of("s0", "s5", "s9");

  @Test
  void pick_prefersTheHolderAwayFromHomeOnTheTargetsRack() {
    assertThat(MoveSource.pick(chain, holders, homes, "s5", id -> true)).contains("s2");
  }

  @Test
  void pick_fallsBackToTheFirstLiveHolderAwayFromHome() {
    assertThat(MoveSource.pick(chain, holders, homes, "s9", id -> true)).contains("s1");
    assertThat(MoveSource.pick(chain, holders, homes, "s5", id -> !id.equals("s2"))).contains("s1");
  }

  @Test
  void pick_neverMovesAHomesCopyADeadOneOrOneOutsideTheChain() {
    assertThat(MoveSource.pick(chain, List.of("s0", "s1", "x9"), homes, "s5", id -> !id.equals("s1"))).isEmpty();
  }
}
