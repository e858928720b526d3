package org.eafr.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.eafr.sim.policy.Registry;
import org.eafr.sim.stats.RunResult;
import org.eafr.sim.workload.TraceFormat;
import org.eafr.sim.workload.Workload;

/**
 * Runs every (variant, policy) pair of a scenario, in parallel on {@code threads} threads. Each run is independent and
 * seeded, so the results, returned in scenario order, do not depend on the thread count or timing.
 */
public final class Runner {
  private final int threads;
  private final ProgressBar.Factory progress;

  public Runner(int threads, ProgressBar.Factory progress) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads " + threads + " is not allowed: expected at least 1");
    }
    this.threads = threads;
    this.progress = progress;
  }

  /** One run to do: a variant's settings, a policy, and the trace. */
  private record Job(Scenario.Variant variant, String policy, SimSettings settings, Workload workload) {
  }

  /** An override of a key the scenario sweeps would make every point of the sweep the same run under its label. */
  private static void checkNotSwept(Scenario.Variant variant, Map<String, String> overrides) {
    for (String key : variant.settings().keySet()) {
      if (overrides.containsKey(key)) {
        throw new IllegalArgumentException("--set " + key + "=" + overrides.get(key) + " is not allowed: the scenario"
            + " sweeps " + key + " (variant " + variant.label() + "); run a scenario that does not sweep it");
      }
    }
  }

  /**
   * Runs {@code scenario}, with {@code overrides} on top of each variant's settings and only {@code policies} (all of
   * the scenario's when empty), on {@code trace} (null: each variant's own, or the synthetic workload).
   */
  public List<RunResult> run(Scenario scenario, Map<String, String> overrides, List<String> policies, String trace) {
    List<String> chosen = policies.isEmpty() ? scenario.policies() : policies;
    chosen.forEach(Registry::get);
    List<Job> jobs = new ArrayList<>();
    boolean ownTracesOnly = scenario.variants().stream().allMatch(v -> v.trace() != null);
    for (Scenario.Variant variant : scenario.variants()) {
      if (variant.trace() != null && trace != null && !ownTracesOnly) {
        continue; // --trace replaces the command's workload; a variant with a trace of its own is another workload
      }
      Map<String, String> raw = new LinkedHashMap<>(scenario.base());
      raw.putAll(variant.settings());
      checkNotSwept(variant, overrides);
      raw.putAll(overrides);
      SimSettings settings = SimSettings.of(raw);
      if (variant.trace() != null && trace != null) {
        throw new IllegalArgumentException("--trace " + trace + " is not allowed: scenario " + scenario.name()
            + " runs its own traces (variant " + variant.label() + ": " + variant.trace() + ")");
      }
      Workload workload = TraceFormat.open(variant.trace() != null ? variant.trace()
          : trace != null ? trace : "synthetic", settings);
      for (String policy : chosen) {
        jobs.add(new Job(variant, policy, settings, workload));
      }
    }
    ProgressBar bar = progress.create(jobs.size());
    ExecutorService pool = Executors.newFixedThreadPool(threads, task -> {
      Thread thread = new Thread(task, "sim-run");
      thread.setDaemon(true); // a failed run ends the command without waiting for the others
      return thread;
    });
    try {
      List<Future<RunResult>> futures = new ArrayList<>();
      for (int i = 0; i < jobs.size(); i++) {
        Job job = jobs.get(i);
        int index = i;
        futures.add(pool.submit(() -> {
          Simulator simulator = new Simulator(job.settings(), job.policy(), job.workload(),
              fraction -> bar.update(index, fraction));
          RunResult result = simulator.run(scenario.name(), job.variant().labelFor(job.settings()),
              job.variant().x());
          bar.finished(index);
          return result;
        }));
      }
      List<RunResult> results = new ArrayList<>();
      for (Future<RunResult> future : futures) {
        results.add(future.get());
      }
      return results;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running scenario " + scenario.name(), e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException("scenario " + scenario.name() + " failed", e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }
}
