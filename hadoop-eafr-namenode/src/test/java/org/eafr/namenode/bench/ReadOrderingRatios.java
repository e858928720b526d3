package org.eafr.namenode.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prints {@link ReadOrderingBench}'s rows from a JMH JSON result ({@code -rf json}) as ratios to stock in the same run:
 * per DataNode count, each ordering's time per getBlockLocations answer with the copies ({@code copy-only}) taken
 * off, so what is compared is the ordering alone, for the wall clock and, when the run used
 * {@code -prof org.eafr.namenode.bench.ProcessCpuProfiler}, the CPU time.
 *
 * <p>Usage: {@code java ... org.eafr.namenode.bench.ReadOrderingRatios target/jmh-namenode.json}
 */
public final class ReadOrderingRatios {
  private ReadOrderingRatios() {
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: ReadOrderingRatios JMH_JSON");
      System.exit(2);
    }
    Map<String, Map<String, double[]>> byDataNodes = new TreeMap<>();
    for (JsonNode row : new ObjectMapper().readTree(new File(args[0]))) {
      if (!row.path("benchmark").asText().endsWith("ReadOrderingBench.orderOneCall")) {
        continue;
      }
      JsonNode params = row.path("params");
      JsonNode cpu = row.path("secondaryMetrics").path("cpu.time.norm");
      byDataNodes.computeIfAbsent(params.path("dataNodes").asText(), n -> new LinkedHashMap<>())
          .put(params.path("ordering").asText(), new double[] {row.path("primaryMetric").path("score").asDouble(),
              cpu.isMissingNode() ? Double.NaN : cpu.path("score").asDouble() * 1_000});
    }
    for (Map.Entry<String, Map<String, double[]>> size : byDataNodes.entrySet()) {
      print(size.getKey(), size.getValue());
    }
  }

  private static void print(String dataNodes, Map<String, double[]> rows) {
    double[] copies = rows.getOrDefault("copy-only", new double[2]);
    double[] stock = rows.get("stock");
    System.out.printf("%s DataNodes: ns per answer of 10 blocks, the copies (%.0f ns wall, %.0f ns CPU) taken off%n",
        dataNodes, copies[0], copies[1]);
    System.out.printf("  %-12s %10s %8s %10s %8s%n", "ordering", "wall", "/stock", "CPU", "/stock");
    for (Map.Entry<String, double[]> row : rows.entrySet()) {
      if (row.getKey().equals("copy-only")) {
        continue;
      }
      double wall = row.getValue()[0] - copies[0];
      double cpu = row.getValue()[1] - copies[1];
      System.out.printf("  %-12s %10.0f %8s %10.0f %8s%n", row.getKey(), wall,
          stock == null ? "-" : String.format("%.2f", wall / (stock[0] - copies[0])), cpu,
          stock == null ? "-" : String.format("%.2f", cpu / (stock[1] - copies[1])));
    }
  }
}
