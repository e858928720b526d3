package org.eafr.placement.gear.dataset;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Which dataset a file belongs to (Rabbit Sec. 3.4: "a dataset is an arbitrary user-defined set of files"), by the
 * longest path prefix that matches it: a prefix matches the path itself and every path below it. A path no prefix
 * matches belongs to the default dataset.
 *
 * <p>Worked example: prefixes /logs -&gt; logs, /logs/archive -&gt; archive, default "default": /logs/2024/a is logs,
 * /logs/archive/b is archive, /logsheet is default (a prefix matches whole path components only).
 *
 * <p>Immutable. A prefix that does not start with "/" or repeats is refused naming it.
 */
public final class DatasetMap {
  private final String defaultDataset;
  private final Map<String, String> byPrefix;

  /** @param byPrefix path prefix to dataset name */
  public DatasetMap(String defaultDataset, Map<String, String> byPrefix) {
    this.defaultDataset = Objects.requireNonNull(defaultDataset, "defaultDataset");
    Map<String, String> normalized = new LinkedHashMap<>();
    for (Map.Entry<String, String> entry : byPrefix.entrySet()) {
      String prefix = entry.getKey();
      if (!prefix.startsWith("/")) {
        throw new IllegalArgumentException("dataset prefix " + prefix + " is not allowed: expected an absolute path"
            + " starting with /");
      }
      String trimmed = prefix.length() > 1 && prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1)
          : prefix;
      if (normalized.put(trimmed, Objects.requireNonNull(entry.getValue(), "dataset of " + prefix)) != null) {
        throw new IllegalArgumentException("dataset prefix " + prefix + " appears twice");
      }
    }
    this.byPrefix = Collections.unmodifiableMap(normalized);
  }

  /** The dataset of the file at {@code path}: the longest matching prefix's, or the default. */
  public String datasetOf(String path) {
    String best = null;
    for (String prefix : byPrefix.keySet()) {
      if (matches(prefix, path) && (best == null || prefix.length() > best.length())) {
        best = prefix;
      }
    }
    return best == null ? defaultDataset : byPrefix.get(best);
  }

  /** Every dataset named, the default first. */
  public List<String> datasets() {
    List<String> names = new ArrayList<>();
    names.add(defaultDataset);
    for (String name : byPrefix.values()) {
      if (!names.contains(name)) {
        names.add(name);
      }
    }
    return names;
  }

  private static boolean matches(String prefix, String path) {
    return prefix.equals("/") || path.equals(prefix) || path.startsWith(prefix + "/");
  }
}
