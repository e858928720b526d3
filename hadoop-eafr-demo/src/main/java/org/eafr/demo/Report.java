package org.eafr.demo;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.eafr.sim.stats.DoubleList;

/**
 * The demo's report: energy used against every node on, gear shifts, power commands per path, reads served and
 * failed with their latency (and p99 against the last {@code --no-gears} run), writes and their reflection, files
 * verified; then the checks, each PASS or FAIL. Written to {@code target/demo-results/report-MODE.txt} with the
 * timeline {@code timeline-MODE.png} beside it and the figures in {@code MODE.properties} (what a later run of another
 * mode compares against). Returns the exit code: 0 when every check passed, else 1.
 */
final class Report {
  /** Everything the replay measured. */
  record Outcome(long readsServed, long readsFailed, long writes, long writesFailed, DoubleList readMillis,
      int verified, int files, PowerLedger ledger, GearOperator operator, Timeline timeline, List<String> failures,
      long eventsSinceMillis, ClusterProbe.View lastView, GearUpThroughput gearUp, long settleMillis,
      boolean settled, long replayStartEpochMillis) {
  }

  private final DemoState state;
  private final DemoSettings settings;
  private final DemoHosts hosts;
  private final ReplayPlan plan;
  private final DemoSettings.GearMode mode;
  private final List<String> lines = new ArrayList<>();
  private final List<String> failedChecks = new ArrayList<>();

  Report(DemoState state, DemoSettings settings, DemoHosts hosts, ReplayPlan plan, DemoSettings.GearMode mode) {
    this.state = state;
    this.settings = settings;
    this.hosts = hosts;
    this.plan = plan;
    this.mode = mode;
  }

