package org.eafr.sim.workload;

import org.eafr.sim.SimSettings;

/**
 * A SWIM trace over the synthetic workload's file catalog (same sizes for the same seed): jobs become reads of
 * catalog files ({@link SwimTraceReader}). The trace's 24 hours are kept as they are.
 */
final class SwimWorkload implements Workload {
  private final SimSettings settings;
  private final String path;
  private final long[] sizes;

  SwimWorkload(SimSettings settings, String path) {
    this.settings = settings;
    this.path = path;
    this.sizes = new SyntheticWorkload(settings.with(java.util.Map.of("sim.read-files", "1"))).fileSizes();
  }

  @Override
  public long[] fileSizes() {
    return sizes.clone();
  }

  @Override
  public TraceReader open() {
    return new SwimTraceReader(path, sizes.length, settings.seed(), 1.0, settings.swimRewrites());
  }

  @Override
  public String describe() {
    return "SWIM " + path + " over " + sizes.length + " files";
  }
}
