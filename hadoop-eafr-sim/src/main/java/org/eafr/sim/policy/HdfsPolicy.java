package org.eafr.sim.policy;

import java.util.List;
import org.eafr.placement.baseline.HdfsDefaultPlacement;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.sim.model.SimFile;

/** Stock HDFS: three replicas by {@link HdfsDefaultPlacement}, never changed; random reads; every server on. */
class HdfsPolicy extends BaselinePolicy {
  HdfsPolicy(PolicyEnvironment env) {
    this("hdfs", env);
  }

  HdfsPolicy(String name, PolicyEnvironment env) {
    super(name, env);
  }

  @Override
  public void readStarted(SimFile file, String serverId, long nowMillis) {
  }

  @Override
  public IntervalDecision endOfInterval(List<SimFile> files, ClusterView cluster, long nowMillis) {
    return IntervalDecision.NONE;
  }
}
