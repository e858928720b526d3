package org.eafr.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The thrash test's end checks (docs/thrash.md): fsck healthy with no missing or corrupt block, every file written
 * read back with its checksum, no read or write failed (today no wake is documented to make a read wait: waking a
 * recovery group for a read is not built yet, so every failed read counts), every round finished, and every quarantine the power manager counted named in the NameNode's log (so the
 * summary reports each). {@link #failures()} names each check that does not hold; empty means the run passed.
 */
public record ThrashVerdict(Fsck fsck, long filesWritten, long filesVerified, long checksumMismatches,
    long readsFailed, long writesFailed, List<String> roundsFailed, long quarantinesCounted,
    List<String> quarantinesLogged) {

  public ThrashVerdict {
    roundsFailed = List.copyOf(roundsFailed);
    quarantinesLogged = List.copyOf(quarantinesLogged);
  }

  /** What {@code hdfs fsck /} said: its status line and its missing and corrupt block counts (-1: not printed). */
  public record Fsck(String status, long missingBlocks, long corruptBlocks) {
    private static final Pattern STATUS = Pattern.compile("^Status: (\\w+)", Pattern.MULTILINE);
    private static final Pattern MISSING = Pattern.compile("Missing blocks:\\s+(\\d+)");
    private static final Pattern CORRUPT = Pattern.compile("Corrupt blocks:\\s+(\\d+)");

    /** Reads fsck's report (Hadoop 3.4's format: "Status: HEALTHY", " Missing blocks:\t\t0", ...). */
    public static Fsck parse(String report) {
      Matcher status = STATUS.matcher(report);
      return new Fsck(status.find() ? status.group(1) : "no status line", number(MISSING, report),
          number(CORRUPT, report));
    }

    private static long number(Pattern pattern, String report) {
      Matcher m = pattern.matcher(report);
      return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    boolean healthy() {
      return status.equals("HEALTHY") && missingBlocks == 0 && corruptBlocks == 0;
    }
  }

  public List<String> failures() {
    List<String> failures = new ArrayList<>();
    if (!fsck.healthy()) {
      failures.add(String.format(Locale.ROOT, "fsck: status %s, %s missing, %s corrupt blocks", fsck.status(),
          count(fsck.missingBlocks()), count(fsck.corruptBlocks())));
    }
    if (checksumMismatches > 0) {
      failures.add(checksumMismatches + " checksum mismatches");
    }
    if (filesVerified != filesWritten) {
      failures.add((filesWritten - filesVerified) + " of " + filesWritten + " files not read back intact");
    }
    if (readsFailed > 0) {
      failures.add(readsFailed + " failed reads");
    }
    if (writesFailed > 0) {
      failures.add(writesFailed + " failed writes");
    }
    for (String round : roundsFailed) {
      failures.add("round " + round);
    }
    if (quarantinesCounted != quarantinesLogged.size()) {
      failures.add("the power manager counted " + quarantinesCounted + " quarantines, the NameNode log names "
          + quarantinesLogged.size());
    }
    return failures;
  }

  /**
   * The check of the round that restarts the NameNode in gear 0 (docs/thrash.md): HDFS's redundancy monitor copied at
   * most 1% of the blocks asleep, {@code copied} blocks re-replicated by the awake DataNodes against {@code asleep}
   * blocks on the hosts asleep: 3 of 300 pass, 4 do not.
   */
  static boolean restartCopiesWithinGoal(long copied, long asleep) {
    return copied * 100 <= asleep;
  }

  private static String count(long n) {
    return n < 0 ? "n/a" : String.valueOf(n);
  }
}
