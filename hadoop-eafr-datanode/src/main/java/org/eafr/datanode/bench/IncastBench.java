package org.eafr.datanode.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What scripts/bench/incast.sh does beyond building the network and starting and stopping the daemons: the nodes'
 * configuration, the rounds, and the statistics.
 *
 * <pre>
 * scenario --state DIR --net A.B.C --nodes N --remote-from K
 *        fresh state for a scenario: DataNodes K.. on rack /r2, the others on /r1 ({@link IncastConf})
 * node   --state DIR --net A.B.C --node K --block-mb B --period-ms P --eta-low L --eta-high H [KEY=VALUE...]
 *        node K's conf dir, with the given properties on top of the bench's
 * run    --state DIR --net A.B.C --ns PREFIX --scenario S --mode M --round N --senders S --blocks B --targets K,...
 *        one round on the running cluster ({@link IncastRound}); prints its row
 * await  --file LOG --from-line N --pattern REGEX --timeout SECONDS --what TEXT
 *        waits until a line after the first N of LOG matches; exit status 1 on timeout
 * finish --state DIR --modes M --rounds N --mbit M --slow-mbit M --queue B --block-mb B --blocks B --period-ms P
 *        --eta-low L --eta-high H --finish-ratio R --load-start TEXT [--doc FILE]
 *        the report of the measured rounds under the setup text, written into FILE between the bench's markers
 * round  --scenario S --mode stock|pacing|window|eafr --round N --requested EPOCH_MS --retrans N --timeouts N --out CSV LOG...
 *        reads the block copies started since EPOCH_MS from the DataNode logs, appends one row to CSV, prints it
 * report --results CSV [--doc FILE --title TEXT --setup FILE]
 *        prints the table of medians and ratios; with --doc writes it (under TITLE, after the text in the setup
 *        file) into FILE between the bench's markers, and every round into bench/incast-rounds.md beside FILE
 * sockets --mode M --rx FILE,... --tx FILE,...
 *        prints one sentence: the receiving and sending connections as {@code ss -tin} showed them in mode M
 *        ({@link SocketSamples})
 * trace  LOG...
 *        prints one sentence: the receive throttler's allowed rates against c_b and what the senders delivered
 *        ({@link RateTrace})
 * </pre>
 */
public final class IncastBench {
  private IncastBench() {
  }

