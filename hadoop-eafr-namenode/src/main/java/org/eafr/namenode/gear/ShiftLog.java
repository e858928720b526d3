package org.eafr.namenode.gear;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.eafr.placement.gear.shift.ShiftEvents;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.eafr.placement.gear.shift.ShiftState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NameNode log of the core gear shift's transitions, in the lines operators read (docs/namenode-metrics.md, "Gear
 * log lines"): each phase a shift enters, a gear reached, a gear-down cancelled after maintenance, waking out of turn
 * (as {@link ShiftEvents}, counted in {@link GearCounters} too), and once each what the core last reported.
 */
final class ShiftLog implements ShiftEvents {
  private static final Logger LOG = LoggerFactory.getLogger(GearService.class);

  private final GearCounters counters;
  private String loggedNews = "";

  ShiftLog(GearCounters counters) {
    this.counters = counters;
  }

  /** Logs the step from {@code before} to {@code after}, and {@code news} when it is new. */
  void stepped(ShiftState before, ShiftState after, String news) {
    ShiftPhase from = before.phase();
    ShiftPhase to = after.phase();
    if (from == ShiftPhase.ENTERING_MAINTENANCE && to == ShiftPhase.POWERING_OFF) {
      LOG.info("EAFR gears: {} DataNodes IN_MAINTENANCE and every block keeps a live replica; powering off {}",
          after.sleeping().size(), after.sleeping());
    } else if (from == ShiftPhase.POWERING_OFF && to == ShiftPhase.STEADY) {
      LOG.info("EAFR gears: gear {} reached; {} DataNodes sleep, powered off", after.gear(), after.sleeping().size());
    } else if (from == ShiftPhase.POWERING_ON && to == ShiftPhase.REGISTERING) {
      LOG.info("EAFR gears: hosts on for gear {}; waiting for their DataNodes to register and report", after.target());
    } else if (from == ShiftPhase.REGISTERING && to == ShiftPhase.REFLECTING) {
      LOG.info("EAFR gears: {} DataNodes registered and reported; out of maintenance, reflecting",
          before.sleeping().size() - after.sleeping().size());
    } else if (from == ShiftPhase.REFLECTING && to == ShiftPhase.STEADY) {
      LOG.info("EAFR gears: gear {} reached; reflection complete", after.gear());
    } else if (from == ShiftPhase.ENTERING_MAINTENANCE && to == ShiftPhase.STEADY) {
      Set<String> awake = new TreeSet<>(before.sleeping());
      awake.removeAll(after.sleeping());
      LOG.error("EAFR gears: {} {}; {} asleep since before it stay asleep", news, awake, after.sleeping().size());
      loggedNews = news;
      return;
    }
    if (!news.equals(loggedNews)) {
      loggedNews = news;
      LOG.info("EAFR gears: {}", news);
    }
  }

  @Override
  public void shiftStarted(int target, String decision) {
    counters.shiftStarted(target, decision);
  }

  @Override
  public void shiftRefused(String why) {
    counters.shiftRefused(why);
  }

  @Override
  public void wakeStarted(Set<String> ids, Map<String, String> failed) {
    counters.wakeStarted(ids, failed);
    LOG.warn("EAFR gears: {}: waking {} DataNodes {}", failed.isEmpty()
        ? "a block has no live replica; waking the group that holds it"
        : "a DataNode that should be on is dead or stale (" + named(failed) + "); waking its recovery group",
        ids.size(), ids);
  }

  @Override
  public void wakeStartedReadOnly(Set<String> ids, Map<String, String> failed) {
    counters.wakeStarted(ids, failed);
    LOG.warn("EAFR gears: in safe mode, a DataNode that should be on is dead ({}); powering on {} DataNodes of its"
        + " recovery group {} so HDFS finds the other replicas of its blocks; out of maintenance once safe mode ends",
        named(failed), ids.size(), ids);
  }

  /** Counted once, as a wake for blocks: the blocks HDFS's safe mode still waits for are on sleepers. */
  @Override
  public void wakeAllReadOnly(Set<String> ids, long waitedMillis) {
    counters.wakeStarted(ids, Map.of());
    LOG.warn("EAFR gears: still in safe mode {} ms after the recovery groups powered on for dead DataNodes registered"
        + " and reported (blocks written while their groups slept are on other sleepers); powering on every sleeping"
        + " DataNode, {}: {}; out of maintenance once safe mode ends", waitedMillis, ids.size(), ids);
  }

  /** Each failed DataNode by id with why: {@code 127.0.0.1:9866 dead, 127.0.0.1:9867 stale}. */
  static String named(Map<String, String> failed) {
    return failed.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
  }

  @Override
  public void woken(Set<String> ids) {
    counters.woken(ids);
    LOG.info("EAFR gears: {} DataNodes woken out of turn registered and reported; out of maintenance, on until the"
        + " next gear shift: {}", ids.size(), ids);
  }

  @Override
  public void blockReflected(String blockId) {
    counters.blockReflected(blockId);
  }

  @Override
  public void moveFailed(String blockId, String reason) {
    counters.moveFailed(blockId, reason);
    LOG.warn("EAFR gears: reflection move of block {} failed: {}", blockId, reason);
  }
}
