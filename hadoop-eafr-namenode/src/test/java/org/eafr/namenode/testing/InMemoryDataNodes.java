package org.eafr.namenode.testing;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;

/**
 * DataNodes built in memory as the NameNode's DatanodeManager would register them (one storage, alive), for placement
 * tests and benchmarks on topologies too large for a MiniDFSCluster.
 */
public final class InMemoryDataNodes {
  private InMemoryDataNodes() {
  }

  /** DataNode number {@code i} at {@code ip} (port 9866) on {@code rack}: one empty storage of {@code capacity}. */
  public static DatanodeDescriptor dataNode(int i, String ip, String rack, StorageType type, long capacity) {
    DatanodeStorageInfo storage = DFSTestUtil.createDatanodeStorageInfo("s" + i, ip, rack, "host" + i, type, null);
    DatanodeDescriptor node = storage.getDatanodeDescriptor();
    for (DatanodeStorageInfo registered : node.getStorageInfos()) { // the descriptor's own storage objects
      registered.setUtilizationForTesting(capacity, 0, capacity, 0);
    }
    node.setCapacity(capacity);
    node.setRemaining(capacity);
    node.setAlive(true);
    return node;
  }
}
