package org.eafr.placement.gear;

import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.eafr.placement.cluster.ReplicatedFile;

/**
 * The gear controller's floor over a whole replica map (every block and the servers holding it) and the layout's
 * {@link OffloadLedger}: the cleanup work is the ledger's; a block is unavailable on a set of servers staying on when
 * none of its holders stays on and no cleanup move takes it to one that does. Blocks the ledger does not know (say, a
 * replication-1 file written outside the layout) are never moved: they hold the gear up instead.
 *
 * <p>O(total replicas) per question. Reads the map it is given as it is when asked; the caller must not change it
 * concurrently (the simulator asks between events; a NameNode passes a snapshot).
 */
public final class ReplicaMapFloor implements GearFloor {
  private final Iterable<ReplicatedFile> blocks;
  private final OffloadLedger ledger;

  public ReplicaMapFloor(Iterable<ReplicatedFile> blocks, OffloadLedger ledger) {
    this.blocks = Objects.requireNonNull(blocks, "blocks");
    this.ledger = Objects.requireNonNull(ledger, "ledger");
  }

  @Override
  public CleanupWork cleanupFor(ActiveSet staysOn) {
    return ledger.cleanupFor(staysOn);
  }

  @Override
  public Optional<UnavailableBlock> firstUnavailable(ActiveSet staysOn) {
    Set<String> rescued = new HashSet<>();
    for (BlockMove move : ledger.cleanupFor(staysOn).moves()) {
      rescued.add(move.blockId());
    }
    return AvailabilityCheck.firstUnavailable(blocks, staysOn::contains, rescued::contains);
  }
}
