package org.eafr.namenode.bench;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * JMH profiler ({@code -prof org.eafr.namenode.bench.ProcessCpuProfiler}): the forked JVM's CPU time (user + system,
 * every thread, so GC work counts too) per measured operation, as {@code cpu.time.norm} in us/op. On a machine shared
 * with other work the wall clock of an iteration stretches with others' load; the CPU a call uses stretches far less,
 * so the ratio of two policies' CPU per call is the steadier comparison.
 */
public final class ProcessCpuProfiler implements InternalProfiler {
  private long startNanos;

  @Override
  public String getDescription() {
    return "process CPU time per operation (user + system, all threads of the fork)";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmark, IterationParams iteration) {
    startNanos = cpuNanos();
  }

  @Override
  public Collection<? extends Result> afterIteration(BenchmarkParams benchmark, IterationParams iteration,
      IterationResult result) {
    long ops = result.getMetadata().getMeasuredOps();
    double micros = (cpuNanos() - startNanos) / 1_000.0;
    return List.of(new ScalarResult("cpu.time.norm", ops == 0 ? Double.NaN : micros / ops, "us/op",
        AggregationPolicy.AVG));
  }

  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
