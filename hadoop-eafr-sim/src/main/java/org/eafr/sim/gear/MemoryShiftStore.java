package org.eafr.sim.gear;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.eafr.placement.gear.shift.OwedBlock;
import org.eafr.placement.gear.shift.ShiftState;
import org.eafr.placement.gear.shift.ShiftStore;

/** The gear shift's store in memory: a simulated run never restarts its NameNode, so nothing is written out. */
public final class MemoryShiftStore implements ShiftStore {
  private final TreeMap<String, OwedBlock> owed = new TreeMap<>();
  private ShiftState state;

  @Override
  public Optional<ShiftState> load() {
    return Optional.ofNullable(state);
  }

  @Override
  public void save(ShiftState next) {
    state = next;
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
    List<OwedBlock> batch = new ArrayList<>(Math.min(limit, owed.size()));
    for (OwedBlock block : owed.tailMap(after, false).values()) {
      if (batch.size() == limit) {
        break;
      }
      batch.add(block);
    }
    return batch;
  }

  @Override
  public long owedCount() {
    return owed.size();
  }
}
