package org.eafr.placement.gear;

import java.util.Optional;
import java.util.function.Predicate;
import org.eafr.placement.cluster.ReplicatedFile;

/**
 * The floor under every gear shift (Rabbit Sec. 3.5, "availability": every block has a replica on at least one active
 * node): given the replica map and the servers that stay on, the first block that would be left without a live
 * replica on a server that stays on. The NameNode runs it once more after HDFS shows the leaving servers
 * IN_MAINTENANCE and before powering them off; the gear controller runs it for each gear it considers.
 *
 * <p>O(total replicas), no allocation beyond the answer. Stateless and thread-safe.
 *
 * <p>Worked example: blocks b1 on {A, B} and b2 on {B, C}; with A and C staying on both are available; with only A
 * staying on, b2 is the first unavailable block, its replicas on B and C.
 */
public final class AvailabilityCheck {
  private AvailabilityCheck() {
  }

  /** The first of {@code blocks}, in iteration order, with no replica on a server {@code staysOn} accepts. */
  public static Optional<UnavailableBlock> firstUnavailable(Iterable<ReplicatedFile> blocks,
      Predicate<String> staysOn) {
    return firstUnavailable(blocks, staysOn, id -> false);
  }

  /** The same, skipping the blocks whose ids {@code skip} accepts (e.g. those a cleanup move rescues). */
  public static Optional<UnavailableBlock> firstUnavailable(Iterable<ReplicatedFile> blocks,
      Predicate<String> staysOn, Predicate<String> skip) {
    for (ReplicatedFile block : blocks) {
      if (!anyStaysOn(block, staysOn) && !skip.test(block.id())) {
        return Optional.of(new UnavailableBlock(block.id(), block.replicaServers()));
      }
    }
    return Optional.empty();
  }

  /** The same over the servers of {@code staysOn} (ids outside its chain do not stay on). */
  public static Optional<UnavailableBlock> firstUnavailable(Iterable<ReplicatedFile> blocks, ActiveSet staysOn) {
    return firstUnavailable(blocks, (Predicate<String>) staysOn::contains);
  }

  private static boolean anyStaysOn(ReplicatedFile block, Predicate<String> staysOn) {
    for (String server : block.replicaServers()) {
      if (staysOn.test(server)) {
        return true;
      }
    }
    return false;
  }
}
