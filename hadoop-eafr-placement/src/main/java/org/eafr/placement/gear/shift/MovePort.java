package org.eafr.placement.gear.shift;

import org.eafr.placement.gear.BlockMove;

/**
 * Copies a block replica from one DataNode to another (the NameNode's replaceBlock, as the Balancer does; the
 * simulator's transfer), dropping the source copy once the target holds it when the move says so. Never blocks.
 */
public interface MovePort {
  /** Starts {@code move}; returns a ticket to poll. */
  long start(BlockMove move);

  /** The reply to the move {@code ticket} so far. */
  Reply poll(long ticket);
}
