package org.eafr.placement.gear.shift;

import java.util.Optional;
import java.util.function.Function;

/**
 * What a shift under way waits for, as {@code hdfs eafr status} shows it: the first DataNode of the shift that holds
 * its phase, and why. Entering maintenance waits for a registered DataNode HDFS does not yet show IN_MAINTENANCE (an
 * unregistered one, dead before a restart, is safe to leave asleep); registering waits for a DataNode that has not
 * registered and reported its blocks; the power phases (and reflection, which follows a power-on) wait for what the
 * host's power controller says.
 *
 * <p>Worked example ({@code GearShiftStatusTest}): a gear-down from 4 to 0 right after its request waits for "DataNode
 * s10: not yet IN_MAINTENANCE (HDFS shows ENTERING_MAINTENANCE)" (s10 sorts first of the eight leaving).
 */
public final class ShiftBlocker {
  private final Function<String, DataNodeView> nodes;
  private final Function<String, Optional<String>> powerWhy;
  private final Function<String, String> names;

  /**
   * @param nodes the DataNode of an id as HDFS shows it
   * @param powerWhy why the host of an id has not reached its power state yet; empty when nothing is known against it
   * @param names how an operator knows the DataNode of an id
   */
  public ShiftBlocker(Function<String, DataNodeView> nodes, Function<String, Optional<String>> powerWhy,
      Function<String, String> names) {
    this.nodes = nodes;
    this.powerWhy = powerWhy;
    this.names = names;
  }

  /** The first DataNode of {@code ids} that holds a shift in {@code phase}, and why; empty when none does. */
  public Optional<String> of(ShiftPhase phase, Iterable<String> ids) {
    if (phase == ShiftPhase.STEADY) {
      return Optional.empty();
    }
    for (String id : ids) {
      Optional<String> why = why(phase, id);
      if (why.isPresent()) {
        return Optional.of("DataNode " + names.apply(id) + ": " + why.get());
      }
    }
    return Optional.empty();
  }

  private Optional<String> why(ShiftPhase phase, String id) {
    DataNodeView node = nodes.apply(id);
    switch (phase) {
      case ENTERING_MAINTENANCE:
        return !node.registered() || node.admin() == AdminState.IN_MAINTENANCE ? Optional.empty()
            : Optional.of("not yet IN_MAINTENANCE (HDFS shows " + node.admin().name() + ")");
      case REGISTERING:
        return node.registeredAndReported() ? Optional.empty()
            : Optional.of("powered on; its DataNode has not registered and reported its blocks yet");
      default:
        return powerWhy.apply(id);
    }
  }
}