  int write(Outcome o) throws IOException {
    Path results = Paths.get(state.plan().getProperty("root")).resolve("target").resolve("demo-results");
    Files.createDirectories(results);
    String name = settings.runName();
    double p50 = percentile(o.readMillis(), 50);
    double p99 = percentile(o.readMillis(), 99);
    PowerEvents events = PowerEvents.since(state.powerEvents(), o.eventsSinceMillis());
    long reflected = o.lastView() == null ? -1 : o.lastView().blocksReflected();

    add("EAFR demo on real daemons: policy %s, gears %s, %s", settings.policy(),
        settings.geared() ? mode.name().toLowerCase(Locale.ROOT) : "none", Instant.now());
    add("workload: trace %s, hours %s-%d compressed into %d s; %d DataNodes on %s racks (p = %s, g = %s)",
        settings.get("demo.trace"), settings.get("demo.trace.start-hour"), settings.integer("demo.trace.start-hour")
            + settings.integer("demo.trace.hours"), plan.durationMillis() / 1000, hosts.hosts().size(),
        settings.get("demo.racks"), settings.get("demo.gear.primaries"), settings.get("demo.gear.group-size"));
    add("settling before the replay: %.0f s after the files were written%s (not in the figures below; power"
        + " commands and gear shifts include it, at negative seconds)", o.settleMillis() / 1000.0, o.settled() ? ""
        : ", not settled (demo.settle.max.s)");
    add("energy (EAFR Table 2 model over each DataNode host's real on-time and load): %.4f kWh used, %.4f kWh with"
        + " every node on: %.2fx", o.ledger().kilowattHours(), o.ledger().kilowattHoursAllOn(), o.ledger().ratio());
    StringBuilder onTime = new StringBuilder("time on per host:");
    for (int i = 0; i < hosts.hosts().size(); i++) {
      onTime.append(String.format(Locale.ROOT, " %s %.0f%%", hosts.hosts().get(i).name().replace(".eafr.local", ""),
          100.0 * o.ledger().onMillis(i) / Math.max(1, plan.durationMillis())));
    }
    lines.add(onTime.toString());
    add("gear shifts: %d down, %d up: %s", o.operator().downs(), o.operator().ups(), shifts(o.operator()));
    add("reads per joule while gearing up: %s", o.gearUp());
    if (mode == DemoSettings.GearMode.AUTO) {
      List<String> decisions = autoDecisions();
      add("the NameNode's gear controller: %d shifts started or refused (namenode.log)%s", decisions.size(),
          decisions.isEmpty() ? "" : ":");
      decisions.forEach(line -> lines.add("  " + line));
    }
    for (GearOperator.Command command : o.operator().commands()) {
      add("  %s hdfs eafr gear %s -> exit %d: %s", command.when(), command.arg(), command.code(),
          command.answer().replace('\n', ' '));
    }
    add("power commands carried out by the simulated BMCs: %s", events.counts().isEmpty() ? "none"
        : events.counts().toString());
    add("reads: %d served, %d failed; latency p50 %s ms, p99 %s ms", o.readsServed(), o.readsFailed(), ms(p50),
        ms(p99));
    add("read p99 against %s: %s", baselineIsGeared() ? "the last run with gears" : "--no-gears",
        baseline(results, p99));
    add("writes: %d written, %d failed; blocks reflected home after gear-ups: %s", o.writes(), o.writesFailed(),
        reflected < 0 ? "n/a" : String.valueOf(reflected));
    add("files verified against their checksums: %d of %d", o.verified(), o.files());
    for (String failure : o.failures()) {
      add("  problem: %s", failure);
    }
    lines.add("checks:");
    check(o.verified() == o.files() && o.files() > 0, "every file read back with its checksum (" + o.verified()
        + " of " + o.files() + ")");
    check(o.readsFailed() == 0 && o.readsServed() > 0, "no failed reads (" + o.readsFailed() + " of "
        + (o.readsServed() + o.readsFailed()) + ")");
    check(o.writesFailed() == 0, "no failed writes (" + o.writesFailed() + ")");
    if (mode == DemoSettings.GearMode.AUTO) {
      check(o.operator().handedOver(), "the gears were on auto (hdfs eafr gear auto accepted)");
    }
    if (mode != DemoSettings.GearMode.OFF) {
      check(o.operator().downs() >= 1, "at least one gear down (" + o.operator().downs() + ")");
      check(o.operator().ups() >= 1, "at least one gear up (" + o.operator().ups() + ")");
      // The manual schedule wakes every kind of host; the controller wakes only the gears the peak asks for (the
      // first gear groups: WoL, then Redfish, IPMI from gear 4), so in auto mode a path must have been used.
      boolean bothWays = mode == DemoSettings.GearMode.MANUAL;
      for (String driver : List.of("ipmi", "redfish", "wol")) {
        if (!hosts.withDriver(DemoHosts.Driver.valueOf(driver.toUpperCase(Locale.ROOT))).isEmpty()) {
          long off = events.count(driver, "off");
          long on = events.count(driver, "on");
          check(bothWays ? events.bothWays(driver) : off + on > 0, "power path " + driver + (bothWays
              ? " switched a host off and on (" : " used (") + off + " off, " + on + " on)");
        }
      }
      double limit = settings.number("demo.max-kwh-ratio", 0.01, 10);
      check(o.ledger().ratio() <= limit, String.format(Locale.ROOT, "kWh at most %.2fx every node on (%.2fx)", limit,
          o.ledger().ratio()));
    }
    String verdict = failedChecks.isEmpty() ? "PASS" : "FAIL: " + String.join("; ", failedChecks);
    lines.add(verdict);

    Path report = results.resolve("report-" + name + ".txt");
    Path png = results.resolve("timeline-" + name + ".png");
    o.timeline().writePng(png, String.format(Locale.ROOT, "EAFR demo, %s: %.4f kWh, %.2fx every node on",
        name, o.ledger().kilowattHours(), o.ledger().ratio()), hosts.hosts().size());
    lines.add("report: " + report + "; timeline: " + png + "; logs: " + state.logs());
    Files.write(report, lines, StandardCharsets.UTF_8);
    saveFigures(results.resolve(name + ".properties"), o, p50, p99, events);
    lines.forEach(System.out::println);
    writeVerdict(state, verdict);
    return failedChecks.isEmpty() ? 0 : 1;
  }

  /** {@code verdict.txt} in the state directory: PASS, or FAIL naming what failed (scripts/demo.sh prints it last). */
  static void writeVerdict(DemoState state, String verdict) throws IOException {
    Files.writeString(state.dir().resolve("verdict.txt"), verdict + "\n", StandardCharsets.UTF_8);
  }

  /** The controller's decisions that started a shift or were refused, as the NameNode logged them. */
  private List<String> autoDecisions() throws IOException {
    Path log = state.logs().resolve("namenode.log");
    if (!Files.exists(log)) {
      return List.of();
    }
    try (java.util.stream.Stream<String> all = Files.lines(log, StandardCharsets.UTF_8)) {
      return all.filter(line -> line.contains("EAFR gears: auto: ") && (line.contains("; shift started")
          || line.contains("; refused: "))).map(line -> line.substring(line.indexOf("EAFR gears: auto: ") + 18))
          .toList();
    }
  }

  private void add(String format, Object... args) {
    lines.add(String.format(Locale.ROOT, format, args));
  }

