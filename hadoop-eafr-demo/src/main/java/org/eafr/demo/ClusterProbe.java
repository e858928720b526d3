package org.eafr.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.eafr.namenode.admin.AdminTool;

/**
 * What the replay asks the cluster: the NameNode's view through {@code hdfs eafr status -json} (the gear, the shift's
 * phase, counters, and each DataNode's load h / c_c) and each host's power, which on this machine is whether its
 * DataNode process runs (a host's draw starts when its BMC or Wake-on-LAN starts it and ends when it stops).
 * {@code hdfs eafr} commands run in this JVM with the same Tool the command line runs.
 */
final class ClusterProbe {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DN_CLASS = "org.apache.hadoop.hdfs.server.datanode.DataNode";

  private final Configuration conf;
  private final DemoState state;

  ClusterProbe(Configuration conf, DemoState state) {
    this.conf = conf;
    this.state = state;
  }

  /** One {@code hdfs eafr} command: its exit code and what it printed (answer or refusal). */
  record Answer(int code, String text) {
  }

  Answer admin(String... args) {
    return admin(conf, args);
  }

  /** One {@code hdfs eafr} command against the NameNode {@code conf} names. */
  static Answer admin(Configuration conf, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      code = new AdminTool(new Configuration(conf), o, e).run(args);
    } catch (Exception e) {
      return new Answer(1, e.toString());
    }
    return new Answer(code, (out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8)).trim());
  }

  /** The NameNode's gears and DataNodes now. */
  record View(int gear, int targetGear, String phase, long shifts, long blocksReflected, int sleeping,
      Map<String, Double> loadById, Map<String, Boolean> aliveById, Map<String, Boolean> asleepById,
      Map<String, String> adminById, boolean safeMode, long decisions, long heldByDwell) {
    /**
     * Whether the NameNode has DataNode {@code id} asleep: put to sleep by the gears, or unknown to it (a NameNode
     * started while it slept). A DataNode of a sleeping gear group woken out of turn (docs/gears-recovery.md) is awake.
     */
    boolean asleep(String id) {
      return asleepById.getOrDefault(id, true);
    }
  }

  View view() throws IOException {
    Answer answer = admin("status", "-json");
    if (answer.code() != 0) {
      throw new IOException("hdfs eafr status -json failed: " + answer.text());
    }
    JsonNode status = JSON.readTree(answer.text());
    JsonNode gears = status.path("gears");
    Map<String, Double> loads = new HashMap<>();
    Map<String, Boolean> alive = new HashMap<>();
    Map<String, Boolean> asleep = new HashMap<>();
    Map<String, String> admin = new HashMap<>();
    for (JsonNode node : status.path("nodes")) {
      loads.put(node.path("id").asText(), node.path("loadFraction").asDouble(0));
      alive.put(node.path("id").asText(), node.path("alive").asBoolean(false));
      asleep.put(node.path("id").asText(), node.path("putToSleepByEafr").asBoolean(false));
      admin.put(node.path("id").asText(), node.path("adminState").asText("?"));
    }
    return new View(gears.path("gear").asInt(-1), gears.path("targetGear").asInt(-1),
        gears.path("gearPhase").asText("?"), gears.path("gearShifts").asLong(0),
        gears.path("blocksReflected").asLong(0), gears.path("sleepingNodes").asInt(0), loads, alive, asleep, admin,
        status.path("safeMode").asBoolean(false),
        gears.path("gearAutoDecisions").asLong(0) + status.path("monitor").path("rounds").asLong(0),
        gears.path("gearAutoDecisionsHeldByDwell").asLong(0));
  }

  /** Whether each host's DataNode process runs now (its recorded pid runs a DataNode JVM). */
  boolean[] hostsOn(List<DemoHosts.Host> hosts) {
    boolean[] on = new boolean[hosts.size()];
    for (int i = 0; i < on.length; i++) {
      on[i] = dataNodeRuns(state.dir().resolve("pids").resolve("datanode" + hosts.get(i).index() + ".pid"));
    }
    return on;
  }

  private static boolean dataNodeRuns(Path pidFile) {
    try {
      String pid = Files.readString(pidFile).trim();
      byte[] cmdline = Files.readAllBytes(Path.of("/proc", pid, "cmdline"));
      return new String(cmdline, StandardCharsets.UTF_8).contains(DN_CLASS);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}
