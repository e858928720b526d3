package org.eafr.sim.policy;

/**
 * The oracle lower bound of SpringFS Sec. 5.2 ("ideal"): at every moment the fewest servers that carry the clients'
 * load at one server's full throughput, never fewer than the servers that hold one copy of all data, with no cleanup
 * work and no wake latency. It is a bound, not a system: the run places and serves like HDFS so that the load is the
 * same, and reports the ideal's machine-hours and energy (computed by the simulator from that load each period) and no
 * read latency.
 */
final class IdealPolicy extends HdfsPolicy {
  IdealPolicy(PolicyEnvironment env) {
    super("ideal", env);
  }

  @Override
  public boolean oracle() {
    return true;
  }
}