  private void check(boolean passed, String what) {
    lines.add((passed ? "  PASS  " : "  FAIL  ") + what);
    if (!passed) {
      failedChecks.add(what);
    }
  }

  private static String shifts(GearOperator operator) {
    List<String> parts = new ArrayList<>();
    for (GearOperator.Shift shift : operator.shifts()) {
      parts.add(String.format(Locale.ROOT, "%d->%d at %.0f s", shift.from(), shift.to(), shift.seconds()));
    }
    return parts.isEmpty() ? "none" : String.join(", ", parts);
  }

  /** The last run of the other side (gears off against gears on), if one was saved. */
  private String baseline(Path results, double p99) throws IOException {
    String other = baselineIsGeared() ? latestGeared(results) : "off";
    Properties figures = TraceReplay.load(results.resolve(other + ".properties"));
    String theirs = figures.getProperty("read.p99.ms");
    if (theirs == null || Double.isNaN(p99)) {
      return "n/a (run scripts/demo.sh run" + (other.equals("off") ? " --no-gears" : "") + " for the comparison)";
    }
    double value = Double.parseDouble(theirs);
    return String.format(Locale.ROOT, "%s ms here, %s ms with gears %s (%s, %s): %.2fx", ms(p99), ms(value), other,
        figures.getProperty("finished"), figures.getProperty("trace"), p99 / value);
  }

  /** Whether this run is the baseline (gears off on a geared policy), compared with the last run with gears. */
  private boolean baselineIsGeared() {
    return mode == DemoSettings.GearMode.OFF && settings.geared();
  }

  /** Of the runs with gears (auto, manual), the one whose figures were saved last; auto when there is none. */
  private static String latestGeared(Path results) throws IOException {
    Path auto = results.resolve("auto.properties");
    Path manual = results.resolve("manual.properties");
    if (Files.exists(manual) && (!Files.exists(auto)
        || Files.getLastModifiedTime(manual).compareTo(Files.getLastModifiedTime(auto)) > 0)) {
      return "manual";
    }
    return "auto";
  }

  private void saveFigures(Path file, Outcome o, double p50, double p99, PowerEvents events) throws IOException {
    Properties figures = new Properties();
    figures.setProperty("finished", Instant.now().toString());
    figures.setProperty("trace", settings.get("demo.trace") + " hours " + settings.get("demo.trace.start-hour") + "+"
        + settings.get("demo.trace.hours") + " in " + settings.get("demo.duration.s") + " s");
    figures.setProperty("settle.s", String.format(Locale.ROOT, "%.1f", o.settleMillis() / 1000.0));
    figures.setProperty("settled", String.valueOf(o.settled()));
    // reads-RUN.tsv counts from here: with it the reads line up with the daemons' logs and bmc/events.log
    figures.setProperty("replay.start.epoch.ms", String.valueOf(o.replayStartEpochMillis()));
    figures.setProperty("kwh", String.valueOf(o.ledger().kilowattHours()));
    figures.setProperty("kwh.all-on", String.valueOf(o.ledger().kilowattHoursAllOn()));
    figures.setProperty("read.p50.ms", String.valueOf(p50));
    figures.setProperty("read.p99.ms", String.valueOf(p99));
    figures.setProperty("reads", String.valueOf(o.readsServed()));
    figures.setProperty("reads.failed", String.valueOf(o.readsFailed()));
    figures.setProperty("passed", String.valueOf(failedChecks.isEmpty()));
    figures.setProperty("policy", settings.policy());
    figures.setProperty("files", String.valueOf(o.files()));
    figures.setProperty("files.verified", String.valueOf(o.verified()));
    figures.setProperty("writes.failed", String.valueOf(o.writesFailed()));
    figures.setProperty("blocks.reflected", String.valueOf(o.lastView() == null ? -1
        : o.lastView().blocksReflected()));
    figures.setProperty("gear.shifts", String.valueOf(o.operator().shifts().size()));
    figures.setProperty("gearup.reads", String.valueOf(o.gearUp().reads()));
    figures.setProperty("gearup.joules", String.valueOf(o.gearUp().joules()));
    figures.setProperty("power.commands", events.counts().toString());
    try (OutputStream out = Files.newOutputStream(file)) {
      figures.store(out, "written by the demo's report");
    }
  }

  private static double percentile(DoubleList values, double p) {
    synchronized (values) {
      return values.size() == 0 ? Double.NaN : values.percentile(p);
    }
  }

  private static String ms(double value) {
    return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.1f", value);
  }
}
