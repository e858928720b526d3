package org.eafr.sim;

import java.util.List;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.ReadBalancer;
import org.eafr.sim.model.SimFile;
import org.eafr.sim.policy.GearedPolicy;
import org.eafr.sim.stats.RunStats;

/**
 * Rabbit's degree of power proportionality (Sec. 3.4, (B/n) / (B/n + b_e)) of the data as it lies at the end of a
 * geared run: for each full gear keeping on at least 5%, 10%, ..., 100% of the servers, every file is read once through
 * a fresh balancer of the policy's kind; the busiest server serves B/n + b_e. Reported: the least over those gears (1
 * is ideal). Also the largest recovery group a failed server wakes.
 */
final class LayoutShape {
  private LayoutShape() {
  }

  static void measure(GearedPolicy geared, Gears gears, List<SimFile> files, int servers, RunStats stats) {
    GearedLayout layout = geared.layout();
    int[][] holders = new int[files.size()][];
    for (SimFile file : files) {
      holders[file.index()] = gears.positions(file);
    }
    double least = Double.NaN;
    int lastGear = -1;
    for (int percent = 5; percent <= 100; percent += 5) {
      int gear = 0;
      while (gear < layout.maximumGear() && layout.serversOn(gear).size() * 100 < percent * servers) {
        gear++;
      }
      if (gear == lastGear) {
        continue;
      }
      lastGear = gear;
      double degree = proportionality(geared.newBalancer(), holders, layout.serversOn(gear), servers);
      least = Double.isNaN(least) ? degree : Math.min(least, degree);
    }
    int largest = 0;
    for (int p = 0; p < layout.serversOn(0).size(); p++) { // the gear-0 servers: those whose failure wakes others
      largest = Math.max(largest, layout.recoveryGroup(p).size());
    }
    stats.layoutShape(least, largest);
  }

  private static double proportionality(ReadBalancer balancer, int[][] holders, ActiveSet on, int servers) {
    long[] served = new long[servers];
    long reads = 0;
    for (int[] h : holders) {
      int chosen = h.length == 0 ? -1 : balancer.choose(h, on);
      if (chosen >= 0) {
        served[chosen]++;
        reads++;
      }
    }
    long busiest = 0;
    for (long s : served) {
      busiest = Math.max(busiest, s);
    }
    return busiest == 0 ? Double.NaN : (double) reads / on.size() / busiest;
  }
}
