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

class EqualWorkLayoutPropertyTest {

  /** A layout of p = g * perGroup primaries, gear groups of g, r replicas, with room for the spread plus spares. */
  private static EqualWorkLayout layout(int groupSize, int perGroup, int replicas, int spares, int racks,
      boolean interleave) {
    int primaries = groupSize * perGroup;
    int servers = primaries + groupSize * EqualWorkShares.gearGroupsNeeded(primaries, groupSize, replicas) + spares;
    ExpansionChain chain = interleave ? ExpansionChain.rackInterleaved(GearServers.servers(servers, racks))
        : GearServers.chain(servers, racks);
    return new EqualWorkLayout(chain, primaries, groupSize, replicas);
  }

  /**
   * Equal work within one block on any racks for r &gt;= 3, and on one rack for r = 2: with two replicas on several
   * racks, the one non-primary of a block must leave the primary's rack, so a rack's non-primaries hold exactly the
   * blocks whose primaries are elsewhere, whatever their b_i (see EqualWorkLayout's class comment). And the lowest
   * non-primary's deal after every block ({@link #assertLowestNonPrimaryOffAtMostPOverNPlusOne}).
   */
  @Property(tries = 1000, seed = "31")
  void equalWorkShares_everyServerHoldsItsBiWithinOneBlock_lowestNonPrimaryOffAtMostPOverN_atEveryPrefix(
      @ForAll @IntRange(min = 1, max = 4) int groupSize, @ForAll @IntRange(min = 1, max = 6) int perGroup,
      @ForAll @IntRange(min = 2, max = 4) int replicas, @ForAll @IntRange(min = 0, max = 7) int spares,
      @ForAll @IntRange(min = 1, max = 4) int racks, @ForAll boolean interleave,
      @ForAll @IntRange(min = 1, max = 1500) int blocks) {
    EqualWorkLayout layout = layout(groupSize, perGroup, replicas, spares, replicas == 2 ? 1 : racks, interleave);
    ExpansionChain chain = layout.chain();
    ActiveSet all = ActiveSet.all(chain);
    long[] held = new long[chain.size()];
    long[][] lowest = new long[groupSize][layout.gearGroups() + 2];
    long[] dealt = new long[groupSize];

    for (int b = 1; b <= blocks; b++) {
      BlockPlacement placement = layout.place(BlockRequest.of("b" + b, replicas), all);
      assertThat(placement.size()).isEqualTo(replicas);
      assertLowestNonPrimaryOffAtMostPOverNPlusOne(layout, placement, lowest, dealt, b);
      for (int i = 0; i < replicas; i++) {
        held[placement.home(i)]++;
      }
      if (b % 97 == 0 || b == blocks) {
        assertWithinOneBlock(layout, held, b);
      }
    }
  }

  /**
   * The lowest non-primary's deal (EqualWorkLayout, step 2): with gear k on (n = p + g k servers), the blocks of a
   * recovery group whose every non-primary is off are at most a fraction p / n of the group's blocks, plus one block,
   * after every block; so the primaries, which hold B / p each, can serve them at equal work.
   */
  private static void assertLowestNonPrimaryOffAtMostPOverNPlusOne(EqualWorkLayout layout, BlockPlacement placement,
      long[][] lowest, long[] dealt, int blocks) {
    int g = layout.groupSize();
    int p = layout.primaries();
    int group = layout.recoveryGroupOf(placement.home(0));
    int low = Integer.MAX_VALUE;
    for (int i = 1; i < placement.size(); i++) {
      low = Math.min(low, layout.gearOf(placement.home(i)));
    }
    lowest[group][low]++;
    dealt[group]++;
    long off = 0;
    for (int gear = layout.gearGroups(); gear >= 1; gear--) {
      off += lowest[group][gear + 1];
      double bound = dealt[group] * (double) p / (p + g * gear) + 1;
      assertThat((double) off).as("group %d, gear %d, after %d blocks", group, gear, blocks)
          .isLessThanOrEqualTo(bound);
    }
  }

  private static void assertWithinOneBlock(EqualWorkLayout layout, long[] held, int blocks) {
    int g = layout.groupSize();
    for (int position = layout.primaries(); position < held.length; position++) {
      int group = layout.recoveryGroupOf(position);
      // The recovery groups take blocks in turn, so group c has dealt ceil((blocks - c) / g) of them.
      long dealt = group < 0 ? 0 : (blocks - group + g - 1) / g;
      double target = group < 0 ? 0 : dealt * layout.share(position) * g;
      assertThat(Math.abs(held[position] - target)).as("server %d after %d blocks: %d held, b_i = %.3f", position,
          blocks, held[position], target).isLessThan(1 + 1e-6);
    }
  }

  @Property(tries = 1000, seed = "37")
  void recoveryGroups_holdEverySecondaryOfTheirPrimary_andPlacementsAreDistinctWithTwoRacks(
      @ForAll @IntRange(min = 1, max = 4) int groupSize, @ForAll @IntRange(min = 1, max = 6) int perGroup,
      @ForAll @IntRange(min = 2, max = 4) int replicas, @ForAll @IntRange(min = 0, max = 5) int spares,
      @ForAll @IntRange(min = 1, max = 3) int racks, @ForAll boolean interleave,
      @ForAll @IntRange(min = 1, max = 300) int blocks) {
    EqualWorkLayout layout = layout(groupSize, perGroup, replicas, spares, racks, interleave);
    ExpansionChain chain = layout.chain();
    ActiveSet all = ActiveSet.all(chain);

    for (int b = 0; b < blocks; b++) {
      BlockPlacement placement = layout.place(BlockRequest.of("b" + b, replicas), all);
      int primary = placement.home(0);
      assertThat(primary).isLessThan(layout.primaries());
      ActiveSet recovery = layout.recoveryGroup(primary);
      boolean twoRacks = false;
      for (int i = 1; i < placement.size(); i++) {
        assertThat(recovery.contains(placement.home(i))).as("replica %d of block %d", i, b).isTrue();
        twoRacks |= chain.rack(placement.holder(i)) != chain.rack(placement.holder(0));
      }
      assertThat(twoRacks || chain.rackCount() == 1 || !groupHasAnotherRack(layout, primary)).isTrue();
    }
  }

  /** Whether the recovery group of {@code primary} has a server on another rack than the primary's. */
  private static boolean groupHasAnotherRack(EqualWorkLayout layout, int primary) {
    ActiveSet group = layout.recoveryGroup(primary);
    ExpansionChain chain = layout.chain();
    for (int p = group.next(0); p >= 0; p = group.next(p + 1)) {
      if (chain.rack(p) != chain.rack(primary)) {
        return true;
      }
    }
    return false;
  }
}
