package org.eafr.demo;

import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * When the cluster's power state has settled after the files are written, so that the replay (and its energy account)
 * starts from the state a cluster that runs on would be in, every policy reached the same way: the NameNode has no
 * shift under way and nothing about power has changed for a whole window (its gear and target, each host on or off,
 * each DataNode's admin state and whether EAFR put it to sleep). The window is two rounds of whichever controller
 * switches hosts: the gear controller ({@code eafr.gear.auto.interval.ms}) or, with cold servers powered off, the
 * replication monitor ({@code eafr.interval.ms}), so a controller that would still act has had its turn.
 *
 * <p>Worked example (window 16 s): a gear-down starts at 5 s (phase not STEADY) and its hosts are off at 20 s; the
 * state is then unchanged, so it is settled at 36 s. With every node on nothing changes: settled at 16 s.
 */
final class SettleWatch {
  private final long windowMillis;
  private String last;
  private long since;

  SettleWatch(long windowMillis) {
    this.windowMillis = windowMillis;
  }

  /** Two rounds of the controller that switches hosts under {@code conf} (the cluster's hdfs-site.xml). */
  static long windowMillis(Configuration conf) {
    long round = conf.getLong("eafr.gear.auto.interval.ms", 60_000);
    if (conf.getBoolean("eafr.cold.power-off", false)) {
      round = Math.max(round, conf.getLong("eafr.interval.ms", 3_600_000));
    }
    return 2 * round;
  }

  /**
   * What must stay unchanged: gear, target and phase, then per host whether it is on, its DataNode's admin state and
   * whether EAFR put it to sleep.
   */
  static String signature(ClusterProbe.View view, List<String> ids, boolean[] on) {
    StringBuilder text = new StringBuilder().append(view.gear()).append('>').append(view.targetGear()).append(' ')
        .append(view.phase());
    for (int i = 0; i < ids.size(); i++) {
      String id = ids.get(i);
      text.append(' ').append(on[i] ? "on" : "off").append('/').append(view.adminById().getOrDefault(id, "?"))
          .append('/').append(view.asleep(id));
    }
    return text.toString();
  }

  /** Observes the cluster at {@code timeMillis}; true once it has been steady and unchanged for the window. */
  boolean settled(long timeMillis, String signature, boolean steady) {
    if (!steady) {
      last = null;
      return false;
    }
    if (!signature.equals(last)) {
      last = signature;
      since = timeMillis;
    }
    return timeMillis - since >= windowMillis;
  }

  /** Whether {@code view} shows no shift under way. */
  static boolean steady(ClusterProbe.View view) {
    return view.phase().equals("STEADY") && view.targetGear() == view.gear();
  }
}
