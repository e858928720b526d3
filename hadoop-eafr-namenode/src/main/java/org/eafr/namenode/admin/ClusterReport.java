package org.eafr.namenode.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.relayout.RelayoutService;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.cluster.MetricNames;
import org.eafr.namenode.energy.EnergySnapshot;
import org.eafr.namenode.gear.GearStatus;
import org.eafr.namenode.grid.GridGate;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.replication.MonitorStats;
import org.eafr.namenode.power.DataNodePowerState;
import org.eafr.namenode.power.PowerManager;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.grid.WorkKind;
import org.eafr.placement.power.ClusterEnergy;
import org.eafr.namenode.relayout.LowestGearRoom;

/**
 * What {@code hdfs eafr status} and {@code nodes} answer, read from one NameNode at one moment: its HA state, the
 * roles file in force, the replication monitor's counters (the same numbers as the EafrNameNode JMX bean), and each
 * DataNode. Rendered as aligned text for people or as JSON for scripts; the JSON carries every field the text shows.
 */
final class ClusterReport {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final String nameNode;
  private final String haState;
  private final boolean safeMode;
  private final String rolesFile;
  private final String unlistedRole;
  private final String rolesProblem;
  private final long intervalMillis;
  private final MonitorStats stats;
  private final GearStatus gears;
  /** The relayout service, or null when gears are off. */
  private final RelayoutService relayout;
  /** DataNodes outside the gears' layout, id to why (empty without a chain or without gears). */
  private final Map<String, String> outsideLayout;
  private final EnergySnapshot energy;
  private final Map<String, Long> powerCounters;
  /** eafr.cold.power-off in force, and each cold server's sleep state line by DataNode id. */
  private final boolean coldPowerOff;
  private final Map<String, String> coldServers;
  private final List<NodeReport> nodes = new ArrayList<>();
  /** Whether the lowest gear holds one copy at the real fill; null while gears are off or the chain is not fixed. */
  private final LowestGearRoom lowestGear;
  /** Whether the geared policy brings owed replicas home by passive migration (springfs). */
  private final boolean passiveMigration;

  private ClusterReport(NameNode nameNode, EafrRuntime runtime) {
    this.nameNode = String.valueOf(nameNode.getNameNodeAddress());
    this.haState = nameNode.getState() == null ? "unknown" : nameNode.getState().toLowerCase(Locale.ROOT);
    this.safeMode = nameNode.getNamesystem().isInSafeMode();
    this.rolesFile = runtime.roles().file().source();
    this.unlistedRole = runtime.roles().file().unlistedRole().name();
    this.rolesProblem = runtime.roles().problem().orElse(null);
    this.intervalMillis = runtime.settings().core().intervalMillis();
    this.stats = runtime.monitorStats();
    this.gears = GearStatus.of(runtime.gears());
    this.passiveMigration = runtime.gears().migratesPassively();
    this.relayout = runtime.relayout();
    this.outsideLayout = runtime.gears().service() == null ? Map.of() : runtime.gears().service().outsideLayout();
    // A fresh sample, so each DataNode's power state and draw agree with the totals (and the metrics, until the next).
    this.energy = runtime.energy() == null ? null : runtime.energy().sample();
    PowerManager power = runtime.gears().power();
    this.powerCounters = power == null ? null : power.metrics().counters();
    this.coldPowerOff = runtime.coldHosts().enabled();
    this.coldServers = runtime.coldHosts().states();
    ServerTranslator translator = runtime.translator();
    for (DatanodeDescriptor dataNode : nameNode.getNamesystem().getBlockManager().getDatanodeManager()
        .getDatanodeListForReport(DatanodeReportType.ALL)) {
      nodes.add(NodeReport.of(dataNode, translator, runtime,
          energy == null ? null : energy.nodes().get(ServerTranslator.idOf(dataNode))));
    }
    nodes.sort(Comparator.comparing((NodeReport n) -> n.rack).thenComparing(n -> n.id));
    this.lowestGear = LowestGearRoom.of(nameNode, runtime.gears(), runtime.settings().core()).orElse(null);
  }

  static ClusterReport of(NameNode nameNode, EafrRuntime runtime) {
    return new ClusterReport(nameNode, runtime);
  }

