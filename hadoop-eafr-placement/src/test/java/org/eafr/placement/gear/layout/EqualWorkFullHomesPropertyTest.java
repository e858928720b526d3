package org.eafr.placement.gear.layout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearServers;

/**
 * The equal-work layout on servers of unequal capacity with blocks of unequal size (EqualWorkLayout's "full homes"):
 * no server is filled past its capacity, no replica is dropped while r servers have room for the block, the primary replica stays in
 * gear 0 while a primary has room, and every non-primary is dealt its b_i within one block (every primary B / p within
 * three), whether or not it had room.
 */
class EqualWorkFullHomesPropertyTest {

  @Property(tries = 1000, seed = "41")
  void fullHomesAreSkipped_noServerOverfilled_noReplicaDropped_sharesDealtWithinOneBlock(
      @ForAll @IntRange(min = 1, max = 4) int groupSize, @ForAll @IntRange(min = 1, max = 6) int perGroup,
      @ForAll @IntRange(min = 2, max = 4) int replicas, @ForAll @IntRange(min = 0, max = 7) int spares,
      @ForAll @IntRange(min = 1, max = 1200) int blocks, @ForAll @IntRange(min = 1, max = 50) int largestBlock,
      @ForAll long seed) {
    int primaries = groupSize * perGroup;
    int servers = primaries + groupSize * EqualWorkShares.gearGroupsNeeded(primaries, groupSize, replicas) + spares;
    ExpansionChain chain = GearServers.chain(servers, 1);
    EqualWorkLayout layout = new EqualWorkLayout(chain, primaries, groupSize, replicas);
    Random random = new Random(seed);
    long[] capacity = new long[servers];
    for (int s = 0; s < servers; s++) {
      capacity[s] = 1 + random.nextInt(40 * largestBlock);
    }
    long[] used = new long[servers];
    long[] dealt = new long[servers];
    ActiveSet all = ActiveSet.all(chain);

    for (int b = 1; b <= blocks; b++) {
      long size = 1 + random.nextInt(largestBlock);
      int withRoom = 0;
      boolean primaryWithRoom = false;
      for (int s = 0; s < servers; s++) {
        boolean room = used[s] + size <= capacity[s];
        withRoom += room ? 1 : 0;
        primaryWithRoom |= room && s < primaries;
      }
      BlockPlacement placement = layout.place(BlockRequest.of("b" + b, replicas)
          .withSize(size, (position, bytes) -> used[position] + bytes <= capacity[position]), all);

      if (withRoom >= replicas) {
        assertThat(placement.size()).as("block %d: %d servers had room", b, withRoom).isEqualTo(replicas);
      }
      if (primaryWithRoom) {
        assertThat(placement.holder(0)).as("block %d's primary replica", b).isLessThan(primaries);
      }
      for (int i = 0; i < placement.size(); i++) {
        used[placement.holder(i)] += size;
        assertThat(used[placement.holder(i)]).isLessThanOrEqualTo(capacity[placement.holder(i)]);
        assertThat(placement.home(i)).isEqualTo(placement.holder(i));
        dealt[placement.displacedHome(i) >= 0 ? placement.displacedHome(i) : placement.home(i)]++;
      }
      if (placement.size() == replicas && (b % 97 == 0 || b == blocks)) {
        assertDealtWithinOneBlock(layout, dealt, b);
      }
      if (placement.size() < replicas) {
        return; // the cluster is out of room: the schedule dealt homes that no replica counts
      }
    }
  }

  private static void assertDealtWithinOneBlock(EqualWorkLayout layout, long[] dealt, int blocks) {
    int g = layout.groupSize();
    for (int position = 0; position < dealt.length; position++) {
      int group = layout.recoveryGroupOf(position);
      long groupBlocks = group < 0 ? 0 : (blocks - group + g - 1) / g;
      double target = group < 0 ? 0 : groupBlocks * layout.share(position) * g;
      // Non-primaries within one block (the Pfair deal); primaries within three (PrimaryDeal's bound on totals).
      double bound = position < layout.primaries() ? 3 : 1;
      assertThat(Math.abs(dealt[position] - target)).as("server %d after %d blocks: dealt %d, b_i = %.3f",
          position, blocks, dealt[position], target).isLessThan(bound + 1e-6);
    }
  }
}
