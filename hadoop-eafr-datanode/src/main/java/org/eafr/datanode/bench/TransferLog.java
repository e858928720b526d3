package org.eafr.datanode.bench;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Block copies read from a DataNode's log (log4j ISO8601 timestamps). A DataNode-to-DataNode copy (re-replication)
 * logs {@code Receiving BLOCK src: /IP:PORT dest: /IP:PORT} when it starts and {@code Received BLOCK src: ... of size
 * N} when the block is closed (DataXceiver.writeBlock, Hadoop 3.4 and 3.5); the pair is one transfer. Starts without
 * an end (a copy still running or failed) are left out.
 */
public final class TransferLog {
  private static final DateTimeFormatter ISO8601 = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");
  private static final Pattern STARTED = Pattern.compile(
      "^(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3}) .*\\bReceiving (\\S+) src: /(\\S+) dest: ");
  private static final Pattern ENDED = Pattern.compile(
      "^(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3}) .*\\bReceived (\\S+) src: /(\\S+) dest: .* of size (\\d+)$");

  private final ZoneId zone;

  /** @param zone the time zone the DataNode logged in (the machine's, for daemons started here) */
  public TransferLog(ZoneId zone) {
    this.zone = zone;
  }

  /** The transfers whose start is at or after {@code sinceMillis}, in the order they ended. */
  public List<BlockTransfer> parse(Iterable<String> lines, long sinceMillis) {
    Map<String, Long> started = new HashMap<>();
    List<BlockTransfer> transfers = new ArrayList<>();
    for (String line : lines) {
      Matcher start = STARTED.matcher(line);
      if (start.find()) {
        started.put(start.group(2) + " " + start.group(3), millis(start.group(1), line));
        continue;
      }
      Matcher end = ENDED.matcher(line);
      if (end.find()) {
        Long startMillis = started.remove(end.group(2) + " " + end.group(3));
        if (startMillis != null && startMillis >= sinceMillis) {
          transfers.add(new BlockTransfer(end.group(2), end.group(3), startMillis, millis(end.group(1), line),
              Long.parseLong(end.group(4))));
        }
      }
    }
    return transfers;
  }

  private long millis(String timestamp, String line) {
    try {
      return LocalDateTime.parse(timestamp, ISO8601).atZone(zone).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("log line with a bad time stamp: " + line, e);
    }
  }
}
