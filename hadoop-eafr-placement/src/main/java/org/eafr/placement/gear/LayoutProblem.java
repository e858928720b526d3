package org.eafr.placement.gear;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.eafr.placement.settings.EafrSettings;
import org.eafr.placement.settings.Setting;

/**
 * Why a geared layout cannot be built from the settings in force on a chain of N servers, in an operator's words: the
 * layout's keys with their values, the layout's own reason, and for each key the values that would build on this chain
 * with the other keys as set. A NameNode shows it (log, {@code hdfs eafr status}) and refuses every gear command with
 * it, instead of failing every gear step.
 *
 * <p>Worked example (the unit test checks it): equal-work with g = 3, p = 0 (the default N / e^(r-1), so p = 3) and
 * r = 3 on 9 servers leaves 2 gear groups, whose shares would need each block more than once in the first group
 * (2.4 / 2 = 1.2 copies); with the other keys as set, group sizes 1..2 build, and r = 2; no number of primaries
 * does (p must be a multiple of 3 below 9, and p = 6 leaves one gear group).
 */
public final class LayoutProblem {
  /** Values tried per key: 0 up to the chain's size, at most this (the layouts' keys are small numbers). */
  private static final int MAX_TRIED = 256;

  private LayoutProblem() {
  }

  /**
   * Builds {@code layout} (its name, e.g. equal-work) with {@code settings} on {@code chain} through {@code build}, or
   * throws an IllegalArgumentException whose message is the problem: {@code keys} are the settings that shape the
   * layout, each tried from 0 up to the chain's size (within its range) to say which values would build.
   */
  public static GearedLayout buildOrExplain(String layout, EafrSettings settings, ExpansionChain chain,
      BiFunction<EafrSettings, ExpansionChain, GearedLayout> build, List<Setting<Integer>> keys) {
    try {
      return build.apply(settings, chain);
    } catch (IllegalArgumentException e) {
      StringBuilder problem = new StringBuilder("the ").append(layout).append(" layout cannot be built on the ")
          .append(chain.size()).append(" DataNodes of the expansion chain with ");
      List<String> values = new ArrayList<>();
      keys.forEach(key -> values.add(key.key() + " = " + settings.get(key)));
      problem.append(String.join(", ", values)).append(": ").append(e.getMessage()).append("; allowed on ")
          .append(chain.size()).append(" DataNodes with the other keys as set: ");
      List<String> allowed = new ArrayList<>();
      for (Setting<Integer> key : keys) {
        allowed.add(key.key() + " " + ranges(valuesThatBuild(settings, chain, build, key)));
      }
      throw new IllegalArgumentException(problem.append(String.join("; ", allowed)).toString(), e);
    }
  }

  private static List<Integer> valuesThatBuild(EafrSettings settings, ExpansionChain chain,
      BiFunction<EafrSettings, ExpansionChain, GearedLayout> build, Setting<Integer> key) {
    List<Integer> ok = new ArrayList<>();
    for (int value = 0; value <= Math.min(chain.size(), MAX_TRIED); value++) {
      if (!key.range().contains(value)) {
        continue;
      }
      try {
        build.apply(settings.toBuilder().set(key, value).build(), chain);
        ok.add(value);
      } catch (IllegalArgumentException refused) {
        // not allowed with the other keys as set
      }
    }
    return ok;
  }

  /** 1, 2, 3, 5 as "1..3, 5"; none as "none". */
  static String ranges(List<Integer> values) {
    if (values.isEmpty()) {
      return "none";
    }
    List<String> parts = new ArrayList<>();
    int start = values.get(0);
    int previous = start;
    for (int i = 1; i <= values.size(); i++) {
      if (i < values.size() && values.get(i) == previous + 1) {
        previous = values.get(i);
        continue;
      }
      parts.add(start == previous ? String.valueOf(start) : start + ".." + previous);
      if (i < values.size()) {
        start = values.get(i);
        previous = start;
      }
    }
    return String.join(", ", parts);
  }
}
