package org.eafr.namenode.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * CPU time another process (a NameNode) has used, user plus system, from Linux's {@code /proc/PID/stat}. On a machine
 * shared with other work, the NameNode's CPU per operation is steadier than its operations per second: others' load
 * stretches the wall clock, not the work done per call.
 */
final class ProcessCpu {
  /** Linux reports /proc times in USER_HZ ticks, 100 per second on every mainstream architecture. */
  private static final long MICROS_PER_TICK = 10_000;

  private ProcessCpu() {
  }

  static long micros(long pid) throws IOException {
    return micros(new String(Files.readAllBytes(Paths.get("/proc", Long.toString(pid), "stat")),
        StandardCharsets.US_ASCII));
  }

  /**
   * utime + stime (fields 14 and 15 of proc(5)) in microseconds. The command name (field 2) may hold spaces and
   * parentheses, so fields are counted after its last ')'.
   */
  static long micros(String stat) {
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    // fields[0] is field 3 (state): utime is field 14, stime field 15.
    return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * MICROS_PER_TICK;
  }
}