  public static void main(String[] args) throws IOException {
    if (args.length == 0) {
      throw usage("no command");
    }
    Map<String, String> options = new HashMap<>();
    List<String> files = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      if (args[i].startsWith("--")) {
        if (i + 1 >= args.length) {
          throw usage("option " + args[i] + " needs a value");
        }
        options.put(args[i], args[++i]);
      } else {
        files.add(args[i]);
      }
    }
    switch (args[0]) {
      case "round":
        System.out.println(round(options, files).toCsv());
        break;
      case "report":
        System.out.print(report(options));
        break;
      case "sockets":
        System.out.println(SocketSamples.summary(required(options, "--mode"), samples(required(options, "--rx")),
            samples(required(options, "--tx"))));
        break;
      case "trace":
        System.out.println(trace(files).summary());
        break;
      case "scenario":
        conf(options).scenario((int) number(options, "--nodes"), (int) number(options, "--remote-from"));
        break;
      case "node":
        conf(options).node((int) number(options, "--node"), number(options, "--block-mb") << 20,
            IncastConf.properties(List.of("eafr.datanode.rate.period.ms=" + required(options, "--period-ms"),
                "eafr.rate.low-threshold=" + required(options, "--eta-low"),
                "eafr.rate.high-threshold=" + required(options, "--eta-high"))), IncastConf.properties(files));
        break;
      case "run":
        System.out.println(run(options).toCsv());
        break;
      case "await":
        if (!LogWait.await(Paths.get(required(options, "--file")), number(options, "--from-line"),
            required(options, "--pattern"), number(options, "--timeout"))) {
          System.err.println("[incast] timed out after " + options.get("--timeout") + "s waiting for "
              + options.get("--what"));
          System.exit(1);
        }
        break;
      case "finish":
        System.out.print(IncastSetup.finish(options));
        break;
      default:
        throw usage("unknown command " + args[0]);
    }
  }

  private static IncastConf conf(Map<String, String> options) {
    return new IncastConf(Paths.get(required(options, "--state")), required(options, "--net"));
  }

  private static RoundResult run(Map<String, String> options) throws IOException {
    Path state = Paths.get(required(options, "--state"));
    String scenario = required(options, "--scenario");
    List<Integer> targets = new ArrayList<>();
    for (String target : required(options, "--targets").split(",")) {
      targets.add(Integer.parseInt(target));
    }
    try {
      return new IncastRound(state, scenario, conf(options), required(options, "--ns")).run(scenario,
          required(options, "--mode"), (int) number(options, "--round"), (int) number(options, "--senders"),
          (int) number(options, "--blocks"), targets, state.resolve("results.csv"));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  static RoundResult round(Map<String, String> options, List<String> logs) throws IOException {
    long requested = number(options, "--requested");
    TransferLog parser = new TransferLog(ZoneId.systemDefault());
    List<BlockTransfer> transfers = new ArrayList<>();
    for (String log : logs) {
      transfers.addAll(parser.parse(Files.readAllLines(Paths.get(log), StandardCharsets.UTF_8), requested));
    }
    RoundResult result = RoundResult.of(required(options, "--scenario"), required(options, "--mode"),
        (int) number(options, "--round"), transfers, requested, number(options, "--retrans"),
        number(options, "--timeouts"));
    Path out = Paths.get(required(options, "--out"));
    if (!Files.exists(out)) {
      Files.write(out, List.of(RoundResult.CSV_HEADER), StandardCharsets.UTF_8);
    }
    Files.write(out, List.of(result.toCsv()), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    return result;
  }

  /** Every {@code ss -tin} sample in the comma-separated files. */
  static SocketSamples samples(String files) throws IOException {
    SocketSamples samples = new SocketSamples();
    for (String file : files.split(",")) {
      samples.add(Files.readAllLines(Paths.get(file), StandardCharsets.UTF_8));
    }
    return samples;
  }

  static RateTrace trace(List<String> logs) throws IOException {
    RateTrace trace = new RateTrace();
    for (String log : logs) {
      trace.add(Files.readAllLines(Paths.get(log), StandardCharsets.UTF_8));
    }
    return trace;
  }

  static String report(Map<String, String> options) throws IOException {
    List<RoundResult> results = new ArrayList<>();
    List<String> lines = Files.readAllLines(Paths.get(required(options, "--results")), StandardCharsets.UTF_8);
    for (String line : lines.subList(1, lines.size())) {
      if (!line.isBlank()) {
        results.add(RoundResult.parseCsv(line));
      }
    }
    BenchReport report = new BenchReport(results);
    String doc = options.get("--doc");
    if (doc != null) {
      String setup = options.containsKey("--setup")
          ? new String(Files.readAllBytes(Paths.get(options.get("--setup"))), StandardCharsets.UTF_8) : "";
      String section = "## " + required(options, "--title") + "\n\n" + setup + (setup.isEmpty() ? "" : "\n")
          + report.medians() + "Every round: [" + BenchReport.ROUNDS_FILE + "](" + BenchReport.ROUNDS_FILE + ").\n";
      Path path = Paths.get(doc);
      String current = Files.exists(path) ? new String(Files.readAllBytes(path), StandardCharsets.UTF_8) : "";
      Files.write(path, BenchReport.replaceSection(current, section).getBytes(StandardCharsets.UTF_8));
      writeRounds(path.resolveSibling(BenchReport.ROUNDS_FILE), path.getFileName().toString(), report);
    }
    return report.markdown();
  }

  /** Every round of the run whose medians went into {@code doc}, as a run record beside it. */
  private static void writeRounds(Path file, String doc, BenchReport report) throws IOException {
    Files.createDirectories(file.getParent());
    Files.write(file, ("# Incast bench: every round\n\nThe rounds behind the medians `scripts/bench/incast.sh` wrote"
        + " into " + doc + " (times in ms).\n\n" + report.rounds()).getBytes(StandardCharsets.UTF_8));
  }

  private static String required(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null) {
      throw usage("missing " + name);
    }
    return value;
  }

  private static long number(Map<String, String> options, String name) {
    String value = required(options, name);
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw usage(name + " = " + value + " is not allowed: expected a whole number");
    }
  }

  private static IllegalArgumentException usage(String problem) {
    return new IllegalArgumentException(problem + "; usage: round --scenario S --mode stock|eafr --round N"
        + " --requested EPOCH_MS --retrans N --timeouts N --out CSV LOG... | report --results CSV [--doc FILE"
        + " --title TEXT --setup FILE] | sockets --mode M --rx FILE,... --tx FILE,... | trace LOG... | scenario |"
        + " node | run | await | finish (see the IncastBench Javadoc)");
  }
}
