package org.eafr.placement.settings;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Refuses keys nobody reads: a misspelled {@code eafr.*} key in hdfs-site.xml would otherwise be ignored and its
 * default silently kept. The error names the key, its value and the nearest known key (edit distance), so
 * {@code eafr.min-replica = 3} answers "did you mean eafr.min-replicas?".
 */
public final class KnownKeys {
  private KnownKeys() {
  }

  /**
   * Checks every key of {@code present} (key to value) against {@code known}; keys starting with one of
   * {@code otherOwners} belong to another daemon's plugin (e.g. the DataNode's) and are left to it.
   *
   * @throws InvalidSettingException for the first unknown key in alphabetical order
   */
  public static void check(Map<String, String> present, Collection<String> known, Collection<String> otherOwners) {
    check(present, known, otherOwners, "docs/configuration.md");
  }

  /** As {@link #check(Map, Collection, Collection)}, with the document that lists the known keys named in errors. */
  public static void check(Map<String, String> present, Collection<String> known, Collection<String> otherOwners,
      String documentedIn) {
    for (Map.Entry<String, String> entry : new TreeMap<>(present).entrySet()) {
      String key = entry.getKey();
      if (known.contains(key) || otherOwners.stream().anyMatch(key::startsWith)) {
        continue;
      }
      String hint = nearest(key, known).map(k -> "did you mean " + k + "? ").orElse("");
      throw new InvalidSettingException(key, entry.getValue(), "unknown key; " + hint
          + "the known keys are in " + documentedIn);
    }
  }

  /**
   * The known key closest to {@code key}, if one is within a quarter of its length (at least 2) edits; of equally
   * close keys the alphabetically first.
   */
  public static Optional<String> nearest(String key, Collection<String> known) {
    String best = null;
    int bestDistance = Math.max(2, key.length() / 4) + 1;
    for (String candidate : new TreeSet<>(known)) {
      int distance = editDistance(key, candidate);
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return Optional.ofNullable(best);
  }

  /** Levenshtein distance: insertions, deletions and substitutions of one character each cost 1. */
  static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
