package org.eafr.placement.gear.shift;

import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.GearedLayout;

/**
 * The DataNodes a gear shift acts on and the two waits between its phases (Rabbit, Amur et al., Sec. 3: a gear keeps
 * a prefix of the expansion chain on), as pure functions of the {@link ShiftState}, the layout and what HDFS shows,
 * shared by {@link GearShift} and the NameNode's gear service so that both compute them alike.
 *
 * <p>Worked example ({@code ShiftSetsTest}, the {@code ShiftFixture} layout: gear 0 keeps s0..s3 on, gear 1 s0..s5):
 * in a gear-down from 4 to 1 with s6..s11 sleeping and s11 being woken out of turn, the leaving DataNodes are s6..s10,
 * and s6..s9 once HDFS decommissions s10; in a gear-up from 0 to 1 with s4..s11 sleeping, the ones woken for the gear
 * are s4 and s5.
 */
public final class ShiftSets {
  private ShiftSets() {
  }

  /**
   * DataNodes asleep or going to sleep that the target gear does not keep on, not being woken and not
   * {@code outOfLayout} (HDFS decommissions them: a shift neither waits for nor powers them).
   */
  public static Set<String> leaving(GearedLayout layout, ShiftState state, Predicate<String> outOfLayout) {
    Set<String> leaving = new TreeSet<>(state.sleeping());
    leaving.removeIf(layout.serversOn(state.target())::contains); // O(1) a test: thousands of servers each step
    leaving.removeAll(state.waking());
    leaving.removeIf(outOfLayout);
    return leaving;
  }

  /** Sleeping DataNodes the target gear keeps on, not {@code outOfLayout}. */
  public static Set<String> wakingForGear(GearedLayout layout, ShiftState state, Predicate<String> outOfLayout) {
    Set<String> waking = new TreeSet<>(state.sleeping());
    ActiveSet on = layout.serversOn(state.target());
    waking.removeIf(id -> !on.contains(id));
    waking.removeIf(outOfLayout);
    return waking;
  }

  /**
   * Whether HDFS shows each of {@code ids} IN_MAINTENANCE, the gear-down's wait before its availability check: one
   * not registered (dead before a restart) is already safe to leave asleep.
   */
  public static boolean allInMaintenance(Iterable<String> ids, Function<String, DataNodeView> views) {
    for (String id : ids) {
      DataNodeView node = views.apply(id);
      if (node.registered() && node.admin() != AdminState.IN_MAINTENANCE) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether each of {@code ids} is registered, alive and has sent its block report: only then is it taken out of
   * maintenance (a dead DataNode out of maintenance would be re-replicated).
   */
  public static boolean allRegistered(Iterable<String> ids, Function<String, DataNodeView> views) {
    for (String id : ids) {
      if (!views.apply(id).registeredAndReported()) {
        return false;
      }
    }
    return true;
  }
}
