package org.eafr.placement.gear.accordion;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearServers;
import org.eafr.placement.gear.OffloadLedger;

class AccordionLayoutPropertyTest {

  /**
   * Blocks written in random gears: each has a holder in the lowest group (so every gear keeps it available) and at
   * least two holders; after a gear-up to the top and the reflection, each holds every home.
   */
  @Property(tries = 1000, seed = "89")
  void lowGearWritesStayAvailable_andTheReflectionCompletesTheLayout(@ForAll @IntRange(min = 2, max = 5) int lowest,
      @ForAll @IntRange(min = 1, max = 3) int groups, @ForAll @IntRange(min = 2, max = 4) int replicas,
      @ForAll long seed) {
    Random random = new Random(seed);
    int servers = lowest;
    int[] sizes = new int[groups];
    sizes[0] = lowest;
    for (int k = 1; k < groups; k++) {
      sizes[k] = 1 + random.nextInt(8);
      servers += sizes[k];
    }
    ExpansionChain chain = GearServers.chain(servers, 1 + random.nextInt(2));
    AccordionLayout layout = new AccordionLayout(chain, sizes, Math.min(replicas, servers));
    OffloadLedger ledger = new OffloadLedger();
    for (int b = 0; b < 50; b++) {
      BlockPlacement placement = layout.place(BlockRequest.of("b" + b, Math.min(replicas, servers)),
          layout.serversOn(random.nextInt(groups)));
      boolean low = false;
      for (int i = 0; i < placement.size(); i++) {
        low |= layout.gearOf(placement.holder(i)) == 0;
      }
      assertThat(low).isTrue();
      assertThat(placement.size()).isGreaterThanOrEqualTo(2);
      ledger.record("b" + b, placement);
    }

    ActiveSet all = layout.serversOn(layout.maximumGear());
    for (int round = 0; round < 4 && ledger.blocks() > 0; round++) {
      for (BlockMove move : ledger.reflectionFor(all)) {
        ledger.moved(move);
      }
    }
    assertThat(ledger.blocks()).isZero();
  }

  /**
   * Random groups and r: every primary's homes are r distinct servers with the chained pair in the lowest group (for r =
   * 2 and a primary above it, the group-0 copy) and no more there unless every server above it is a home too; so with a lowest group of at least three servers, a failure
   * there leaves each of its blocks a server of gear 0 without a copy (where re-replication puts it), and with r >= 3
   * a copy above the lowest group.
   */
  @Property(tries = 1000, seed = "97")
  void theLowestGroupHoldsTheChainedPairOnly_soAFailureThereLeavesADestination(
      @ForAll @IntRange(min = 2, max = 6) int lowest, @ForAll @IntRange(min = 1, max = 4) int groups,
      @ForAll @IntRange(min = 2, max = 5) int replicas, @ForAll long seed) {
    Random random = new Random(seed);
    int[] sizes = new int[groups];
    sizes[0] = lowest;
    int servers = lowest;
    for (int k = 1; k < groups; k++) {
      sizes[k] = 1 + random.nextInt(8);
      servers += sizes[k];
    }
    int r = Math.min(replicas, servers);
    ExpansionChain chain = GearServers.chain(servers, 1 + random.nextInt(3));
    AccordionLayout layout = new AccordionLayout(chain, sizes, r);
    ActiveSet gear0 = layout.serversOn(0);
    for (int primary = 0; primary < servers; primary++) {
      ActiveSet homes = ActiveSet.of(chain, layout.homesOf(primary));
      assertThat(homes.size()).isEqualTo(r);
      int low = homes.size() - homes.minus(gear0).size();
      int above = servers - lowest;
      int pair = layout.gearOf(primary) == 0 || r >= 3 ? 2 : 1; // r = 2 above: the primary and its group-0 copy
      assertThat(low).as("primary %d of %s, r = %d", primary, homes, r).isEqualTo(Math.max(pair, r - above));
      if (r >= 3 && above > 0) {
        assertThat(homes.minus(gear0).isEmpty()).isFalse();
      }
      for (int failed = gear0.next(0); lowest >= 3 && low <= 2 && failed >= 0; failed = gear0.next(failed + 1)) {
        if (homes.contains(failed)) {
          assertThat(gear0.without(failed).minus(homes).isEmpty()).as("primary %d, %d failed", primary, failed)
              .isFalse();
        }
      }
    }
  }
}
