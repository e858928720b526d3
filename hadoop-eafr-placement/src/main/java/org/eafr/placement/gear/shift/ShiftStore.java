package org.eafr.placement.gear.shift;

import java.util.List;
import java.util.Optional;

/**
 * Where a gear shift keeps what must survive a restart or failover (the NameNode: xattrs in the namespace, carried to
 * the standby by the edit log): the {@link ShiftState}, and one record per {@link OwedBlock}. Writes are durable when
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

  /** Up to {@code limit} owed blocks whose ids sort after {@code after} ("" for the first), in id order. */
  List<OwedBlock> owedAfter(String after, int limit);

  long owedCount();
}
