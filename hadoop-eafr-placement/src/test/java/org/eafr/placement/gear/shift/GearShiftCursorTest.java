package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearServers;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.junit.jupiter.api.Test;

/**
 * Reflection walks a store in the store's own order, resuming from the cursor the store gives ({@link
 * ShiftStore#cursorOf}), not from a block id: the NameNode's store lists per-file records expanded into blocks.
 */
class GearShiftCursorTest {
  private final ExpansionChain chain = GearServers.chain(12, 3);
  private final GearedLayout layout = new EqualWorkLayout(chain, 4, 2, 3);

  @Test
  void reflectionPagesThroughAStoreWithOpaqueCursors_andBringsEveryBlockHome() {
    SimulatedCluster cluster = new SimulatedCluster(chain, new Random(1));
    cluster.replyDelay = 0;
    for (int b = 0; b < 12; b++) {
      String id = "blk_" + b;
      cluster.addBlock(id, layout.place(BlockRequest.of(id, 3), ActiveSet.all(chain)).holderIds());
    }
    DescendingStore store = new DescendingStore();
    GearShift shift = GearShift.resume(layout, new ShiftPorts(cluster, cluster, cluster, cluster, store),
        new ShiftSettings(1, 3, 4));
    shift.request(0);
    steps(cluster, shift, 3);
    List<String> written = new ArrayList<>();
    for (int w = 0; w < 9; w++) { // more than a page of 4 (one move a step)
      String id = "blk_w" + w;
      cluster.addBlock(id, List.of("s0", "s1", "s2"));
      shift.written(id, new BlockPlacement(chain, new int[] {0, 1, 2}, new int[] {0, 5, 9}));
      written.add(id);
    }
    assertThat(store.owedCount()).isEqualTo(9);

    shift.request(4);
    for (int s = 0; s < 100 && !(shift.state().phase() == ShiftPhase.STEADY && store.owedCount() == 0); s++) {
      steps(cluster, shift, 1);
    }

    assertThat(shift.state().phase()).isEqualTo(ShiftPhase.STEADY);
    assertThat(shift.state().gear()).isEqualTo(4);
    assertThat(store.owedCount()).isZero();
    assertThat(written).allSatisfy(id -> assertThat(cluster.holders(id)).containsExactlyInAnyOrder("s0", "s5",
        "s9"));
    assertThat(store.listedAfter).as("resumed from the store's own cursors").anyMatch(after -> after.startsWith("~"));
    assertThat(cluster.violations()).isEmpty();
  }

  private static void steps(SimulatedCluster cluster, GearShift shift, int n) {
    for (int s = 0; s < n; s++) {
      cluster.tick();
      shift.step(cluster.tick);
    }
  }

  /** Lists owed blocks in descending id order; its cursor is "~" and the id, which no block id is. */
  private static final class DescendingStore implements ShiftStore {
    private final MemoryShiftStore inner = new MemoryShiftStore();
    private final TreeMap<String, OwedBlock> owed = new TreeMap<>();
    final List<String> listedAfter = new ArrayList<>();

    @Override
    public Optional<ShiftState> load() {
      return inner.load();
    }

    @Override
    public void save(ShiftState state) {
      inner.save(state);
    }

    @Override
    public void owe(OwedBlock block) {
      owed.put(block.blockId(), block);
    }

    @Override
    public void forget(String blockId) {
      owed.remove(blockId);
    }

    @Override
    public List<OwedBlock> owedAfter(String after, int limit) {
      if (!after.isEmpty() && !after.startsWith("~")) {
        throw new IllegalArgumentException("cursor '" + after + "' is not this store's");
      }
      listedAfter.add(after);
      Iterable<OwedBlock> rest = after.isEmpty() ? owed.descendingMap().values()
          : owed.headMap(after.substring(1), false).descendingMap().values();
      List<OwedBlock> page = new ArrayList<>();
      for (OwedBlock block : rest) {
        if (page.size() == limit) {
          break;
        }
        page.add(block);
      }
      return page;
    }

    @Override
    public String cursorOf(OwedBlock block) {
      return "~" + block.blockId();
    }

    @Override
    public long owedCount() {
      return owed.size();
    }
  }
}
