package org.eafr.demo;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;

/**
 * {@code ThrashRun STATE_DIR ROUNDS SEED}: the thrash test (scripts/thrash.sh, docs/thrash.md) against the demo's
 * running cluster. Under a continuous load ({@link ThrashLoad}) it runs the seeded {@link ThrashPlan}, one fault per
 * round, printing each round's fault, what it did, its outcome and duration; then it brings every gear group back on,
 * reads every file back, runs fsck and prints a summary table and the {@link ThrashVerdict}. Exit 0 when every check
 * holds, 1 naming each that does not.
 */
public final class ThrashRun {
  /** Longest a round's shift (and the DataNodes' return) may take before it counts as never finishing. */
  static final long ROUND_TIMEOUT_S = 420;
  /** How long fsck may report blocks missing after a NameNode restart while the DataNodes' first reports come in. */
  static final long FSCK_AFTER_RESTART_S = 60;
  /** Longest a switched-off host's DataNode JVM may take to exit after the power manager verified OFF. */
  static final long DATANODE_EXIT_S = 60;

  private final ThrashCluster cluster;
  private final ThrashLoad load;
  private final List<Outcome> outcomes = new ArrayList<>();
  private final List<String> cancellations = new ArrayList<>();
  private long quarantinesBefore; // counted by NameNode runs already stopped
  private final long began = System.nanoTime();

  /** Redundancy-monitor intervals the round that restarts the NameNode in gear 0 lets pass before it counts. */
  static final int RESTART_INTERVALS = 20;
  /** Files the relayout round writes off their layout homes, and their size (two 1 MiB blocks each). */
  static final int OFF_HOME_FILES = 6;
  static final long RELAYOUT_FILE_BYTES = 2L << 20;

  /** One round as it ran. */
  record Outcome(int round, ThrashFault fault, String detail, boolean ok, double seconds) {
  }

