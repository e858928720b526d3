package org.eafr.sim;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eafr.placement.settings.Setting;
import org.eafr.sim.policy.Registry;
import org.eafr.sim.report.Charts;
import org.eafr.sim.report.CsvReport;
import org.eafr.sim.report.TableReport;
import org.eafr.sim.stats.RunResult;

/**
 * The command line: {@code simulate SCENARIO [options]} runs a scenario, prints the table, and writes the CSV and
 * charts. Bad input (unknown scenario, policy or setting key, an out-of-range value, a missing trace) prints one
 * error line naming the value and what is allowed, and exits with status 2 before anything runs.
 */
public final class Main {
  private Main() {
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    try {
      Options options = Options.parse(args);
      if (options.help) {
        out.print(help());
        return 0;
      }
      Scenario scenario = Scenarios.get(options.scenario).only(options.variants);
      Runner runner = new Runner(options.threads, runs -> new ProgressBar(err, runs,
          options.progress ? ProgressBar.Mode.forStderr() : ProgressBar.Mode.OFF));
      List<RunResult> results = runner.run(scenario, options.settings, options.policies, options.trace);
      out.println("scenario " + scenario.name() + ": " + scenario.description());
      out.print(TableReport.render(results));
      TableReport.warnings(results).forEach(err::println);
      Path dir = Path.of(options.out);
      Files.createDirectories(dir);
      Path csv = dir.resolve(scenario.name() + ".csv");
      Files.writeString(csv, CsvReport.render(results), StandardCharsets.UTF_8);
      out.println("csv: " + csv);
      if (options.charts) {
        for (Path chart : Charts.write(scenario, results, dir)) {
          out.println("chart: " + chart);
        }
      }
      return 0;
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      return 2;
    } catch (IOException e) {
      err.println("error: " + e.getMessage());
      return 1;
    }
  }

  static String help() {
    StringBuilder help = new StringBuilder("""
        Usage: simulate SCENARIO [options]
          Runs SCENARIO's policies on the simulated cluster; prints a table, writes OUT/SCENARIO.csv and charts.

        Options:
          --policies a,b,...   run only these policies (default: the scenario's)
          --set key=value      override a setting (repeatable); sim.* keys below, eafr.* keys in docs/configuration.md
          --trace FORMAT[:PATH] workload: synthetic (default) or swim[:PATH] (.tsv or .tsv.gz, 6 columns or 7
                               with the job's input path; default the FB-2009 trace in the jar; shipped:
                               classpath:FB-2009_samples_24_times_1hr_0.tsv.gz, ..._1hr_1.tsv.gz,
                               classpath:FB-2010_samples_24_times_1hr_0.tsv.gz) or swim-paths[:PATH] (a SWIM
                               trace, default FB-2010, with generated input paths of SWIM's popularity)
          --variants a,b,...   run only these variants of the scenario, by label (default: all)
          --out DIR            output directory (default target/sim)
          --threads N          runs in parallel (default 2)
          --no-charts          skip the PNG charts
          --no-progress        no progress bar on stderr
          --help               this text

        Scenarios:
        """);
    for (Scenario scenario : Scenarios.all()) {
      help.append(String.format(java.util.Locale.ROOT, "  %-14s %s%n", scenario.name(), scenario.description()));
    }
    help.append("\nPolicies:\n");
    for (Registry.Entry entry : Registry.entries()) {
      help.append(String.format(java.util.Locale.ROOT, "  %-22s %s%n", entry.name(), entry.description()));
    }
    help.append("\nSettings (sim.*):\n");
    for (Setting<?> setting : SimSettings.all()) {
      help.append(String.format(java.util.Locale.ROOT, "  %-26s default %-12s %-16s %s%n", setting.key(),
          setting.defaultValue(), setting.range(), setting.description()));
    }
    return help.toString();
  }

  /** Parsed command-line options. */
  static final class Options {
    String scenario;
    final Map<String, String> settings = new LinkedHashMap<>();
    final List<String> policies = new ArrayList<>();
    final List<String> variants = new ArrayList<>();
    String trace;
    String out = "target/sim";
    int threads = 2;
    boolean charts = true;
    boolean progress = true;
    boolean help;

    static Options parse(String[] args) {
      Options o = new Options();
      for (int i = 0; i < args.length; i++) {
        String arg = args[i];
        switch (arg) {
          case "--help", "-h" -> o.help = true;
          case "--policies" -> o.policies.addAll(List.of(value(args, ++i, arg).split(",")));
          case "--set" -> o.set(value(args, ++i, arg));
          case "--trace" -> o.trace = value(args, ++i, arg);
          case "--variants" -> o.variants.addAll(List.of(value(args, ++i, arg).split(",")));
          case "--out" -> o.out = value(args, ++i, arg);
          case "--threads" -> o.threads = threads(value(args, ++i, arg));
          case "--no-charts" -> o.charts = false;
          case "--no-progress" -> o.progress = false;
          default -> {
            if (arg.startsWith("-") || o.scenario != null) {
              throw new IllegalArgumentException("argument " + arg + " is not allowed: expected one scenario name"
                  + " and the options of --help");
            }
            o.scenario = arg;
          }
        }
      }
      if (o.scenario == null && !o.help) {
        throw new IllegalArgumentException("a scenario is required: expected one of " + Scenarios.names()
            + " (see --help)");
      }
      return o;
    }

    private void set(String pair) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("--set " + pair + " is not allowed: expected key=value");
      }
      settings.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
    }

    private static String value(String[] args, int i, String option) {
      if (i >= args.length) {
        throw new IllegalArgumentException(option + " needs a value");
      }
      return args[i];
    }

    private static int threads(String raw) {
      try {
        int threads = Integer.parseInt(raw);
        if (threads >= 1 && threads <= 256) {
          return threads;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new IllegalArgumentException("--threads " + raw + " is not allowed: expected a number in [1, 256]");
    }
  }
}
