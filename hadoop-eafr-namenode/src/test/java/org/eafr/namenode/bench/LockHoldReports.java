package org.eafr.namenode.bench;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;

/**
 * The longest namesystem lock holds as HDFS itself reports them: with {@link #configure}, every read-lock hold of at
 * least the threshold (and write-lock hold, at its own threshold) makes FSNamesystemLock log a line naming the hold's
 * length ("Longest read-lock held at ... for N ms"), unsuppressed; this appender on FSNamesystem's log reads N.
 * Holds shorter than the threshold are not reported: {@link #longestReadMillis} is then below it.
 */
public final class LockHoldReports extends AppenderSkeleton {
  private static final Pattern READ = Pattern.compile("Longest read-lock held at .*? for (\\d+) ?ms", Pattern.DOTALL);
  private static final Pattern WRITE = Pattern.compile("Longest write-lock held at .*? for (\\d+) ?ms",
      Pattern.DOTALL);

  private final long thresholdMillis;
  private volatile long longestRead;
  private volatile long longestWrite;
  private volatile long readReports;

  /** Lock holds from {@code thresholdMillis} up reported, each one (no suppression window). */
  public static void configure(Configuration conf, long thresholdMillis) {
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_READ_LOCK_REPORTING_THRESHOLD_MS_KEY, thresholdMillis);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_WRITE_LOCK_REPORTING_THRESHOLD_MS_KEY, thresholdMillis);
    conf.set(DFSConfigKeys.DFS_LOCK_SUPPRESS_WARNING_INTERVAL_KEY, "0ms");
  }

  private LockHoldReports(long thresholdMillis) {
    this.thresholdMillis = thresholdMillis;
  }

  /** Attaches a new reader to FSNamesystem's log (its lines go nowhere else); {@link #configure}d threshold. */
  public static LockHoldReports attach(long thresholdMillis) {
    LockHoldReports reports = new LockHoldReports(thresholdMillis);
    Logger log = Logger.getLogger(FSNamesystem.class);
    log.setLevel(Level.INFO);
    log.setAdditivity(false);
    log.addAppender(reports);
    return reports;
  }

  /** Forgets what was reported so far. */
  public void reset() {
    longestRead = 0;
    longestWrite = 0;
    readReports = 0;
  }

  /** The shortest hold reported. */
  public long thresholdMillis() {
    return thresholdMillis;
  }

  public long longestReadMillis() {
    return longestRead;
  }

  public long longestWriteMillis() {
    return longestWrite;
  }

  /** Read-lock holds at or over the threshold since the last reset. */
  public long readReports() {
    return readReports;
  }

  /** Reads one of FSNamesystem's log lines. */
  void read(String message) {
    Matcher read = READ.matcher(message);
    if (read.find()) {
      readReports++;
      longestRead = Math.max(longestRead, Long.parseLong(read.group(1)));
    }
    Matcher write = WRITE.matcher(message);
    if (write.find()) {
      longestWrite = Math.max(longestWrite, Long.parseLong(write.group(1)));
    }
  }

  @Override
  protected synchronized void append(LoggingEvent event) {
    read(event.getRenderedMessage());
  }

  @Override
  public void close() {
  }

  @Override
  public boolean requiresLayout() {
    return false;
  }
}
