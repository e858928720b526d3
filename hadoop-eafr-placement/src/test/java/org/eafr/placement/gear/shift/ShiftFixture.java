package org.eafr.placement.gear.shift;

import java.util.Random;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearServers;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.layout.EqualWorkLayout;

/**
 * The worked examples' cluster: 12 DataNodes s0..s11 on 3 racks, equal-work with p = 4, g = 2, r = 3 (gears 0..4 keep
 * 4, 6, 8, 10, 12 on), 24 blocks placed in the highest gear, replies landing the tick they are due, one move a step.
 */
final class ShiftFixture {
  final ExpansionChain chain = GearServers.chain(12, 3);
  final GearedLayout layout = new EqualWorkLayout(chain, 4, 2, 3);
  final MemoryShiftStore store = new MemoryShiftStore();
  final SimulatedCluster cluster = new SimulatedCluster(chain, new Random(1));

  ShiftFixture() {
    cluster.replyDelay = 0;
    for (int b = 0; b < 24; b++) {
      String id = "blk_" + b;
      cluster.addBlock(id, layout.place(BlockRequest.of(id, 3), ActiveSet.all(chain)).holderIds());
    }
  }

  /** The machine resumed from the store, as after a (re)start. */
  GearShift resume() {
    return GearShift.resume(layout, new ShiftPorts(cluster, cluster, cluster, cluster, store),
        new ShiftSettings(1, 3, 4));
  }

  /** The machine resumed and shifted to gear 0 (s4..s11 asleep, powered off). */
  GearShift inGearZero() {
    return inGearZero(resume());
  }

  /** {@code shift} shifted to gear 0 and steady there. */
  GearShift inGearZero(GearShift shift) {
    shift.request(0);
    steps(shift, 3);
    return shift;
  }

  /** Runs {@code steps} steps of {@code shift}, each after a tick of the cluster. */
  void steps(GearShift shift, int steps) {
    for (int s = 0; s < steps; s++) {
      cluster.tick();
      shift.step(cluster.tick);
    }
  }
}
