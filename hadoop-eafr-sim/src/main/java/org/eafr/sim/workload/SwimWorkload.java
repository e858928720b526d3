package org.eafr.sim.workload;

import org.eafr.sim.SimSettings;

/**
 * A SWIM trace over the synthetic workload's file catalog (same sizes for the same seed): jobs become reads of
 * catalog files ({@link SwimTraceReader}). The trace's 24 hours are kept as they are. With generated paths, the jobs
 * get input paths of the FB-2010 popularity ({@link SwimPathTraceGenerator}, seeded by sim.seed), generated once and
 * read from memory by every run.
 */
final class SwimWorkload implements Workload {
  private final SimSettings settings;
  private final String path;
  private final long[] sizes;
  private final String generated;

  SwimWorkload(SimSettings settings, String path, boolean generatePaths) {
    this.settings = settings;
    this.path = path;
    this.sizes = new SyntheticWorkload(settings.with(java.util.Map.of("sim.read-files", "1"))).fileSizes();
    this.generated = generatePaths ? String.join("\n", SwimPathTraceGenerator.generate(path, settings.seed())) : null;
  }

  @Override
  public long[] fileSizes() {
    return sizes.clone();
  }

  @Override
  public TraceReader open() {
    double outputFileBytes = settings.swimOutputBytes() ? meanSize() : 0;
    if (generated != null) {
      return new SwimTraceReader(path + " with generated input paths",
          new java.io.BufferedReader(new java.io.StringReader(generated)), sizes.length, settings.seed(),
          settings.swimRewrites(), byteScale(), outputFileBytes);
    }
    return new SwimTraceReader(path, sizes.length, settings.seed(), 1.0, settings.swimRewrites(), byteScale(),
        outputFileBytes);
  }

  private double meanSize() {
    double total = 0;
    for (long size : sizes) {
      total += size;
    }
    return total / sizes.length;
  }

  /**
   * Simulated servers over the machines of the traced cluster (the traces' README: FB-2009 600, FB-2010 3,000); 1 for
   * a trace named neither.
   */
  double byteScale() {
    String name = path.substring(path.lastIndexOf('/') + 1);
    int machines = name.contains("FB-2009") ? 600 : name.contains("FB-2010") ? 3_000 : 0;
    return machines == 0 ? 1.0 : (double) settings.servers() / machines;
  }

  @Override
  public String describe() {
    return "SWIM " + path + (generated != null ? " with generated input paths" : "") + " over " + sizes.length
        + " files";
  }
}
