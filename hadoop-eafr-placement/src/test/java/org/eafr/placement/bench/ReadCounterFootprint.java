package org.eafr.placement.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import org.eafr.placement.popularity.ReadStatistics;

/**
 * The heap a full read counter holds, measured rather than estimated: heap in use after a full GC, before and after
 * {@code files} distinct files (each read once, on one of three servers) are recorded into a
 * {@code ReadStatistics(maxTrackedFiles)}. Prints the bytes per tracked file and the total.
 *
 * <p>Usage: {@code java -Xmx2g ... ReadCounterFootprint [maxTrackedFiles, default 1000000] [files, default
 * maxTrackedFiles]}. Run it with more files than the cap to include the Bloom filter and prune scratch.
 */
public final class ReadCounterFootprint {
  private ReadCounterFootprint() {
  }

  public static void main(String[] args) {
    int maxTrackedFiles = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int files = args.length > 1 ? Integer.parseInt(args[1]) : maxTrackedFiles;
    String[] servers = {"10.0.0.1:9866", "10.0.0.2:9866", "10.0.0.3:9866"};
    long before = heapAfterGc();
    ReadStatistics statistics = new ReadStatistics(maxTrackedFiles);
    for (int f = 0; f < files; f++) {
      statistics.recordRead("/user/alice/logs/2024/" + (f % 1_000) + "/part-" + (f / 1_000) + ".gz", servers[f % 3]);
    }
    long after = heapAfterGc();
    int tracked = statistics.trackedFiles();
    System.out.printf("read counter footprint: maxTrackedFiles %,d, %,d files read, %,d tracked: %,d bytes of heap"
        + " = %.1f bytes per tracked file%n", maxTrackedFiles, files, tracked, after - before,
        (double) (after - before) / tracked);
    Reference.reachabilityFence(statistics);
  }

  private static long heapAfterGc() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return memory.getHeapMemoryUsage().getUsed();
  }
}
