package org.eafr.sim.policy;

/**
 * The oracle lower bound of SpringFS Sec. 5.2 ("ideal"): at every moment the fewest servers that carry the clients'
 * load at one server's full throughput, never fewer than the servers that hold one copy of all data, with no cleanup
 * work and no wake latency. It is a bound, not a system: the run places and serves like HDFS so that the load is the
 * same, and reports the ideal's machine-hours and energy (computed by the simulator from that load each period) and no
 * read latency.
 */
final class IdealPolicy extends HdfsPolicy {
  private final boolean keepsDwell;

  IdealPolicy(PolicyEnvironment env) {
    this("ideal", env, false);
  }

  /**
   * The ideal named {@code name}; with {@code keepsDwell} ("ideal-dwell") every server it switches on stays on for the
   * gear controller's minimum dwell ({@code eafr.gear.min-dwell.ms}), the power-cycle rule the geared policies keep.
   */
  IdealPolicy(String name, PolicyEnvironment env, boolean keepsDwell) {
    super(name, env);
    this.keepsDwell = keepsDwell;
  }

  @Override
  public boolean oracle() {
    return true;
  }

  @Override
  public boolean oracleKeepsDwell() {
    return keepsDwell;
  }
}