  private ThrashRun(ThrashCluster cluster, ThrashLoad load) {
    this.cluster = cluster;
    this.load = load;
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: ThrashRun STATE_DIR ROUNDS SEED");
      System.exit(2);
    }
    DemoState state = new DemoState(Paths.get(args[0]));
    ThrashPlan plan;
    try {
      plan = ThrashPlan.of(Long.parseLong(args[2]), Integer.parseInt(args[1]));
    } catch (IllegalArgumentException e) {
      System.err.println("thrash: " + e.getMessage());
      System.exit(2);
      return;
    }
    HdfsConfiguration conf = new HdfsConfiguration();
    ThrashCluster cluster = new ThrashCluster(state, conf);
    ThrashLoad load = new ThrashLoad(FileSystem.newInstance(conf), plan.seed(), 400);
    System.exit(new ThrashRun(cluster, load).run(plan));
  }

  private int run(ThrashPlan plan) throws Exception {
    say(String.format(Locale.ROOT, "seed %d, %d rounds (replay: scripts/thrash.sh %d --seed %d); gears 0-%d; load:"
        + " 2 writers, 2 readers", plan.seed(), plan.rounds().size(), plan.rounds().size(), plan.seed(),
        cluster.maxGear()));
    load.start(2, 2);
    boolean stuck = false;
    for (ThrashPlan.Round round : plan.rounds()) {
      if (stuck) {
        outcomes.add(new Outcome(round.number(), round.fault(), "not run: an earlier round never finished", false, 0));
        continue;
      }
      Outcome outcome = play(round, plan.rounds().size());
      outcomes.add(outcome);
      stuck = !outcome.ok() && outcome.detail().contains("not reached in");
    }
    say("rounds done; every gear group back on, then every file read back and fsck");
    List<String> roundsFailed = new ArrayList<>();
    outcomes.stream().filter(o -> !o.ok()).forEach(o -> roundsFailed.add(o.round() + " (" + o.fault().label() + "): "
        + o.detail()));
    try {
      if (!stuck) {
        finish();
      }
    } catch (ThrashCluster.ThrashTimeout e) {
      roundsFailed.add("end (all gears on): " + e.getMessage());
    }
    load.close();
    long verified = load.verifyAll();
    ThrashVerdict.Fsck fsck = cluster.fsck();
    long counted = quarantinesBefore + Math.max(0, cluster.quarantinesCounted());
    ThrashVerdict verdict = new ThrashVerdict(fsck, load.filesKept(), verified, load.mismatches.get(),
        load.readsFailed.get(), load.writesFailed.get(), roundsFailed, counted, cluster.quarantinesLogged());
    return report(plan, verdict);
  }

  private void finish() throws Exception {
    ClusterProbe.View view = cluster.awaitSteady(ROUND_TIMEOUT_S);
    if (view.gear() < cluster.maxGear()) {
      shift(cluster.maxGear());
      cluster.awaitSteady(ROUND_TIMEOUT_S);
    }
  }

  private Outcome play(ThrashPlan.Round round, int rounds) throws Exception {
    long start = System.nanoTime();
    long readsBefore = load.reads.get();
    long writesBefore = load.writes.get();
    Random random = new Random(round.seed());
    String detail;
    boolean ok = true;
    try {
      ClusterProbe.View before = cluster.awaitSteady(ROUND_TIMEOUT_S);
      detail = fault(round.fault(), before, random);
      ClusterProbe.View after = cluster.awaitSteady(ROUND_TIMEOUT_S);
      detail += "; now gear " + after.gear();
    } catch (ThrashCluster.ThrashTimeout | CheckFailed e) {
      ok = false;
      detail = e.getMessage();
    } catch (IOException | RuntimeException e) {
      ok = false;
      detail = "the fault could not be made: " + e;
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    say(String.format(Locale.ROOT, "round %d/%d %-18s %s %s in %.0f s (reads %d, writes %d this round; %.0f s in)",
        round.number(), rounds, round.fault().label(), ok ? "ok" : "FAILED", detail, seconds,
        load.reads.get() - readsBefore, load.writes.get() - writesBefore, (System.nanoTime() - began) / 1e9));
    return new Outcome(round.number(), round.fault(), detail, ok, seconds);
  }

  private String fault(ThrashFault fault, ClusterProbe.View view, Random random) throws Exception {
    int gear = view.gear();
    int max = cluster.maxGear();
    switch (fault) {
      case GEAR_UP:
      case GEAR_DOWN: {
        boolean up = fault == ThrashFault.GEAR_UP ? gear < max : gear == 0;
        int target = up ? gear + 1 + random.nextInt(max - gear) : random.nextInt(gear);
        return shift(target) + (up != (fault == ThrashFault.GEAR_UP) ? " (turned: no gear that way)" : "");
      }
      case DATANODE_KILL: {
        List<DemoHosts.Host> awake = cluster.awake(gear);
        DemoHosts.Host host = awake.get(random.nextInt(awake.size()));
        int down = 2 + random.nextInt(9);
        cluster.killDataNode(host);
        Thread.sleep(down * 1000L);
        cluster.startDataNode(host);
        return "dn" + host.index() + " (gear group " + host.gearGroup() + ") killed -9, started after " + down + " s";
      }
      case BMC_STOP:
        return bmcStop(gear, random);
      case WOL_LOST:
        return wolLost(gear, max);
      case NODE_DIES_ASLEEP:
        return nodeDiesAsleep(gear, random);
      case WAKE_DURING_DOWN:
        return wakeDuringDown(gear, max, random);
      case NAMENODE_RESTART: {
        quarantinesBefore += Math.max(0, cluster.quarantinesCounted());
        long t = System.nanoTime();
        cluster.restartNameNode();
        cluster.await("the restarted NameNode answering", ROUND_TIMEOUT_S, v -> true);
        return String.format(Locale.ROOT, "NameNode restarted at gear %d, answering after %.0f s", gear,
            (System.nanoTime() - t) / 1e9);
      }
      case NAMENODE_RESTART_GEAR_0:
        return restartInGearZero(gear);
      case RELAYOUT_INTERRUPTED:
        return relayoutInterrupted(gear, max);
      default:
        throw new IllegalStateException("no action for " + fault);
    }
  }

  /**
   * Gear 0 (a gear-down first), then a NameNode restart: the restarted NameNode has no block report from the hosts
   * asleep, and HDFS's redundancy monitor runs {@link #RESTART_INTERVALS} intervals; the awake DataNodes may copy at
   * most 1% of the blocks asleep ({@link ThrashVerdict#restartCopiesWithinGoal}), else the round fails.
   */
  private String restartInGearZero(int gear) throws Exception {
    String setup = "";
    if (gear > 0) {
      setup = shift(0) + ", then ";
    }
    ClusterProbe.View view = cluster.awaitSteady(ROUND_TIMEOUT_S);
    if (view.gear() != 0) {
      return setup + "no restart: gear " + view.gear() + " in force";
    }
    long asleep = 0;
    for (DemoHosts.Host host : cluster.asleep(view)) {
      asleep += cluster.blocksOnDisk(host);
    }
    List<DemoHosts.Host> awake = cluster.awake(0);
    long before = cluster.blocksReplicated(awake);
    quarantinesBefore += Math.max(0, cluster.quarantinesCounted());
    cluster.restartNameNode();
    cluster.awaitSteady(ROUND_TIMEOUT_S);
    long waitMillis = RESTART_INTERVALS * cluster.redundancyIntervalMillis();
    Thread.sleep(waitMillis);
    long copied = cluster.blocksReplicated(awake) - before;
    String detail = String.format(Locale.ROOT, "%sNameNode restarted in gear 0; %d s of the redundancy monitor (%d"
        + " intervals) copied %d blocks, %d blocks asleep", setup, waitMillis / 1000, RESTART_INTERVALS, copied,
        asleep);
    if (!ThrashVerdict.restartCopiesWithinGoal(copied, asleep)) {
      throw new CheckFailed("copy storm: " + detail + " (allowed: 1%)");
    }
    return detail;
  }

  /**
   * At the highest gear (a gear-up first), {@link #OFF_HOME_FILES} files written with their replicas on DataNodes of
   * the gear groups only (HDFS's favored nodes), so none has a replica on a primary and gear 0 would be refused for
   * them, half of them walked first and half last; then {@code hdfs eafr relayout start}, the NameNode restarted once
   * relayout has persisted a batch with moves, and relayout going on from its persisted cursor until it reports
   * finished. The round fails unless relayout finishes, fsck is HEALTHY within {@link #FSCK_AFTER_RESTART_S} (the
   * restarted NameNode counts blocks missing until their DataNodes' first reports are in), the files read back with
   * their checksums, and gear 0 is then reached.
   */
  private String relayoutInterrupted(int gear, int max) throws Exception {
    String setup = gear < max ? shift(max) + ", then " : "";
    ClusterProbe.View view = cluster.awaitSteady(ROUND_TIMEOUT_S);
    if (view.gear() != max) {
      return setup + "no relayout: gear " + view.gear() + " in force";
    }
    List<String> files = new ArrayList<>();
    for (int i = 0; i < OFF_HOME_FILES; i++) {
      // Half walked first, half last (after /thrash/w*): the NameNode restarts between them, with moves still to do.
      String path = String.format(Locale.ROOT, i < OFF_HOME_FILES / 2 ? "/thrash/a-off-home/f%02d"
          : "/thrash/z-off-home/f%02d", i);
      if (load.writeOn(path, RELAYOUT_FILE_BYTES, cluster.offHome(i))) {
        files.add(path);
      }
    }
    ClusterProbe.Answer start = cluster.relayout("start");
    if (start.code() != 0) {
      throw new CheckFailed(setup + "relayout start refused: " + firstLine(start.text()));
    }
    long t = System.nanoTime();
    cluster.awaitRelayout("a first batch of relayout moves done", v -> v.path("movedReplicas").asLong() > 0
        && v.path("files").asLong() > 0 || v.path("state").asText().equals("finished"), ROUND_TIMEOUT_S);
    String before = cluster.relayout("status").text();
    quarantinesBefore += Math.max(0, cluster.quarantinesCounted());
    cluster.restartNameNode();
    JsonNode done = cluster.awaitRelayout("relayout finished",
        v -> v.path("state").asText().equals("finished"), ROUND_TIMEOUT_S);
    String relaid = String.format(Locale.ROOT, "%s%d files written off their homes; NameNode restarted mid-relayout"
        + " (%s); relayout finished %.0f s after its start: %d moves, %d bytes (%.2fx the lower bound %d), walk %d",
        setup, files.size(), firstLine(before).replaceFirst(";.*", ""), (System.nanoTime() - t) / 1e9,
        done.path("movedReplicas").asLong(), done.path("movedBytes").asLong(),
        done.path("movedToLowerBound").asDouble(), done.path("lowerBoundBytes").asLong(), done.path("pass").asInt());
    cluster.awaitSteady(ROUND_TIMEOUT_S);
    ThrashCluster.FsckAfterRestart fsck;
    try {
      fsck = cluster.fsckAfterRestart("relayout", FSCK_AFTER_RESTART_S);
    } catch (ThrashCluster.ThrashTimeout e) {
      throw new CheckFailed(relaid + "; " + e.getMessage());
    }
    long intact = files.stream().filter(load::verify).count();
    if (intact != files.size()) {
      throw new CheckFailed(relaid + "; " + fsck.describe() + ", " + intact + " of " + files.size()
          + " files intact");
    }
    String down = shift(0);
    if (!down.equals("gear 0 reached")) {
      throw new CheckFailed(relaid + "; " + fsck.describe() + "; " + down);
    }
    return relaid + "; " + fsck.describe() + ", " + intact + " files intact; " + down;
  }

  /** Asks for {@code target}; a refusal is the outcome, not an error (a gear-down may be unsafe). */
  private String shift(int target) throws Exception {
    java.time.LocalDateTime asked = java.time.LocalDateTime.now();
    ClusterProbe.Answer answer = cluster.gear(target);
    if (answer.code() != 0) {
      return "gear " + target + " refused: " + firstLine(answer.text());
    }
    return awaitGear(target, asked);
  }

  /**
   * Waits for {@code target} to be reached, or for the gear service to cancel the gear-down (it does when the
   * availability check fails after maintenance: docs/gears.md), which is then the outcome, its log line kept.
   */
  private String awaitGear(int target, java.time.LocalDateTime asked) throws Exception {
    List<String> cancelled = new ArrayList<>();
    cluster.await("gear " + target, ROUND_TIMEOUT_S, v -> {
      if (!cluster.steady(v)) {
        return false;
      }
      if (v.gear() == target) {
        return true;
      }
      try {
        cancelled.addAll(cluster.cancellations(asked));
      } catch (IOException e) {
        return false;
      }
      return !cancelled.isEmpty();
    });
    if (cancelled.isEmpty()) {
      return "gear " + target + " reached";
    }
    String line = cancelled.get(0);
    cancellations.add(line);
    return "gear " + target + " CANCELLED by the gear service: " + line.substring(line.indexOf("EAFR gears: ") + 12);
  }

  /**
   * A random IPMI host of a gear group that can sleep, and the shift that powers it: down to the gear below its group
   * when it is on, else up to its group.
   */
  private String bmcStop(int gear, Random random) throws Exception {
    List<DemoHosts.Host> ipmi = cluster.withDriver(DemoHosts.Driver.IPMI).stream()
        .filter(candidate -> candidate.gearGroup() > 0).toList();
    DemoHosts.Host host = ipmi.get(random.nextInt(ipmi.size()));
    boolean off = gear >= host.gearGroup();
    int target = off ? host.gearGroup() - 1 : host.gearGroup();
    int down = 5 + random.nextInt(16);
    java.time.LocalDateTime since = java.time.LocalDateTime.now();
    List<String> argv = cluster.stopBmc(host);
    ClusterProbe.Answer answer = cluster.gear(target);
    String powering = off ? "POWERING_OFF" : "POWERING_ON";
    try {
      if (answer.code() != 0) {
        return "ipmi_sim of dn" + host.index() + " stopped, gear " + target + " refused: " + firstLine(answer.text());
      }
      cluster.await("phase " + powering + " of gear " + target, ROUND_TIMEOUT_S,
          v -> v.phase().equals(powering) || cluster.steady(v));
      Thread.sleep(down * 1000L);
    } finally {
      cluster.startBmc(host, argv);
    }
    String reached = awaitGear(target, since);
    List<String> power = cluster.powerLines(host, since);
    long failed = power.stream().filter(line -> line.contains("EAFR power: attempt")).count();
    String result = power.stream().filter(line -> line.contains(" reached ")).reduce((a, b) -> b)
        .map(line -> line.substring(line.indexOf(" reached ") + 1)).orElse("no power result logged");
    return "ipmi_sim of dn" + host.index() + " stopped, gear " + target + " asked, BMC back " + down + " s into "
        + powering + " (" + failed + " failed attempts, " + result + "); " + reached;
  }

  /**
   * The Wake-on-LAN host asleep (a gear-down below its group first), woken normally, put to sleep again, then woken
   * with its first packet lost: the two wakes' times (first packet to the host on, as the power manager logs them)
   * give the cost of a lost packet under the resend interval.
   */
  private String wolLost(int gear, int max) throws Exception {
    DemoHosts.Host host = cluster.withDriver(DemoHosts.Driver.WOL).get(0);
    if (host.gearGroup() == 0) {
      return "dn" + host.index() + " (wol) is a primary (gear group 0): it never sleeps";
    }
    int below = host.gearGroup() - 1;
    String setup = "";
    if (gear >= host.gearGroup()) {
      setup = shift(below) + ", then ";
      cluster.awaitSteady(ROUND_TIMEOUT_S);
    }
    java.time.LocalDateTime normalSince = java.time.LocalDateTime.now();
    String normal = shift(max) + " (a normal wake: " + wakeTime(host, normalSince) + "), then ";
    cluster.awaitSteady(ROUND_TIMEOUT_S);
    normal += shift(below) + ", then ";
    cluster.awaitSteady(ROUND_TIMEOUT_S);
    Path drop = cluster.state().resolve("bmc").resolve("wol-drop-next");
    Files.writeString(drop, "thrash\n");
    java.time.LocalDateTime since = java.time.LocalDateTime.now();
    long t = System.nanoTime();
    String up = shift(max);
    boolean lost = !Files.exists(drop);
    Files.deleteIfExists(drop);
    return String.format(Locale.ROOT, "%s%s%s's first magic packet %s; %s after %.0f s (the wake: %s)", setup, normal,
        "dn" + host.index() + " (" + host.driver().inventoryName() + ")", lost ? "lost" : "never sent", up,
        (System.nanoTime() - t) / 1e9, wakeTime(host, since));
  }

  private static final Pattern REACHED_ON = Pattern.compile(" reached ON \\(.*, (\\d+) ms\\)");

  /** The last "reached ON (..., N ms)" the power manager logged for {@code host} since {@code since}, in seconds. */
  private String wakeTime(DemoHosts.Host host, java.time.LocalDateTime since) throws IOException {
    return cluster.powerLines(host, since).stream().map(ThrashRun::onMillis).filter(ms -> ms >= 0)
        .reduce((a, b) -> b).map(ms -> String.format(Locale.ROOT, "on %.1f s after its first packet", ms / 1e3))
        .orElse("no wake logged");
  }

  /** N of a power result line "HOST reached ON (on, K attempts, N ms)", or -1 for any other line. */
  static long onMillis(String line) {
    Matcher m = REACHED_ON.matcher(line);
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

  private String nodeDiesAsleep(int gear, Random random) throws Exception {
    String setup = "";
    ClusterProbe.View view = cluster.awaitSteady(ROUND_TIMEOUT_S);
    if (gear == cluster.maxGear()) {
      int target = gear - 1 - random.nextInt(Math.min(2, gear));
      setup = shift(target) + ", then ";
      view = cluster.awaitSteady(ROUND_TIMEOUT_S);
      gear = view.gear();
    }
    // Asleep as the NameNode says: a DataNode of a sleeping group woken out of turn (its recovery group's DataNode
    // died) stays on until the next shift and must not lose its disks as if asleep.
    List<DemoHosts.Host> asleep = new ArrayList<>(cluster.asleep(view));
    if (asleep.isEmpty()) {
      int above = cluster.maxGear() - gear;
      return setup + "no host asleep" + (above > 0 ? " (gear groups above " + gear + " woken out of turn)" : "");
    }
    // The sleeper with the most blocks (the last hosts of the chain may hold none): a random one of them on a tie.
    Collections.shuffle(asleep, random);
    DemoHosts.Host host = asleep.get(0);
    for (DemoHosts.Host candidate : asleep) {
      if (cluster.blocksOnDisk(candidate) > cluster.blocksOnDisk(host)) {
        host = candidate;
      }
    }
    if (!cluster.awaitDataNodeStopped(host, DATANODE_EXIT_S)) {
      throw new IOException("dn" + host.index() + " sleeps in gear " + gear + " (the NameNode has it asleep) but its"
          + " DataNode still runs " + DATANODE_EXIT_S + " s later");
    }
    long blocks = cluster.wipeBlocks(host);
    return setup + "dn" + host.index() + " (" + host.driver().inventoryName() + ") lost its " + blocks
        + " blocks asleep, woken by " + shift(host.gearGroup());
  }

  private String wakeDuringDown(int gear, int max, Random random) throws Exception {
    String setup = "";
    if (gear == 0) {
      setup = shift(max) + ", then ";
      gear = cluster.awaitSteady(ROUND_TIMEOUT_S).gear();
    }
    int from = gear;
    int down = random.nextInt(gear);
    java.time.LocalDateTime asked = java.time.LocalDateTime.now();
    ClusterProbe.Answer answer = cluster.gear(down);
    if (answer.code() != 0) {
      return setup + "gear " + down + " refused: " + firstLine(answer.text());
    }
    long t = System.nanoTime();
    int refused = 0;
    String firstRefusal = "";
    while (true) {
      Optional<ClusterProbe.View> view = cluster.view();
      boolean shifting = view.isPresent() && !view.get().phase().equals("STEADY");
      ClusterProbe.Answer up = cluster.gear(from);
      if (up.code() == 0) {
        break;
      }
      if (view.isPresent() && cluster.steady(view.get()) && view.get().gear() == from) {
        List<String> cancelled = cluster.cancellations(asked);
        cancellations.addAll(cancelled);
        return setup + "gear " + from + " -> " + down + " CANCELLED by the gear service (" + cancelled.size()
            + " log lines), gear " + from + " kept; gear " + from + " asked during it: " + firstLine(up.text());
      }
      if (refused++ == 0) {
        firstRefusal = (shifting ? " while " + view.get().phase() : "") + ": " + firstLine(up.text());
      }
      if (System.nanoTime() - t > ROUND_TIMEOUT_S * 1_000_000_000L) {
        throw new ThrashCluster.ThrashTimeout("gear " + from + " asked during the gear-down to " + down
            + " still refused after " + ROUND_TIMEOUT_S + " s: " + firstLine(up.text()));
      }
      Thread.sleep(1000);
    }
    cluster.await("gear " + from, ROUND_TIMEOUT_S, v -> v.gear() == from && cluster.steady(v));
    return String.format(Locale.ROOT, "%sgear %d -> %d, gear %d asked at once: refused %d times%s, accepted after"
        + " %.0f s; gear %d reached", setup, from, down, from, refused, firstRefusal, (System.nanoTime() - t) / 1e9,
        from);
  }

  private int report(ThrashPlan plan, ThrashVerdict verdict) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add(String.format(Locale.ROOT, "%-5s %-18s %-7s %8s  %s", "round", "fault", "outcome", "seconds", "what"
        + " happened"));
    for (Outcome o : outcomes) {
      lines.add(String.format(Locale.ROOT, "%-5d %-18s %-7s %8.0f  %s", o.round(), o.fault().label(),
          o.ok() ? "ok" : "FAILED", o.seconds(), o.detail()));
    }
    lines.add("");
    lines.add(String.format(Locale.ROOT, "seed %d, %d rounds in %.0f s", plan.seed(), plan.rounds().size(),
        (System.nanoTime() - began) / 1e9));
    lines.add(String.format(Locale.ROOT, "fsck: %s, missing blocks %d, corrupt blocks %d (logs/thrash-fsck.txt)",
        verdict.fsck().status(), verdict.fsck().missingBlocks(), verdict.fsck().corruptBlocks()));
    lines.add(String.format(Locale.ROOT, "files: %d kept, %d read back intact; checksum mismatches %d",
        verdict.filesWritten(), verdict.filesVerified(), verdict.checksumMismatches()));
    lines.add(String.format(Locale.ROOT, "reads: %d served (%d after a retry), %d failed; writes: %d done, %d failed",
        load.reads.get(), load.readsRetried.get(), verdict.readsFailed(), load.writes.get(),
        verdict.writesFailed()));
    lines.add("gear-downs cancelled by the gear service: " + cancellations.size());
    cancellations.forEach(line -> lines.add("  " + line));
    lines.add("quarantines: " + verdict.quarantinesCounted() + " counted by the power manager");
    verdict.quarantinesLogged().forEach(line -> lines.add("  " + line));
    load.failures().stream().limit(20).forEach(line -> lines.add("  load: " + line));
    List<String> failures = verdict.failures();
    lines.add(failures.isEmpty() ? "PASSED: every check holds" : "FAILED: " + String.join("; ", failures));
    Path summary = cluster.state().resolve("thrash-summary.txt");
    Files.write(summary, lines);
    System.out.println();
    lines.forEach(System.out::println);
    System.out.println("(also in " + summary + ")");
    return failures.isEmpty() ? 0 : 1;
  }

  /** A round's own check that does not hold (the fault was made). */
  static final class CheckFailed extends Exception {
    private static final long serialVersionUID = 1L;

    CheckFailed(String message) {
      super(message);
    }
  }

  private static String firstLine(String text) {
    int nl = text.indexOf('\n');
    return nl < 0 ? text : text.substring(0, nl);
  }

  private static void say(String message) {
    System.out.println("[thrash] " + message);
    System.out.flush();
  }
}