  Map<String, Object> statusMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("nameNode", nameNode);
    map.put("haState", haState);
    map.put("safeMode", safeMode);
    map.put("rolesFile", rolesFile);
    map.put("unlistedRole", unlistedRole);
    map.put("rolesProblem", rolesProblem);
    map.put("intervalMillis", intervalMillis);
    map.put("nodesPerRole", nodesPerRole());
    Map<String, Object> monitor = new LinkedHashMap<>();
    monitor.put("rounds", stats.rounds());
    monitor.put("replicasAdded", stats.added());
    monitor.put("replicasRemoved", stats.removed());
    monitor.put("replicasMigrated", stats.migrated());
    monitor.put("bytesMoved", stats.bytesMoved());
    monitor.put("bytesMigrated", stats.bytesMigrated());
    monitor.put("migrationsOwed", stats.owedMigrations());
    monitor.put("filesBelowMinReplicas", stats.filesBelowMinReplicas());
    monitor.put("someFilesBelowMinReplicas", stats.someFilesBelowMinReplicas());
    map.put("monitor", monitor);
    Map<String, Object> gearMap = new LinkedHashMap<>(gears.toJsonMap());
    gearMap.put("outsideLayout", outsideLayout);
    gearMap.put("lowestGearRoom", lowestGear == null ? null : lowestGear.toJsonMap());
    map.put("gears", gearMap);
    map.put("relayout", relayout == null ? null : relayout.values());
    map.put("energy", energy == null ? null : energy.toJsonMap());
    map.put("power", powerCounters == null ? null : MetricNames.toJson(powerCounters));
    Map<String, Object> cold = new LinkedHashMap<>();
    cold.put("powerOff", coldPowerOff);
    cold.put("servers", coldServers);
    map.put("coldSleep", cold);
    map.put("nodes", nodesList());
    return map;
  }

  private Map<String, Integer> nodesPerRole() {
    Map<ServerRole, Integer> counts = new EnumMap<>(ServerRole.class);
    for (ServerRole role : ServerRole.values()) {
      counts.put(role, 0);
    }
    for (NodeReport node : nodes) {
      counts.merge(ServerRole.valueOf(node.role), 1, Integer::sum);
    }
    Map<String, Integer> byName = new LinkedHashMap<>();
    counts.forEach((role, count) -> byName.put(role.name(), count));
    return byName;
  }

  private List<Map<String, Object>> nodesList() {
    List<Map<String, Object>> list = new ArrayList<>();
    for (NodeReport node : nodes) {
      list.add(node.toMap());
    }
    return list;
  }

  /** The cold servers' sleep (eafr.cold.power-off): one line per DataNode it looks after. */
  private String coldSleepText() {
    if (!coldPowerOff) {
      return coldServers.isEmpty() ? "" : "cold servers: stay on in maintenance (eafr.cold.power-off = false)\n";
    }
    StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
        "cold servers sleep (eafr.cold.power-off = true): %d followed%n", coldServers.size()));
    coldServers.forEach((id, line) -> text.append("  cold ").append(id).append(": ").append(line).append('\n'));
    return text.toString();
  }

  String statusJson() {
    return json(statusMap());
  }

  String nodesJson() {
    return json(Map.of("nodes", nodesList()));
  }

  String statusText() {
    StringBuilder text = new StringBuilder();
    text.append(String.format(Locale.ROOT, "NameNode %s (%s%s)%n", nameNode, haState, safeMode ? ", safe mode" : ""));
    text.append(String.format(Locale.ROOT, "roles file %s, unlisted DataNodes %s; interval %d s%n", rolesFile,
        unlistedRole, intervalMillis / 1000));
    if (rolesProblem != null) {
      text.append("roles problem (the monitor waits for it to clear): ").append(rolesProblem).append('\n');
    }
    text.append("DataNodes per role:");
    nodesPerRole().forEach((role, count) -> text.append(' ').append(role).append(' ').append(count));
    text.append(String.format(Locale.ROOT, "%nmonitor: rounds %d, replicas added %d, removed %d, migrated %d,"
        + " bytes moved %d, migrations owed to sleeping gears %d%n", stats.rounds(), stats.added(), stats.removed(),
        stats.migrated(), stats.bytesMoved(), stats.owedMigrations()));
    Map<String, Object> gear = gears.values();
    if (gear.get("LayoutProblem") != null) {
      text.append(String.format(Locale.ROOT, "gears (%s): cannot run, every DataNode stays on: %s%n",
          gear.get("Layout"), gear.get("LayoutProblem")));
    } else if ("random".equals(gear.get("Layout"))) {
      text.append("gears: off (eafr.layout = random)\n");
    } else if (gear.get("MaximumGear") == null) {
      text.append(String.format(Locale.ROOT, "gears (%s): no expansion chain yet; it is fixed once"
          + " eafr.gear.expected-datanodes DataNodes have registered, or by the first gear command%n",
          gear.get("Layout")));
    } else {
      text.append(String.format(Locale.ROOT, "gears (%s): gear %s of 0..%s, target %s, %s; %s DataNodes sleep;"
          + " reflection backlog %s files%n", gear.get("Layout"), gear.get("Gear"), gear.get("MaximumGear"),
          gear.get("TargetGear"), gear.get("GearPhase"), gear.get("SleepingNodes"),
          gear.get("ReflectionBacklogFiles")));
      if (passiveMigration) {
        text.append(String.format(Locale.ROOT, "passive migration: backlog %s files; %s blocks (%s bytes) migrated"
            + " home, %s files dropped (their homes hold their shares)%n", gear.get("PassiveMigrationBacklogFiles"),
            gear.get("PassiveMigratedBlocks"), gear.get("PassiveMigratedBytes"), gear.get("PassiveMigrationsDropped")));
      }
      if (gear.get("GearBlockedBy") != null) {
        text.append("shift waits for ").append(gear.get("GearBlockedBy")).append('\n');
      }
      if (gear.get("GearSafeModeWake") != null) {
        text.append("powering on in safe mode: ").append(gear.get("GearSafeModeWake")).append('\n');
      }
      outsideLayout.forEach((id, why) -> text.append("outside the layout: ").append(id).append(": ").append(why)
          .append('\n'));
      if (lowestGear != null) {
        text.append(lowestGear.text());
      }
      text.append(String.format(Locale.ROOT, "gear mode %s; auto decisions %s, shifts started by auto %s%s%n",
          gear.get("GearMode"), gear.get("GearAutoDecisions"), gear.get("GearAutoShifts"),
          gear.get("GearAutoLastDecision") == null ? "" : "; last: " + gear.get("GearAutoLastDecision")));
    }
    text.append(gridText(gear));
    if (relayout != null) {
      text.append(relayout.statusText()).append('\n');
    }
    text.append(coldSleepText());
    text.append(energyText());
    if (stats.filesBelowMinReplicas() > 0) {
      text.append(String.format(Locale.ROOT, "files below eafr.min-replicas: %d (e.g. %s); raise them with"
          + " 'hdfs dfs -setrep'%n", stats.filesBelowMinReplicas(), stats.someFilesBelowMinReplicas()));
    }
    return text.append('\n').append(nodesText()).toString();
  }

  /**
   * The grid line: objective, signal (or why work falls back to energy only), intensity and price now, gCO2 and EUR
   * since start, and each kind of held work (reflection, relayout, cold-migration, trim) with its deadline.
   */
  static String gridText(Map<String, Object> gear) {
    StringBuilder text = new StringBuilder("grid (objective ").append(gear.get("GridObjective")).append("): ");
    if (gear.get("GridFallback") != null) {
      text.append("energy-only fallback: ").append(gear.get("GridFallback")).append("; ");
    } else if (gear.get("GridSignal") == null) {
      text.append(gear.get("GridSignalProblem")).append("; ");
    }
    text.append(String.format(Locale.ROOT, "now %s gCO2/kWh, %s EUR/MWh; since start %s gCO2, %s EUR",
        number(gear.get("GridCarbonIntensity"), "%.1f"), number(gear.get("GridPrice"), "%.2f"),
        number(gear.get("GridCarbon"), "%.1f"), number(gear.get("GridCost"), "%.4f")));
    if (gear.get("GridTargetUtilization") != null) {
      text.append(String.format(Locale.ROOT, "; target utilization %.3f", gear.get("GridTargetUtilization")));
    }
    text.append(String.format("%n"));
    for (WorkKind kind : GridGate.KINDS) {
      String name = GridGate.valueName(kind);
      if (gear.get(name + "HeldUntil") != null) {
        text.append(String.format(Locale.ROOT, "%s held until %s, deadline %s%n", kind.key(),
            gear.get(name + "HeldUntil"), gear.get(name + "Deadline")));
      }
    }
    return text.toString();
  }

  private static String number(Object value, String format) {
    return value == null ? "n/a" : String.format(Locale.ROOT, format, value);
  }

  private String energyText() {
    if (energy == null) {
      return "energy: n/a (the replication monitor plugin is not running)\n";
    }
    ClusterEnergy.Sample sample = energy.sample();
    StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "energy: %.1f W now (%.1f W with every DataNode"
        + " on); since start %.4f kWh used, %.4f kWh saved%nDataNodes per power state:", sample.watts(),
        sample.allOnWatts(), sample.kilowattHours(), sample.savedKilowattHours()));
    for (DataNodePowerState state : DataNodePowerState.values()) {
      text.append(' ').append(state).append(' ').append(energy.count(state));
    }
    text.append(String.format(Locale.ROOT, "%nmeasured by BMCs: %.1f W of the draw now, %.4f kWh of the energy used;"
        + " the rest is the power model's (eafr.energy.*)%n", sample.measuredWatts(), sample.measuredKilowattHours()));
    if (powerCounters != null) {
      text.append(String.format(Locale.ROOT, "power actions: powered on %d, powered off %d, failed attempts %d,"
          + " quarantines %d; BMC polls: measured readings %d, failed polls %d%n", powerCounters.get("PoweredOn"),
          powerCounters.get("PoweredOff"), powerCounters.get("PowerFailedAttempts"),
          powerCounters.get("PowerQuarantines"), powerCounters.get("PowerMeasurements"),
          powerCounters.get("PowerPollErrors")));
    }
    return text.toString();
  }

  /** The DataNode table: each one's IP:transfer port (the id EAFR and HDFS use) and its host name beside it. */
  String nodesText() {
    int hostWidth = nodes.stream().mapToInt(n -> String.valueOf(n.host).length()).max().orElse(0);
    String host = "%-" + Math.max("HOST".length(), hostWidth) + "s ";
    StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
        "%-22s " + host + "%-8s %-8s %-4s %-13s %-21s %-5s %-11s %-10s %-11s %s%n", "DATANODE", "HOST", "RACK",
        "ROLE", "GEAR", "POWER", "ADMIN STATE", "ALIVE", "LOAD", "STORAGE", "MODEL W", "MEASURED W"));
    for (NodeReport node : nodes) {
      text.append(String.format(Locale.ROOT, "%-22s " + host
          + "%-8s %-8s %-4s %-13s %-21s %-5s %3d/%-3d %3.0f%% %6.1f%%    %-11s %s%n", node.id, node.host, node.rack,
          node.role + (node.putToSleepByEafr ? "*" : ""), node.gearGroup(), node.powerState(), node.adminState,
          node.alive ? "yes" : "no", node.load, node.serviceCapacity, 100 * node.loadFraction(),
          100 * node.storageFraction(), node.energy == null ? "n/a" : String.format(Locale.ROOT, "%.1f",
              node.energy.watts()), node.energy == null || node.energy.measuredWatts() == null ? "-"
              : String.format(Locale.ROOT, "%.1f", node.energy.measuredWatts())));
    }
    if (nodes.stream().anyMatch(n -> n.putToSleepByEafr)) {
      text.append("* out of service for EAFR: a full standby server (Eq. 8, in maintenance; powered off only with"
          + " eafr.cold.power-off = true), or a server whose gear group sleeps\n");
    }
    return text.toString();
  }

  /** {@code value} as indented JSON, the way every {@code hdfs eafr ... -json} answer is rendered. */
  static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot render the EAFR report as JSON", e);
    }
  }
}
