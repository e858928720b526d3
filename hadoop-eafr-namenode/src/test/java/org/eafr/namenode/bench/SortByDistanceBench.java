package org.eafr.namenode.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.net.DFSNetworkTopology;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.net.NetworkTopology;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.config.NamenodeSettings;
import org.eafr.namenode.read.EafrNetworkTopology;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The reader ordering of one block's 3 replicas ({@code NetworkTopology.sortByDistance}, what getBlockLocations runs
 * per block), EAFR's {@link EafrNetworkTopology} against stock {@link DFSNetworkTopology} in the same run. 1,000
 * DataNodes on 40 racks; a roles file of 200 entries (100 standby hosts by HOST:PORT, 100 hot hosts by name), as an
 * operator of such a cluster might write; the reader is a DataNode, so its rack is known.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SortByDistanceBench {
  private static final int RACKS = 40;
  private static final int PER_RACK = 25;
  private static final int ROLE_ENTRIES = 100;

  @Param({"stock", "eafr"})
  public String topology;

  private Configuration conf;
  private NetworkTopology network;
  private DatanodeDescriptor[] nodes;
  private DatanodeDescriptor[] replicas = new DatanodeDescriptor[3];
  private int next;

  @Setup
  public void setUp() throws Exception {
    conf = new HdfsConfiguration();
    Path dir = Files.createTempDirectory("sort-by-distance-bench");
    conf.set(DFSConfigKeys.DFS_NAMENODE_NAME_DIR_KEY, dir.toString());
    nodes = new DatanodeDescriptor[RACKS * PER_RACK];
    for (int i = 0; i < nodes.length; i++) {
      String ip = "10.0." + (i / 250) + "." + (i % 250 + 1);
      nodes[i] = DFSTestUtil.getDatanodeDescriptor(ip, 9866, "/rack" + (i / PER_RACK), "host" + i);
      nodes[i].setAlive(true);
    }
    if (topology.equals("eafr")) {
      conf.set(NamenodeSettings.ROLES_FILE_KEY, rolesFile(dir).toString());
      conf.set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, EafrNetworkTopology.class.getName());
    }
    network = DFSNetworkTopology.getInstance(conf);
    for (DatanodeDescriptor node : nodes) {
      network.add(node);
    }
  }

  /** 100 standby DataNodes by HOST:PORT, then 100 hot ones by host name; the rest unlisted (hot). */
  private Path rolesFile(Path dir) throws Exception {
    List<String> lines = new ArrayList<>();
    StringBuilder standby = new StringBuilder("standby");
    StringBuilder hot = new StringBuilder("hot");
    for (int i = 0; i < ROLE_ENTRIES; i++) {
      standby.append(' ').append(nodes[i * 7].getXferAddr());
      hot.append(' ').append(nodes[i * 7 + 3].getHostName());
    }
    lines.add(standby.toString());
    lines.add(hot.toString());
    return Files.write(dir.resolve("roles"), lines);
  }

  @TearDown
  public void tearDown() {
    EafrRuntime.release(conf);
  }

  @Benchmark
  public DatanodeDescriptor[] sortByDistance() {
    DatanodeDescriptor reader = nodes[next];
    replicas[0] = nodes[(next + 1) % nodes.length];
    replicas[1] = nodes[(next + PER_RACK * 3) % nodes.length];
    replicas[2] = nodes[(next + PER_RACK * 3 + 1) % nodes.length];
    next = (next + 7) % nodes.length;
    network.sortByDistance(reader, replicas, replicas.length, list -> { });
    return replicas;
  }
}
