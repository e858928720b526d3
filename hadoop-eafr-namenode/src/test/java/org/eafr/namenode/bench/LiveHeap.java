package org.eafr.namenode.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

/**
 * The bytes of live objects in another JVM (a NameNode), from {@code jcmd PID GC.class_histogram}: the histogram runs
 * a full GC first, and its last line totals what survived. Differences of two readings are what a phase of a bench
 * left on the heap.
 */
final class LiveHeap {
  private LiveHeap() {
  }

  /** Live bytes in the JVM with process id {@code pid}, after a full GC. */
  static long measure(long pid) throws IOException, InterruptedException {
    Path jcmd = Paths.get(System.getProperty("java.home"), "bin", "jcmd");
    Process process = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.class_histogram")
        .redirectErrorStream(true).start();
    String output;
    try (InputStream in = process.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IOException("jcmd " + pid + " GC.class_histogram failed: " + output.strip());
    }
    return totalBytes(output);
  }

  /** The #bytes column of the histogram's "Total" line. */
  static long totalBytes(String histogram) {
    for (String line : histogram.split("\n")) {
      String[] fields = line.trim().split("\\s+");
      if (fields.length == 3 && fields[0].equals("Total")) {
        return Long.parseLong(fields[2]);
      }
    }
    throw new IllegalArgumentException("no Total line in the class histogram: "
        + histogram.substring(0, Math.min(200, histogram.length())));
  }
}
