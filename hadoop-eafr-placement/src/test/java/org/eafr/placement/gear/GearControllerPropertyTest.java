package org.eafr.placement.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.gear.layout.EqualWorkShares;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class GearControllerPropertyTest {
  private static final long MINUTE = 60_000L;

  /**
   * Blocks written in random gears (offloaded when their homes slept), some replication-1 blocks outside the layout,
   * some failed servers; then a run of random loads. After each decision's cleanup moves, every block with a holder
   * that has not failed has a holder the decision keeps on; and no gear-down comes within the dwell time of a shift.
   */
  @Property(tries = 1000, seed = "53")
  void aGearNeverLeavesABlockWithoutALiveReplica_andNeverFlaps(@ForAll @IntRange(min = 1, max = 3) int groupSize,
      @ForAll @IntRange(min = 1, max = 3) int perGroup, @ForAll @IntRange(min = 2, max = 3) int replicas,
      @ForAll @IntRange(min = 0, max = 2) int failures, @ForAll long seed) {
    Random random = new Random(seed);
    int primaries = groupSize * perGroup;
    int servers = primaries + groupSize * EqualWorkShares.gearGroupsNeeded(primaries, groupSize, replicas)
        + random.nextInt(3);
    ExpansionChain chain = GearServers.chain(servers, 1 + random.nextInt(3));
    EqualWorkLayout layout = new EqualWorkLayout(chain, primaries, groupSize, replicas);
    OffloadLedger ledger = new OffloadLedger();
    List<ReplicatedFile> blocks = new ArrayList<>();
    for (int b = 0; b < 40; b++) {
      ActiveSet on = layout.serversOn(random.nextInt(layout.maximumGear() + 1));
      BlockPlacement placement = layout.place(BlockRequest.of("b" + b, replicas), on);
      ledger.record("b" + b, placement);
      blocks.add(new ReplicatedFile("b" + b, 1, placement.holderIds()));
    }
    for (int b = 0; b < 3; b++) {
      blocks.add(ReplicatedFile.of("single" + b, 1, chain.id(random.nextInt(servers))));
    }
    int[] failedPositions = new int[failures];
    for (int f = 0; f < failures; f++) {
      failedPositions[f] = random.nextInt(servers);
    }
    ActiveSet failed = ActiveSet.of(chain, failedPositions);
    MutableClock clock = new MutableClock();
    GearController controller = new GearController(layout, new LoadSample(1, 0, 0, 0), 0.8, 0.1, 10 * MINUTE, 0,
        layout.maximumGear(), clock);
    ActiveSet on = layout.serversOn(layout.maximumGear()).minus(failed);
    long lastShift = 0;

    for (int step = 0; step < 12; step++) {
      clock.advanceMillis(random.nextInt(15) * MINUTE);
      LoadSample load = new LoadSample(random.nextDouble() * servers, 0, 0, 0);
      GearDecision decision = controller.decide(load, on, failed, new ReplicaMapFloor(blocks, ledger));
      for (BlockMove move : decision.cleanup().moves()) {
        apply(blocks, move, chain);
        ledger.moved(move);
      }
      for (ReplicatedFile block : blocks) {
        boolean survives = block.replicaServers().stream().anyMatch(id -> !failed.contains(id));
        boolean live = block.replicaServers().stream().anyMatch(decision.staysOn()::contains);
        assertThat(live || !survives).as("%s in %s", block, decision).isTrue();
      }
      if (decision.targetGear() < decision.previousGear() && decision.reason() == GearReason.DOWN_FOR_LOAD) {
        assertThat(clock.millis() - lastShift).isGreaterThanOrEqualTo(10 * MINUTE);
      }
      if (decision.shifts()) {
        lastShift = clock.millis();
      }
      on = decision.staysOn();
    }
  }

  private static void apply(List<ReplicatedFile> blocks, BlockMove move, ExpansionChain chain) {
    for (int i = 0; i < blocks.size(); i++) {
      ReplicatedFile block = blocks.get(i);
      if (block.id().equals(move.blockId())) {
        List<String> holders = new ArrayList<>(block.replicaServers());
        holders.add(chain.id(move.to()));
        if (move.dropSource()) {
          holders.remove(chain.id(move.from()));
        }
        blocks.set(i, new ReplicatedFile(block.id(), block.sizeBytes(), holders));
      }
    }
  }
}
