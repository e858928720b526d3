package org.eafr.demo;

import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * When the cluster's power state has settled after the files are written, so that the replay (and its energy account)
 * starts from the state a cluster that runs on would be in, every policy reached the same way: the NameNode has no
 * shift under way and nothing about power has changed (its gear and target, each host on or off, each DataNode's admin
 * state and whether EAFR put it to sleep) for a whole window and for two decisions of whichever controller switches
 * hosts (the gear controller's, counted by {@code gearAutoDecisions}, or, with cold servers powered off, the
 * replication monitor's rounds), so a controller that would still act has had its turn. The window is two of that
 * controller's periods ({@code eafr.gear.auto.interval.ms}, or {@code eafr.interval.ms} if longer); without a
 * controller (every node on, the manual schedule) the window alone.
 *
 * <p>The two decisions must have sampled the load wholly inside the window: each decides on the load since the one
 * before it, so the first decision after the window opens still saw the files' writes and does not count. A decision
 * held by the minimum dwell ({@code gearAutoDecisionsHeldByDwell}) is a gear-down still to come: it restarts the
 * window (the count is part of the signature).
 *
 * <p>Worked example (window 16 s, the controller deciding every 8 s from 4 s): it holds at 4 s (the files' writes in
 * its sample), starts a gear-down at 12 s, whose hosts are off at 22 s; it holds at 28 s, 36 s and 44 s, so the state
 * is settled at 44 s (16 s unchanged, and the decisions at 36 s and 44 s sampled only the window). With every node on
 * nothing changes: settled at 16 s.
 */
final class SettleWatch {
  /** The first decision after the window opens sampled the load before it; the next two sampled only the window. */
  private static final int DECISIONS_IN_WINDOW = 3;
  private final long windowMillis;
  private String last;
  private long since;
  private long decisionsSince;

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
   * What must stay unchanged: gear, target and phase, the decisions held by the dwell, then per host whether it is on,
   * its DataNode's admin state and whether EAFR put it to sleep.
   */
  static String signature(ClusterProbe.View view, List<String> ids, boolean[] on) {
    StringBuilder text = new StringBuilder().append(view.gear()).append('>').append(view.targetGear()).append(' ')
        .append(view.phase()).append(" dwell-held ").append(view.heldByDwell());
    for (int i = 0; i < ids.size(); i++) {
      String id = ids.get(i);
      text.append(' ').append(on[i] ? "on" : "off").append('/').append(view.adminById().getOrDefault(id, "?"))
          .append('/').append(view.asleep(id));
    }
    return text.toString();
  }

  /**
   * Observes the cluster at {@code timeMillis}, its controller having made {@code decisions} so far (-1: no controller
   * switches hosts); true once it has been steady and unchanged for the window and for two decisions that sampled only
   * the window (three decisions since it opened).
   */
  boolean settled(long timeMillis, String signature, boolean steady, long decisions) {
    if (!steady) {
      last = null;
      return false;
    }
    if (!signature.equals(last)) {
      last = signature;
      since = timeMillis;
      decisionsSince = decisions;
    }
    return timeMillis - since >= windowMillis && (decisions < 0 || decisions - decisionsSince >= DECISIONS_IN_WINDOW);
  }

  /** Whether {@code view} shows no shift under way. */
  static boolean steady(ClusterProbe.View view) {
    return view.phase().equals("STEADY") && view.targetGear() == view.gear();
  }
}
