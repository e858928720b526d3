package org.eafr.datanode.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The end of scripts/bench/incast.sh: the measured rounds (the hetero warm-up round left out), the text above the
 * table (the setup, load averages, the throttler trace and the {@code ss -tin} summary per mode) and the report,
 * written into the doc between the bench's markers unless there is no doc.
 */
final class IncastSetup {
  private static final Pattern HDFS_JAR = Pattern.compile("hadoop-hdfs-([0-9][^/:]*)\\.jar(?::|$)");

  private IncastSetup() {
  }

  /** Prints the report and, with {@code --doc}, writes it; {@code options} carry the bench's knobs. */
  static String finish(Map<String, String> options) throws IOException {
    Path state = Path.of(options.get("--state"));
    Path logs = state.resolve("logs");
    List<String> measured = Files.readAllLines(state.resolve("results.csv"), StandardCharsets.UTF_8).stream()
        .filter(line -> !line.contains(",warmup,")).collect(Collectors.toList());
    Files.write(state.resolve("results-measured.csv"), measured, StandardCharsets.UTF_8);
    StringBuilder setup = new StringBuilder(text(options,
        hadoopVersion(Files.readString(state.resolve("classpath"), StandardCharsets.UTF_8)),
        Files.readString(Path.of("/proc/loadavg"), StandardCharsets.UTF_8)));
    Path receiver = logs.resolve("incast/node9.log");
    if (Files.exists(receiver)) {
      setup.append('\n').append(IncastBench.trace(List.of(receiver.toString())).summary()).append('\n');
    }
    for (String mode : ("stock " + options.get("--modes")).trim().split("\\s+")) {
      String rx = samples(logs.resolve("incast"), mode, "rx");
      if (!rx.isEmpty()) {
        setup.append('\n').append(SocketSamples.summary(mode, IncastBench.samples(rx),
            IncastBench.samples(samples(logs.resolve("incast"), mode, "tx")))).append('\n');
      }
    }
    Path setupFile = state.resolve("setup.md");
    Files.writeString(setupFile, setup, StandardCharsets.UTF_8);
    Map<String, String> report = new java.util.HashMap<>();
    report.put("--results", state.resolve("results-measured.csv").toString());
    if (options.containsKey("--doc")) {
      report.put("--doc", options.get("--doc"));
      report.put("--title", "Incast and heterogeneous links on real daemons");
      report.put("--setup", setupFile.toString());
    }
    return IncastBench.report(report);
  }

  /** The comma-separated {@code ss} sample files of one mode and side, in name order; empty when there are none. */
  private static String samples(Path dir, String mode, String side) throws IOException {
    if (!Files.isDirectory(dir)) {
      return "";
    }
    String prefix = "ss-incast-" + mode + "-";
    try (var files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString())
          .filter(name -> name.startsWith(prefix) && name.endsWith("-" + side + ".txt")).sorted()
          .map(name -> dir.resolve(name).toString()).collect(Collectors.joining(","));
    }
  }

  static String hadoopVersion(String classpath) {
    Matcher m = HDFS_JAR.matcher(classpath);
    return m.find() ? m.group(1) : "unknown";
  }

  /** The paragraph above the table. */
  static String text(Map<String, String> o, String hadoopVersion, String loadEnd) {
    return String.format("Measured by `scripts/bench/incast.sh` on %s (Hadoop %s,%n"
        + "%d CPUs shared): real NameNode and DataNode processes, each in its own network namespace, veth links shaped%n"
        + "with tc tbf (%s Mbit/s, %s-byte queue towards each node), %s MiB blocks, %s per sender,%n"
        + "adjustment period %s ms,%n"
        + "%s rounds per mode; medians over rounds. **incast**: 8 senders re-replicate into one receiver at once; stock%n"
        + "HDFS against the EAFR receive rate control in each of: %s (c_b = %s Mbit/s, eta_l = %s, eta_h = %s).%n"
        + "**hetero**: 4 sources re-replicate into 4 targets, 2 of them at %s Mbit/s; stock placement against EAFR's%n"
        + "(Eq. 9-12 ranked by expected finish time, eafr.destination.finish-ratio = %s, after one unmeasured round)."
        + " What the numbers mean: [datanode.md](datanode.md#benchmark).%n"
        + "Load average (1, 5, 15 min) at the start: %s; at the end: %s.%n",
        LocalDate.now(ZoneOffset.UTC), hadoopVersion, Runtime.getRuntime().availableProcessors(), o.get("--mbit"),
        o.get("--queue"), o.get("--block-mb"), o.get("--blocks"), o.get("--period-ms"), o.get("--rounds"),
        o.get("--modes"), o.get("--mbit"), o.get("--eta-low"), o.get("--eta-high"), o.get("--slow-mbit"),
        o.get("--finish-ratio"), o.get("--load-start"), firstThree(loadEnd));
  }

  private static String firstThree(String loadavg) {
    String[] f = loadavg.trim().split("\\s+");
    List<String> three = new ArrayList<>(List.of(f).subList(0, Math.min(3, f.length)));
    return String.join(" ", three);
  }
}
