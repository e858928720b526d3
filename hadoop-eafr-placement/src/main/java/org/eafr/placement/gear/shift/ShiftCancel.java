package org.eafr.placement.gear.shift;

import java.util.Set;
import org.eafr.placement.gear.GearedLayout;

/**
 * Where an operator's cancel ({@code hdfs eafr gear cancel}) leaves a shift (Rabbit Sec. 3: a gear is a prefix of the
 * expansion chain, so it is in force only when every server of that prefix is awake): the DataNodes that stay asleep
 * (the host decides which: {@link GearShift#cancel} keeps those not running) make every gear that keeps one of them on
 * unreachable, and the gear in force becomes the highest gear left (gear 0, the primaries, never sleeps).
 *
 * <p>Worked example ({@code GearShiftCancelTest}; equal-work, 12 servers, p = 4, g = 2: gear 1 keeps s0..s5 on,
 * gear 2 s0..s7, gear 3 s0..s9): with s6 and s7 off and every other server awake the gear in force is 1, the highest
 * whose servers are all awake; with s8..s11 off it is 2.
 */
public final class ShiftCancel {
  private ShiftCancel() {
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
