package org.eafr.placement.gear.shift;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/** A {@link ShiftStore} that keeps only encoded text, so every load is a round trip through the stored form. */
final class MemoryShiftStore implements ShiftStore {
  private String state;
  private final TreeMap<String, String> owed = new TreeMap<>();

  @Override
  public Optional<ShiftState> load() {
    return Optional.ofNullable(state).map(ShiftState::decode);
  }

  @Override
  public void save(ShiftState next) {
    state = next.encode();
  }

  @Override
  public void owe(OwedBlock block) {
    owed.put(block.blockId(), block.encode());
  }

  @Override
  public void forget(String blockId) {
    owed.remove(blockId);
  }

  @Override
  public List<OwedBlock> owedAfter(String after, int limit) {
    List<OwedBlock> blocks = new ArrayList<>();
    for (String text : owed.tailMap(after, false).values()) {
      if (blocks.size() == limit) {
        break;
      }
      blocks.add(OwedBlock.decode(text));
    }
    return blocks;
  }

  @Override
  public long owedCount() {
    return owed.size();
  }

  boolean owes(String blockId) {
    return owed.containsKey(blockId);
  }
}
