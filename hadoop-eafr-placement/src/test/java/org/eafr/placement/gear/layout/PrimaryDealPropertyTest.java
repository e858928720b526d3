package org.eafr.placement.gear.layout;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearServers;

/**
 * Rabbit Sec. 3.5, "each gear group should contain approximately the same amount of data from each primary": at every
 * gear, the blocks only a primary can serve (its blocks whose non-primaries are all off) differ between the primaries
 * of a recovery group by at most 7, and their totals by at most 3 (the bounds PrimaryDeal documents, measured on one
 * rack; racks restrict the choice).
 */
class PrimaryDealPropertyTest {

  @Property(tries = 1000, seed = "43")
  void everyGear_primariesOfAGroupMustServeAlone_withinSevenBlocks_totalsWithinThree(
      @ForAll @IntRange(min = 1, max = 4) int groupSize, @ForAll @IntRange(min = 1, max = 8) int perGroup,
      @ForAll @IntRange(min = 2, max = 4) int replicas, @ForAll @IntRange(min = 0, max = 5) int spares,
      @ForAll @IntRange(min = 1, max = 3000) int blocks) {
    int primaries = groupSize * perGroup;
    int servers = primaries + groupSize * EqualWorkShares.gearGroupsNeeded(primaries, groupSize, replicas) + spares;
    ExpansionChain chain = GearServers.chain(servers, 1);
    EqualWorkLayout layout = new EqualWorkLayout(chain, primaries, groupSize, replicas);
    int gears = layout.gearGroups();
    long[][] byClass = new long[primaries][gears + 1];
    ActiveSet all = ActiveSet.all(chain);

    for (int b = 0; b < blocks; b++) {
      BlockPlacement placement = layout.place(BlockRequest.of("b" + b, replicas), all);
      int lowest = gears;
      for (int i = 1; i < placement.size(); i++) {
        lowest = Math.min(lowest, layout.gearOf(placement.home(i)) - 1);
      }
      byClass[placement.home(0)][lowest]++;
    }

    for (int group = 0; group < groupSize; group++) {
      for (int gear = 0; gear <= gears; gear++) {
        long least = Long.MAX_VALUE;
        long most = 0;
        for (int primary = group; primary < primaries; primary += groupSize) {
          long alone = 0;
          for (int c = gear; c <= gears; c++) {
            alone += byClass[primary][c];
          }
          least = Math.min(least, alone);
          most = Math.max(most, alone);
        }
        assertThat(most - least).as("group %d, gear %d: %d to %d blocks", group, gear, least, most)
            .isLessThanOrEqualTo(gear == 0 ? 3 : 7);
      }
    }
  }
}
