package org.eafr.datanode.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * TCP counters of a network namespace, read through a process in it: /proc/PID/net/snmp ({@code Tcp: RetransSegs})
 * and /proc/PID/net/netstat ({@code TcpExt: TCPTimeouts}) show the counters of PID's namespace. In both files a
 * header line names the columns of the value line after it.
 */
public final class TcpCounters {
  private TcpCounters() {
  }

  /** Retransmitted segments and retransmission timeouts, summed over the namespaces of {@code pids}. */
  public static long[] of(List<Long> pids) throws IOException {
    long retrans = 0;
    long timeouts = 0;
    for (long pid : pids) {
      Path net = Path.of("/proc", Long.toString(pid), "net");
      retrans += counter(Files.readAllLines(net.resolve("snmp"), StandardCharsets.UTF_8), "Tcp:", "RetransSegs");
      timeouts += counter(Files.readAllLines(net.resolve("netstat"), StandardCharsets.UTF_8), "TcpExt:",
          "TCPTimeouts");
    }
    return new long[] {retrans, timeouts};
  }

  /** The value of column {@code name} in the {@code prefix} table of a /proc/net file; 0 when it has none. */
  static long counter(List<String> lines, String prefix, String name) {
    for (int i = 0; i + 1 < lines.size(); i++) {
      String[] header = lines.get(i).trim().split("\\s+");
      if (!header[0].equals(prefix)) {
        continue;
      }
      String[] values = lines.get(i + 1).trim().split("\\s+");
      for (int c = 1; c < header.length && c < values.length; c++) {
        if (header[c].equals(name)) {
          return Long.parseLong(values[c]);
        }
      }
      return 0;
    }
    return 0;
  }
}
