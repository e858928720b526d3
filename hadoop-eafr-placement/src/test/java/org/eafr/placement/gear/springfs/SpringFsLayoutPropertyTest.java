package org.eafr.placement.gear.springfs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.CleanupWork;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearServers;
import org.eafr.placement.gear.MutableClock;
import org.eafr.placement.gear.OffloadLedger;
import org.eafr.placement.gear.OffloadedReplica;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.gear.layout.EqualWorkShares;
import org.eafr.placement.gear.read.RecentLoad;

class SpringFsLayoutPropertyTest {

  /**
   * Blocks written with a random offload set in random gears; then any set of servers staying on. Every replica away
   * from home is in the ledger, and every block whose holders all leave has a cleanup move to a server that stays on.
   */
  @Property(tries = 1000, seed = "71")
  void offloadedBlocksAreAllAccountedForAsCleanupWork(@ForAll @IntRange(min = 1, max = 6) int primaries,
      @ForAll @IntRange(min = 2, max = 3) int replicas, @ForAll @IntRange(min = 1, max = 120) int blocks,
      @ForAll long seed) {
    Random random = new Random(seed);
    int servers = EqualWorkShares.exactSpread(primaries, replicas) + random.nextInt(4);
    ExpansionChain chain = GearServers.chain(servers, 1 + random.nextInt(3));
    EqualWorkLayout base = new EqualWorkLayout(chain, primaries, 1, replicas);
    SpringFsLayout layout = new SpringFsLayout(base, RecentLoad.springFs(servers, new MutableClock()),
        new Random(seed + 1));
    OffloadLedger ledger = new OffloadLedger();
    Set<OffloadedReplica> offloaded = new HashSet<>();

    for (int b = 0; b < blocks; b++) {
      layout.offloadSet(primaries + random.nextInt(servers - primaries + 1));
      ActiveSet on = layout.serversOn(random.nextInt(layout.maximumGear() + 1));
      BlockPlacement placement = layout.place(BlockRequest.of("b" + b, replicas).withWriter(random.nextInt(servers)),
          on);
      assertThat(placement.size()).isEqualTo(Math.min(replicas, on.size()));
      ledger.record("b" + b, placement);
      offloaded.addAll(placement.offloaded("b" + b));
    }
    assertThat(new HashSet<>(ledger.owed())).isEqualTo(offloaded);

    ActiveSet staysOn = layout.serversOn(random.nextInt(layout.maximumGear() + 1));
    CleanupWork cleanup = ledger.cleanupFor(staysOn);
    Set<String> rescued = new HashSet<>();
    for (BlockMove move : cleanup.moves()) {
      assertThat(staysOn.contains(move.to())).isTrue();
      assertThat(staysOn.contains(move.from())).isFalse();
      rescued.add(move.blockId());
    }
    for (OffloadedReplica replica : offloaded) {
      BlockPlacement placement = ledger.placement(replica.blockId()).orElseThrow();
      boolean live = false;
      for (int i = 0; i < placement.size(); i++) {
        live |= staysOn.contains(placement.holder(i));
      }
      assertThat(live || rescued.contains(replica.blockId())).as("%s", replica).isTrue();
    }
  }
}
