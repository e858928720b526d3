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
}
