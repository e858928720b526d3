package org.eafr.datanode.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * One round of scripts/bench/incast.sh on the running bench cluster: each of the senders (nodes 1..S) writes its
 * blocks with replication 1 (so the replica is local), a client asks for replication 2, and the round waits until
 * the targets' logs show every copy received, sampling {@code ss -tin} of the transfer connections every 2 s (on the
 * targets, STATE/logs/SCENARIO/ss-SCENARIO-MODE-ROUND-rx.txt, and the senders, -tx.txt); then it appends the round's
 * row ({@link RoundResult}) to the results and deletes the files. Completion counts from the NameNode's first
 * setReplication of the round (its audit line), not from the client's start: a client JVM takes seconds to start on
 * a loaded machine. Clients and {@code ss} run in the nodes' namespaces through {@code ip netns exec}.
 */
final class IncastRound {
  private static final DateTimeFormatter ISO8601 = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");
  private static final Pattern RECEIVED = Pattern.compile("Received BP.* of size");
  private static final long TIMEOUT_MILLIS = 600_000;

  private final Path state;
  private final Path logs;
  private final IncastConf conf;
  private final String namespacePrefix;
  private final String classpath;

  IncastRound(Path state, String scenario, IncastConf conf, String namespacePrefix) throws IOException {
    this.state = state;
    this.logs = state.resolve("logs").resolve(scenario);
    this.conf = conf;
    this.namespacePrefix = namespacePrefix;
    this.classpath = Files.readString(state.resolve("classpath"), StandardCharsets.UTF_8).trim();
  }

  /** Runs the round and returns its row, also appended to {@code results}. */
  RoundResult run(String scenario, String mode, int round, int senders, int blocks, List<Integer> targets,
      Path results) throws IOException, InterruptedException {
    String dir = "/" + scenario + "-" + mode + "-" + round;
    client(1, "-mkdir", "-p", dir);
    List<Process> puts = new ArrayList<>();
    for (int k = 1; k <= senders; k++) {
      puts.add(start(clientCommand(k, "-put", state.resolve("tmp/data").toString(), dir + "/s" + k)));
    }
    for (Process put : puts) {
      if (put.waitFor() != 0) {
        throw new IllegalStateException("writing " + dir + " failed");
      }
    }
    List<Long> senderPids = new ArrayList<>();
    for (int k = 1; k <= senders; k++) {
      senderPids.add(Long.parseLong(Files.readString(state.resolve("node" + k + ".pid")).trim()));
    }
    long[] lines = new long[targets.size()];
    for (int i = 0; i < lines.length; i++) {
      lines[i] = lineCount(log(targets.get(i)));
    }
    long[] before = TcpCounters.of(senderPids);
    client(0, "-setrep", "2", dir);
    long requested = requested(dir);
    String prefix = logs.resolve("ss-" + scenario + "-" + mode + "-" + round).toString();
    Thread sampler = new Thread(() -> sample(prefix, targets, senders), "ss-sampler");
    sampler.setDaemon(true);
    sampler.start();
    try {
      awaitCopies(targets, lines, senders * blocks, scenario + " " + mode + " round " + round);
    } finally {
      sampler.interrupt();
      sampler.join();
    }
    long[] after = TcpCounters.of(senderPids);
    List<String> targetLogs = new ArrayList<>();
    targets.forEach(t -> targetLogs.add(log(t).toString()));
    RoundResult row = IncastBench.round(Map.of("--scenario", scenario, "--mode", mode, "--round",
        Integer.toString(round), "--requested", Long.toString(requested), "--retrans",
        Long.toString(after[0] - before[0]), "--timeouts", Long.toString(after[1] - before[1]), "--out",
        results.toString()), targetLogs);
    client(0, "-rm", "-r", "-skipTrash", dir);
    return row;
  }

  private Path log(int node) {
    return logs.resolve("node" + node + ".log");
  }

  /** The epoch ms of the NameNode's first audit line for a setReplication under {@code dir}. */
  private long requested(String dir) throws IOException, InterruptedException {
    Pattern audit = Pattern.compile("cmd=setReplication.src=" + Pattern.quote(dir + "/"));
    String line = LogWait.firstMatch(log(0), 0, audit, 30).orElseThrow(() -> new IllegalStateException(
        "no setReplication of " + dir + " in the NameNode's audit log " + log(0)));
    return LocalDateTime.parse(line.substring(0, 23), ISO8601).atZone(ZoneId.systemDefault()).toInstant()
        .toEpochMilli();
  }

  private void awaitCopies(List<Integer> targets, long[] fromLines, int expected, String what)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MILLIS);
    while (true) {
      int copies = 0;
      for (int i = 0; i < fromLines.length; i++) {
        try (var lines = Files.lines(log(targets.get(i)), StandardCharsets.ISO_8859_1)) {
          copies += (int) lines.skip(fromLines[i]).filter(l -> RECEIVED.matcher(l).find()).count();
        }
      }
      if (copies >= expected) {
        return;
      }
      if (System.nanoTime() >= deadline) {
        throw new IllegalStateException("timed out after " + TIMEOUT_MILLIS / 1000 + " s waiting for " + expected
            + " copies in " + what + " (" + copies + " seen; see " + logs + ")");
      }
      Thread.sleep(500);
    }
  }

  /** {@code ss -tin} of the transfer connections every 2 s until interrupted. */
  private void sample(String prefix, List<Integer> targets, int senders) {
    try {
      while (!Thread.currentThread().isInterrupted()) {
        for (int t : targets) {
          ss(t, "sport", Path.of(prefix + "-rx.txt"));
        }
        for (int k = 1; k <= senders; k++) {
          ss(k, "dport", Path.of(prefix + "-tx.txt"));
        }
        Thread.sleep(2000);
      }
    } catch (InterruptedException | IOException e) {
      Thread.currentThread().interrupt(); // the round is over
    }
  }

  private void ss(int node, String port, Path out) throws IOException, InterruptedException {
    Process ss = new ProcessBuilder(inNamespace(node, "ss", "-tinH", "state", "established",
        "( " + port + " = :9866 )")).redirectError(ProcessBuilder.Redirect.DISCARD)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile())).start();
    ss.waitFor();
  }

  private void client(int node, String... args) throws IOException, InterruptedException {
    Process client = start(clientCommand(node, args));
    if (client.waitFor() != 0) {
      throw new IllegalStateException("FsShell " + String.join(" ", args) + " on node " + node + " failed");
    }
  }

  private static Process start(List<String> command) throws IOException {
    return new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }

  private List<String> clientCommand(int node, String... args) {
    List<String> command = inNamespace(node, Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx128m", "-Djava.net.preferIPv4Stack=true", "-Dhadoop.root.logger=WARN,console", "-cp",
        state.resolve("node" + node + "/conf") + ":" + classpath, "org.apache.hadoop.fs.FsShell", "-fs",
        "hdfs://" + conf.ip(0) + ":8020");
    command.addAll(List.of(args));
    return command;
  }

  private List<String> inNamespace(int node, String... command) {
    List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", namespacePrefix + "-" + node));
    full.addAll(List.of(command));
    return full;
  }

  private static long lineCount(Path file) throws IOException {
    if (!Files.exists(file)) {
      return 0;
    }
    try (var lines = Files.lines(file, StandardCharsets.ISO_8859_1)) {
      return lines.count();
    }
  }
}
