package org.eafr.namenode.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.gear.GearAutopilot;
import org.eafr.namenode.gear.GearMode;
import org.eafr.namenode.gear.GearStatus;
import org.eafr.namenode.replication.RoundPlanner;
import org.eafr.namenode.replication.RoundPreview;
import org.eafr.placement.gear.GearDecision;
import org.eafr.placement.popularity.FileTemperature;
import org.eafr.placement.replication.ReplicaAction;
import org.eafr.namenode.relayout.LowestGearRoom;

/**
 * {@code hdfs eafr plan [-json]}: what the next replication round would do ({@link ReplicationMonitor#preview()}),
 * each action with its file and reason, and, with gears, the gear mode and the gear controller's last decision in
 * auto mode, and whether the lowest gear holds one copy of the data ({@link LowestGearRoom}). Read-only: it starts nothing and moves no counter; it names files, so it is for the superuser, and it is
 * made off the IPC handlers ({@link PlanJob}).
 */
final class PlanReport {
  private final RoundPreview preview;
  private final Map<String, Object> gears;
  /** Whether the lowest gear holds one copy at the real fill; null while gears are off or the chain is not fixed. */
  private final LowestGearRoom lowestGear;

  private PlanReport(RoundPreview preview, Map<String, Object> gears, LowestGearRoom lowestGear) {
    this.preview = preview;
    this.gears = gears;
    this.lowestGear = lowestGear;
    if (lowestGear != null) {
      gears.put("lowestGearRoom", lowestGear.toJsonMap());
    }
  }

  static PlanReport of(NameNode nameNode, EafrRuntime runtime) throws IOException {
    RoundPlanner monitor = runtime.monitor();
    if (monitor == null) {
      throw new IllegalStateException("the replication monitor is not running on this NameNode"
          + " (dfs.namenode.plugins must name org.eafr.namenode.monitor.ReplicationMonitorPlugin)");
    }
    return new PlanReport(monitor.preview(), gears(runtime), LowestGearRoom.of(nameNode, runtime.gears(), runtime.settings().core()).orElse(null));
  }

  private static Map<String, Object> gears(EafrRuntime runtime) {
    Map<String, Object> gears = new LinkedHashMap<>();
    GearAutopilot autopilot = runtime.gears().autopilot();
    if (autopilot == null) {
      gears.put("mode", "off (eafr.layout = " + runtime.gears().settings().layout() + ")");
      return gears;
    }
    gears.put("mode", autopilot.mode().word());
    gears.put("gear", GearStatus.gearOrNull(runtime.gears().state().gear()));
    gears.put("targetGear", GearStatus.gearOrNull(runtime.gears().state().target()));
    gears.put("phase", runtime.gears().state().phase().name());
    autopilot.lastDecision().filter(d -> autopilot.mode() == GearMode.AUTO).ifPresent(decided -> {
      GearDecision decision = decided.decision();
      Map<String, Object> last = new LinkedHashMap<>();
      last.put("time", Instant.ofEpochMilli(decided.millis()).toString());
      last.put("opensPerSecond", decided.load().readsPerSecond());
      last.put("writeBytesPerSecond", decided.load().writeBytesPerSecond());
      last.put("xceivers", decided.load().transfers());
      last.put("dataNodesNeeded", decision.serversNeeded());
      last.put("previousGear", decision.previousGear());
      last.put("targetGear", decision.targetGear());
      last.put("reason", decision.reason().name());
      last.put("summary", decided.describe());
      gears.put("lastDecision", last);
    });
    return gears;
  }

  String json() {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("actions", actions(preview.starts()));
    root.put("deferred", actions(preview.deferred()));
    root.put("inFlight", preview.inFlight());
    root.put("files", preview.perClass());
    root.put("outcomes", preview.outcomes());
    root.put("standbysTurningCold", preview.standbysTurningCold());
    root.put("filesBelowMinReplicas", preview.filesBelowMinReplicas());
    root.put("readsTrackedFiles", preview.trackedFiles());
    root.put("readsFloor", preview.floor());
    root.put("gears", gears);
    try {
      return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<Map<String, Object>> actions(List<RoundPreview.Planned> planned) {
    List<Map<String, Object>> list = new ArrayList<>();
    for (RoundPreview.Planned p : planned) {
      ReplicaAction action = p.action();
      Map<String, Object> map = new LinkedHashMap<>();
      map.put("file", action.fileId());
      map.put("action", action.kind().name());
      map.put("source", action.source());
      map.put("target", action.target());
      map.put("bytes", action.sizeBytes());
      map.put("reason", p.reason());
      if (p.deferredBecause() != null) {
        map.put("deferredBecause", p.deferredBecause());
      }
      list.add(map);
    }
    return list;
  }

  String text() {
    StringBuilder text = new StringBuilder();
    text.append(String.format(Locale.ROOT, "next replication round (reads so far this interval: %d files tracked,"
        + " floor %d; files HOT %d, NORMAL %d, COLD %d):%n", preview.trackedFiles(), preview.floor(),
        preview.perClass().get(FileTemperature.HOT), preview.perClass().get(FileTemperature.NORMAL),
        preview.perClass().get(FileTemperature.COLD)));
    if (preview.starts().isEmpty()) {
      text.append("  no action\n");
    }
    for (RoundPreview.Planned planned : preview.starts()) {
      text.append(line(planned));
    }
    if (!preview.deferred().isEmpty()) {
      text.append("deferred to a later round:\n");
      for (RoundPreview.Planned planned : preview.deferred()) {
        text.append(line(planned)).append("    (").append(planned.deferredBecause()).append(")\n");
      }
    }
    preview.inFlight().forEach((file, action) -> text.append("in flight: ").append(file).append(": ").append(action)
        .append('\n'));
    if (!preview.standbysTurningCold().isEmpty()) {
      text.append("standby servers turning cold (Eq. 8): ").append(preview.standbysTurningCold()).append('\n');
    }
    text.append("planner outcomes:");
    preview.outcomes().forEach((outcome, count) -> {
      if (count > 0) {
        text.append(' ').append(outcome).append(' ').append(count);
      }
    });
    text.append('\n');
    text.append("gears: mode ").append(gears.get("mode"));
    if (gears.containsKey("gear")) {
      text.append(String.format(Locale.ROOT, ", gear %s (target %s, %s)", gears.get("gear"), gears.get("targetGear"),
          gears.get("phase")));
    }
    Object last = gears.get("lastDecision");
    if (last != null) {
      @SuppressWarnings("unchecked")
      Map<String, Object> decision = (Map<String, Object>) last;
      text.append("; last decision at ").append(decision.get("time")).append(": ").append(decision.get("summary"));
    }
    text.append('\n');
    return lowestGear == null ? text.toString() : text.append(lowestGear.text()).toString();
  }

  private static String line(RoundPreview.Planned planned) {
    ReplicaAction action = planned.action();
    return String.format(Locale.ROOT, "  %-7s %s (%d bytes): %s%n", action.kind(), action.fileId(),
        action.sizeBytes(), planned.reason());
  }
}
