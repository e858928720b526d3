package org.eafr.namenode.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.ha.HATestUtil;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.config.DataNodeName;
import org.eafr.namenode.monitor.ReplicationMonitor;
import org.eafr.namenode.placement.EafrBlockPlacementPolicy;
import org.eafr.placement.cluster.ServerRole;

/**
 * A MiniDFSCluster of nine DataNodes on three racks (three per rack) running the EAFR NameNode parts, with helpers to
 * give DataNodes roles, write files whose checksums are remembered, and check every file's content afterwards. With
 * {@link #startHa} it has an HA pair of NameNodes: every helper then works on the active one, and the client fails
 * over with it.
 */
public final class EafrCluster implements AutoCloseable {
  public static final int BLOCK_SIZE = 1 << 20;
  public static final String[] RACKS = {"/r1", "/r1", "/r1", "/r2", "/r2", "/r2", "/r3", "/r3", "/r3"};

  private final MiniDFSCluster cluster;
  private final Configuration conf;
  private final Path rolesFile;
  private final Map<String, byte[]> digests = new LinkedHashMap<>();
  /** DataNode ids in start order, so indexes stay valid when DataNodes stop. */
  private final List<DatanodeID> startOrder = new ArrayList<>();
  /** The index of the active NameNode (0 without HA). */
  private volatile int active;
  private DistributedFileSystem failoverFs;

  private EafrCluster(MiniDFSCluster cluster, Configuration conf, Path rolesFile) {
    this.cluster = cluster;
    this.conf = conf;
    this.rolesFile = rolesFile;
    for (DataNode dn : cluster.getDataNodes()) {
      startOrder.add(dn.getDatanodeId());
    }
  }

