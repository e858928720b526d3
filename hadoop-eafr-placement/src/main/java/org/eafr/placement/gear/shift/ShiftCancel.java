package org.eafr.placement.gear.shift;

import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.eafr.placement.gear.GearedLayout;

/**
 * Where an operator's cancel ({@code hdfs eafr gear cancel}) leaves a shift (Rabbit Sec. 3: a gear is a prefix of the
 * expansion chain, so it is in force only when every server of that prefix is awake): the sleeping DataNodes not
 * running stay asleep in maintenance and the running ones leave it ({@link #of}, the one rule of the simulator's and
 * the NameNode's cancel); those that stay asleep make every gear that keeps one of them on unreachable (one HDFS
 * decommissions excepted), and the gear in force becomes the highest gear left (gear 0, the primaries, never sleeps).
 *
 * <p>Worked example ({@code GearShiftCancelTest}; equal-work, 12 servers, p = 4, g = 2: gear 1 keeps s0..s5 on,
 * gear 2 s0..s7, gear 3 s0..s9): with s6 and s7 off and every other server awake the gear in force is 1, the highest
 * whose servers are all awake; with s8..s11 off it is 2.
 */
public final class ShiftCancel {
  private ShiftCancel() {
  }

  /** Where a cancel leaves a shift: the state to persist, and what to answer. */
  public static final class Outcome {
    private final ShiftState next;
    private final String was;
    private final int reached;
    private final Set<String> off;
    private final Set<String> on;

    private Outcome(ShiftState next, String was, int reached, Set<String> off, Set<String> on) {
      this.next = next;
      this.was = was;
      this.reached = reached;
      this.off = off;
      this.on = on;
    }

    /** Steady in the gear reached, the DataNodes not running asleep, nothing waking. */
    public ShiftState next() {
      return next;
    }

    /** The answer ({@link ShiftCancel#answer}) with {@code owed} records of the host's {@code unit} still owed. */
    public String answer(long owed, String unit) {
      return ShiftCancel.answer(was, reached, off, on, owed, unit);
    }
  }

  /**
   * The cancel of {@code state}: its sleeping DataNodes {@code running} accepts leave maintenance, the others stay
   * asleep; the gear reached ignores those {@code outOfLayout} accepts (HDFS decommissions them).
   */
  public static Outcome of(GearedLayout layout, ShiftState state, Predicate<String> running,
      Predicate<String> outOfLayout) {
    Set<String> off = new TreeSet<>();
    Set<String> on = new TreeSet<>();
    for (String id : state.sleeping()) {
      (running.test(id) ? on : off).add(id);
    }
    Set<String> offInLayout = new TreeSet<>(off);
    offInLayout.removeIf(outOfLayout);
    int reached = reachedGear(layout, offInLayout);
    return new Outcome(state.cancelledAt(reached, off), shiftName(state), reached, off, on);
  }

  /** The highest gear of {@code layout} that keeps none of {@code off} on; 0 when every higher gear does. */
  public static int reachedGear(GearedLayout layout, Set<String> off) {
    for (int gear = layout.maximumGear(); gear > 0; gear--) {
      if (layout.serversOn(gear).ids().stream().noneMatch(off::contains)) {
        return gear;
      }
    }
    return 0;
  }

  /**
   * What a cancel answers, in one wording for every host: the shift ended ({@code was}), the gear in force, the
   * DataNodes not running that stay asleep in maintenance, those taken out of it, and what is still owed ({@code owed}
   * records of the host's {@code unit}: blocks in the core's store, files on a NameNode that records whole files).
   */
  public static String answer(String was, int reached, Set<String> off, Set<String> on, long owed, String unit) {
    return was + " cancelled: gear " + reached + " in force; " + off.size() + " DataNodes not running stay asleep in"
        + " maintenance " + off + "; " + on.size() + " DataNodes out of maintenance " + on + "; " + owed + " " + unit
        + " still owed, moved once their homes are on";
  }

  /** How a cancel names the shift it ends: its target, its phase, and the DataNodes being woken out of turn. */
  public static String shiftName(ShiftState state) {
    return "shift to gear " + state.target() + " (" + state.phase() + (state.waking().isEmpty() ? ""
        : ", " + state.waking().size() + " DataNodes being woken out of turn") + ")";
  }
}
