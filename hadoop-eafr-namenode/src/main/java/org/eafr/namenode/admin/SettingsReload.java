package org.eafr.namenode.admin;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.eafr.namenode.config.NamenodeSettings;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.runtime.SettingsDefaults;

/**
 * {@code hdfs eafr settings reload}: re-reads the NameNode's configuration (its files, hdfs-site.xml, as HDFS's own
 * {@code dfsadmin -reconfig} does), checks every eafr.* key as at start, and puts in force the keys reloadable at run
 * time: {@code eafr.reads.warm-up.ms} (the reader ordering reads it at each wake). Any other eafr.* key whose value
 * changed is named: it takes a restart. A misspelled key or a bad value refuses the reload, naming it, and nothing
 * changes. Undone the same way: the old value back in the file, and reload again. Each NameNode reloads its own.
 */
final class SettingsReload {
  private SettingsReload() {
  }

  static String reload(Configuration inForce, EafrRuntime runtime, boolean json) {
    Configuration fresh = new Configuration(inForce);
    fresh.reloadConfiguration();
    Map<String, String> keys = fresh.getValByRegex("^eafr\\.");
    NamenodeSettings next;
    try {
      SettingsDefaults.checkKeys(keys);
      next = NamenodeSettings.from(fresh::get);
    } catch (IllegalArgumentException bad) {
      throw new IllegalArgumentException("settings reload refused: " + bad.getMessage() + "; the settings in force"
          + " are unchanged", bad);
    }
    long before = runtime.readsWarmUpMillis().getAndSet(next.readsWarmUpMillis());
    String key = NamenodeSettings.READS_WARM_UP_MS.key();
    Map<String, String> restart = new TreeMap<>();
    Map<String, String> started = inForce.getValByRegex("^eafr\\.");
    for (String name : union(keys, started).keySet()) {
      if (!name.equals(key) && !Objects.equals(keys.get(name), started.get(name))) {
        restart.put(name, keys.get(name));
      }
    }
    if (json) {
      Map<String, Object> answer = new LinkedHashMap<>();
      answer.put(key, next.readsWarmUpMillis());
      answer.put("before", Map.of(key, before));
      answer.put("needRestart", restart);
      return ClusterReport.json(answer);
    }
    String reloaded = before == next.readsWarmUpMillis() ? key + " = " + before + " (unchanged)"
        : key + " = " + next.readsWarmUpMillis() + " (was " + before + ")";
    return "EAFR settings reloaded: " + reloaded + (restart.isEmpty() ? ""
        : "; changed but in force only after a NameNode restart: " + String.join(", ", restart.keySet()));
  }

  private static Map<String, String> union(Map<String, String> a, Map<String, String> b) {
    Map<String, String> all = new TreeMap<>(b);
    all.putAll(a);
    return all;
  }
}