  /** A configuration for a fast test cluster with the EAFR placement policy; callers may add keys. */
  public static Configuration baseConf(String name) throws IOException {
    Path tmp = Paths.get(System.getProperty("java.io.tmpdir"));
    Files.createDirectories(tmp);
    Path dir = Files.createTempDirectory(tmp, name);
    Configuration conf = new HdfsConfiguration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.resolve("dfs").toString());
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, BLOCK_SIZE);
    conf.setInt(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, 1);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_HEARTBEAT_RECHECK_INTERVAL_KEY, 500);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_INTERVAL_SECONDS_KEY, 1);
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_CONSIDERLOAD_KEY, false);
    conf.set(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY, EafrBlockPlacementPolicy.class.getName());
    conf.set("eafr.storage-reserve.bytes", "0");
    conf.set("eafr.random.seed", "7");
    Path roles = dir.resolve("eafr-roles");
    Files.write(roles, List.of("unlisted hot"), StandardCharsets.UTF_8);
    conf.set("eafr.roles.file", roles.toString());
    return conf;
  }

  public static EafrCluster start(Configuration conf) throws IOException {
    return start(conf, RACKS);
  }

  /** A cluster with one DataNode per entry of {@code racks}, on that rack. */
  public static EafrCluster start(Configuration conf, String[] racks) throws IOException {
    return start(conf, racks, null);
  }

  /** The same, each DataNode registering with the host name of {@code hosts} (dfs.datanode.hostname) when given. */
  public static EafrCluster start(Configuration conf, String[] racks, String[] hosts) throws IOException {
    return start(conf, racks, hosts, 0);
  }

  /**
   * The same; with {@code capacity} above 0 each DataNode has one storage of that many bytes (so a few MB of data
   * make its disk use differ from the others', as the Balancer needs to act).
   */
  public static EafrCluster start(Configuration conf, String[] racks, String[] hosts, long capacity)
      throws IOException {
    // MiniDFSCluster's Builder turns dfs.namenode.redundancy.considerLoad off unless told: keep the caller's value.
    boolean considerLoad = conf.getBoolean(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_CONSIDERLOAD_KEY, false);
    MiniDFSCluster.Builder builder = new MiniDFSCluster.Builder(conf).numDataNodes(racks.length).racks(racks)
        .hosts(hosts).setNNRedundancyConsiderLoad(considerLoad);
    if (capacity > 0) {
      long[][] capacities = new long[racks.length][];
      Arrays.fill(capacities, new long[] {capacity});
      builder.storagesPerDatanode(1).storageCapacities(capacities);
    }
    MiniDFSCluster cluster = builder.build();
    cluster.waitActive();
    return new EafrCluster(cluster, conf, Paths.get(conf.get("eafr.roles.file")));
  }

  /**
   * A cluster with an HA pair of NameNodes (NameNode 0 active; the standby tails the edit log every second) and one
   * DataNode per entry of {@code racks}.
   */
  public static EafrCluster startHa(Configuration conf, String[] racks) throws IOException {
    conf.setInt(DFSConfigKeys.DFS_HA_TAILEDITS_PERIOD_KEY, 1);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).nnTopology(MiniDFSNNTopology.simpleHATopology())
        .numDataNodes(racks.length).racks(racks).build();
    cluster.transitionToActive(0);
    cluster.waitActive();
    EafrCluster eafr = new EafrCluster(cluster, conf, Paths.get(conf.get("eafr.roles.file")));
    try {
      eafr.failoverFs = HATestUtil.configureFailoverFs(cluster, conf);
    } catch (java.net.URISyntaxException e) {
      throw new IOException(e);
    }
    return eafr;
  }

  /** The HA pair's active NameNode becomes the standby and the other one active. */
  public void failover() throws IOException {
    int next = 1 - active;
    cluster.transitionToStandby(active);
    cluster.transitionToActive(next);
    active = next;
  }

  /** The replication monitor of the active NameNode, once its plugin has started; else null. */
  public ReplicationMonitor monitor() {
    return monitor(active);
  }

  /** The replication monitor of NameNode {@code nn}, once its plugin has started; else null. */
  public ReplicationMonitor monitor(int nn) {
    return (ReplicationMonitor) runtime(nn).monitor();
  }

  /** The index of the active NameNode (0 without HA). */
  public int active() {
    return active;
  }

  /** The EAFR runtime of NameNode {@code nn}. */
  public EafrRuntime runtime(int nn) {
    return EafrRuntime.of(cluster.getNameNode(nn).getConf());
  }

  /** The active NameNode's EAFR metrics source ({@code EafrNameNode}): its current values, by name. */
  public Map<String, Number> eafrMetrics() {
    org.apache.hadoop.metrics2.impl.MetricsCollectorImpl collector =
        new org.apache.hadoop.metrics2.impl.MetricsCollectorImpl();
    EafrRuntime runtime = runtime();
    new org.eafr.namenode.monitor.EafrMetrics(runtime.monitorStats(), runtime.transfers(), runtime.gears(), null)
        .getMetrics(collector, true);
    Map<String, Number> values = new java.util.HashMap<>();
    for (org.apache.hadoop.metrics2.AbstractMetric metric : collector.getRecords().get(0).metrics()) {
      values.put(metric.name(), metric.value());
    }
    return values;
  }

  /** The active NameNode's namesystem. */
  public FSNamesystem namesystem() {
    return cluster.getNamesystem(active);
  }

  public MiniDFSCluster mini() {
    return cluster;
  }

  public Configuration conf() {
    return conf;
  }

  public DistributedFileSystem fs() throws IOException {
    return failoverFs != null ? failoverFs : cluster.getFileSystem();
  }

  /** The EAFR runtime of the active NameNode. */
  public EafrRuntime runtime() {
    return runtime(active);
  }

  /** The active NameNode. */
  public org.apache.hadoop.hdfs.server.namenode.NameNode nameNode() {
    return cluster.getNameNode(active);
  }

  public DatanodeManager datanodeManager() {
    return namesystem().getBlockManager().getDatanodeManager();
  }

  /** The NameNode's descriptor of DataNode {@code index} (in the order of {@link #RACKS}). */
  public DatanodeDescriptor descriptor(int index) throws IOException {
    return datanodeManager().getDatanode(startOrder.get(index));
  }

  /** The running DataNode {@code index} (in the order of {@link #RACKS}). */
  public DataNode dataNode(int index) {
    for (DataNode dn : cluster.getDataNodes()) {
      if (dn.getDatanodeId().getXferAddr().equals(startOrder.get(index).getXferAddr())) {
        return dn;
      }
    }
    throw new IllegalArgumentException("DataNode " + index + " is not running");
  }

  public String id(int index) {
    return ServerTranslator.idOf(startOrder.get(index));
  }

  /** The index of the DataNode with the core id {@code id}. */
  public int indexOf(String id) {
    for (int i = 0; i < startOrder.size(); i++) {
      if (id(i).equals(id)) {
        return i;
      }
    }
    throw new IllegalArgumentException("no DataNode " + id);
  }

  /** Stops DataNode {@code index} and has the NameNode declare it dead at once. */
  public void kill(int index) throws IOException {
    cluster.stopDataNode(startOrder.get(index).getXferAddr());
    cluster.setDataNodeDead(startOrder.get(index));
  }

  /** Writes the roles file with {@code standby} DataNodes as standby, the rest hot, and reloads it. */
  public void standby(int... standby) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("unlisted hot");
    for (int index : standby) {
      lines.add("standby " + id(index));
    }
    Files.write(rolesFile, lines, StandardCharsets.UTF_8);
    runtime().roles().reload(rolesFile, registeredNames());
  }

  public Path rolesFile() {
    return rolesFile;
  }

  public List<DataNodeName> registeredNames() {
    List<DataNodeName> names = new ArrayList<>();
    for (DatanodeDescriptor dn : datanodeManager().getDatanodeListForReport(DatanodeReportType.ALL)) {
      names.add(ServerTranslator.nameOf(dn));
    }
    return names;
  }

  public ServerRole roleOf(DatanodeInfo dataNode) throws IOException {
    return runtime().translator().roleOf(datanodeManager().getDatanode(dataNode));
  }

  /**
   * Writes {@code bytes} seeded random bytes to {@code path}, remembers their digest, waits until every replica is
   * reported, and starts a new read interval: the location polls of that wait are audited opens, not workload.
   */
  public void write(String path, int replication, int bytes, long seed, DataNode... favored) throws IOException {
    byte[] data = new byte[bytes];
    new Random(seed).nextBytes(data);
    InetSocketAddress[] favoredNodes = Arrays.stream(favored).map(dn -> dn.getXferAddress())
        .toArray(InetSocketAddress[]::new);
    try (FSDataOutputStream out = fs().create(new org.apache.hadoop.fs.Path(path), FsPermission.getFileDefault(),
        true, 4096, (short) replication, BLOCK_SIZE, null, favored.length == 0 ? null : favoredNodes)) {
      out.write(data);
    }
    digests.put(path, digest(data));
    try {
      DFSTestUtil.waitReplication(fs(), new org.apache.hadoop.fs.Path(path), (short) replication);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IOException("replicas of " + path + " not reported in time", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    runtime().reads().snapshotAndReset();
  }

  /** Deletes the file at {@code path} and forgets its checksum. */
  public void delete(String path) throws IOException {
    fs().delete(new org.apache.hadoop.fs.Path(path), false);
    digests.remove(path);
  }

  /** The replica locations of every block of {@code path}, as the NameNode stores them. */
  public List<List<DatanodeInfo>> locations(String path) throws IOException {
    List<List<DatanodeInfo>> blocks = new ArrayList<>();
    for (LocatedBlock block : cluster.getNameNodeRpc(active).getBlockLocations(path, 0, Long.MAX_VALUE)
        .getLocatedBlocks()) {
      blocks.add(Arrays.asList(block.getLocations()));
    }
    return blocks;
  }

  /** The holders of the first block of {@code path}, as core ids, read from the NameNode without side effects. */
  public List<String> holders(String path) throws IOException {
    return blockHolders(path).get(0);
  }

  /**
   * The holders of every block of {@code path}, as core ids, as the NameNode's block map has them (a replica HDFS has
   * chosen to delete stays until its DataNode confirms; client block locations hide it at once).
   */
  public List<List<String>> blockHolders(String path) throws IOException {
    List<List<String>> blocks = new ArrayList<>();
    FSNamesystem namesystem = namesystem();
    namesystem.readLock();
    try {
      for (org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo block
          : namesystem.getFSDirectory().getINode(path).asFile().getBlocks()) {
        List<String> holders = new ArrayList<>();
        for (org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo storage
            : namesystem.getBlockManager().getStorages(block)) {
          holders.add(ServerTranslator.idOf(storage.getDatanodeDescriptor()));
        }
        blocks.add(holders);
      }
    } finally {
      namesystem.readUnlock();
    }
    return blocks;
  }

  /** The role of the DataNode with core id {@code id}. */
  public ServerRole roleOfId(String id) throws IOException {
    return roleOf(descriptor(indexOf(id)));
  }

  /** Reads {@code path} through a client {@code times} times: each is one open the NameNode audits. */
  public void read(String path, int times) throws IOException {
    for (int i = 0; i < times; i++) {
      try (FSDataInputStream in = fs().open(new org.apache.hadoop.fs.Path(path))) {
        in.readFully(0, new byte[(int) fs().getFileStatus(new org.apache.hadoop.fs.Path(path)).getLen()]);
      }
    }
  }

  /** Reads every file written through {@link #write} and checks it against its digest. */
  public void verifyChecksums() throws IOException {
    for (Map.Entry<String, byte[]> file : digests.entrySet()) {
      org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.getKey());
      byte[] data = new byte[(int) fs().getFileStatus(path).getLen()];
      try (FSDataInputStream in = fs().open(path)) {
        in.readFully(0, data);
      }
      assertThat(digest(data)).as("content of %s", file.getKey()).isEqualTo(file.getValue());
    }
  }

  public List<String> files() {
    return new ArrayList<>(digests.keySet());
  }

  private static byte[] digest(byte[] data) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(data);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    for (int nn = 0; nn < cluster.getNumNameNodes(); nn++) {
      EafrRuntime.release(cluster.getNameNode(nn).getConf());
    }
    cluster.shutdown(true);
  }

  /** Checks every file's content (after each test), then shuts the cluster down even when a check fails. */
  public void verifyChecksumsAndClose() throws IOException {
    try {
      verifyChecksums();
    } finally {
      close();
    }
  }
}
