package org.eafr.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the simulated BMCs did to the hosts, from {@code bmc/events.log} ({@code MILLIS DRIVER HOST on|off|armed ...},
 * one line per action, written by scripts/lib/demo-host.sh): counts per driver and action since a time, so the report
 * can show that each power path (ipmi, redfish, wol) switched hosts both ways.
 *
 * <p>Example: lines {@code 5 ipmi dn3 off}, {@code 9 ipmi dn3 on}, {@code 7 wol dn8 off suspended by the power agent}
 * since time 0 count {@code ipmi off 1, ipmi on 1, wol off 1}.
 */
record PowerEvents(Map<String, Integer> counts) {
  static PowerEvents since(Path log, long sinceMillis) throws IOException {
    List<String> lines = Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
    return of(lines, sinceMillis);
  }

  static PowerEvents of(List<String> lines, long sinceMillis) {
    Map<String, Integer> counts = new TreeMap<>();
    for (String line : lines) {
      String[] f = line.trim().split("\\s+");
      if (f.length < 4) {
        continue;
      }
      try {
        if (Long.parseLong(f[0]) >= sinceMillis) {
          counts.merge(f[1] + " " + f[3], 1, Integer::sum);
        }
      } catch (NumberFormatException e) {
        // not an event line
      }
    }
    return new PowerEvents(counts);
  }

  int count(String driver, String action) {
    return counts.getOrDefault(driver + " " + action, 0);
  }

  /** Whether {@code driver} switched some host off and some host on. */
  boolean bothWays(String driver) {
    return count(driver, "off") > 0 && count(driver, "on") > 0;
  }
}
