package org.eafr.placement.gear.shift;

import java.util.List;
import java.util.Optional;

/**
 * Where a gear shift keeps what must survive a restart or failover (the NameNode: xattrs in the namespace, carried to
 * the standby by the edit log): the {@link ShiftState}, and what is owed: one record per {@link OwedBlock}, or one per
 * file expanded into its blocks as they are listed (the NameNode's; see {@link #cursorOf}). Writes are durable when
 * the call returns.
 */
public interface ShiftStore {
  /** The persisted state; empty before the first shift. */
  Optional<ShiftState> load();

  void save(ShiftState state);

  /** Records (or replaces) what {@code block} is owed. */
  void owe(OwedBlock block);

  /** Forgets block {@code blockId}: every home holds it, or it no longer exists. */
  void forget(String blockId);

  /**
   * Up to {@code limit} owed blocks listed after the one whose {@link #cursorOf cursor} is {@code after} ("" for the
   * first), in the store's order; by default in id order, the cursor being the id.
   */
  List<OwedBlock> owedAfter(String after, int limit);

  /**
   * Where {@code block}, as the last {@link #owedAfter} listed it, stands in the store's order: the {@code after} that
   * lists the blocks following it. Its id by default; a store that keeps what is owed per file (the NameNode: one
   * record per file, expanded into its blocks as it is listed) answers with the file's record and the block's place in
   * it, opaque to the shift.
   */
  default String cursorOf(OwedBlock block) {
    return block.blockId();
  }

  long owedCount();

  /**
   * What {@link #owedCount} counts, as an operator reads it (the cancel answer: "3 blocks still owe moves"): "blocks"
   * by default; a store that keeps one record per file answers "files".
   */
  default String owedUnit() {
    return "blocks";
  }
}
