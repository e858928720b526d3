package org.eafr.namenode.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.datanode.DataStorage;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.protocol.BlockReportContext;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo;
import org.apache.hadoop.hdfs.server.protocol.SlowDiskReports;
import org.apache.hadoop.hdfs.server.protocol.SlowPeerReports;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReceivedDeletedBlocks;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.util.VersionInfo;

/**
 * A block map of millions of blocks in a real, in-process NameNode, built through the NameNode's own protocols as
 * NNThroughputBenchmark's simulated DataNodes do: DataNodes that exist only as registrations (register, heartbeat
 * with one storage, an empty first block report), and one-block files written with {@code create}, {@code addBlock}
 * (the chosen holders as favoured nodes), an incremental block report from each holder, then {@code complete}. So the
 * BlockManager, the namespace and the namesystem lock are HDFS's own; only the bytes are missing.
 *
 * <p>Files are {@code /synthetic/dNNNNN/fNNNNNN}, {@link #FILES_PER_DIRECTORY} to a directory (one listing page).
 * The NameNode must run with {@link #configure}'s settings (no redundancy monitor and no expiry during a run, since
 * these DataNodes copy nothing and send a heartbeat only while files are added).
 */
public final class SyntheticBlockMap {
  public static final int FILES_PER_DIRECTORY = 1000;
  static final String ROOT = "/synthetic";
  private static final String CLIENT = "synthetic-block-map";
  private static final long BLOCK_BYTES = 1L << 20;
  private static final long CAPACITY = 1L << 60;
  private static final int FIRST_TRANSFER_PORT = 41000;

  private final NameNode nameNode;
  private final NamenodeProtocols rpc;
  private final String poolId;
  private final List<FakeDataNode> dataNodes = new ArrayList<>();
  private final Map<String, FakeDataNode> byId = new HashMap<>();
  private long files;

  private SyntheticBlockMap(NameNode nameNode) throws IOException {
    this.nameNode = nameNode;
    this.rpc = nameNode.getRpcServer();
    this.poolId = nameNode.getNamesystem().getBlockPoolId();
  }

  /**
   * The settings a NameNode holding this map needs: DataNodes never expire during a run, no redundancy monitor (these
   * DataNodes would never copy), no minimum block size, DataNodes of one host.
   */
  public static void configure(Configuration conf) {
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_HEARTBEAT_RECHECK_INTERVAL_KEY, 24L * 3600 * 1000);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_KEY, 24L * 3600 * 1000);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_INTERVAL_SECONDS_KEY, 24 * 3600);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 0);
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_DATANODE_REGISTRATION_IP_HOSTNAME_CHECK_KEY, false);
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_EDITS_NOEDITLOGCHANNELFLUSH, true);
    // One writer thread: the asynchronous edit log's hand-off would cost a thread switch per operation.
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_EDITS_ASYNC_LOGGING, false);
  }

  /** Registers {@code count} DataNodes on 127.0.0.1 (transfer ports 41000, 41001, ...) with the NameNode. */
  public static SyntheticBlockMap start(NameNode nameNode, int count) throws IOException {
    SyntheticBlockMap map = new SyntheticBlockMap(nameNode);
    NamespaceInfo namespace = map.rpc.versionRequest();
    for (int i = 0; i < count; i++) {
      FakeDataNode dn = map.register(namespace, FIRST_TRANSFER_PORT + i);
      map.dataNodes.add(dn);
      map.byId.put(dn.id, dn);
    }
    return map;
  }

  private FakeDataNode register(NamespaceInfo namespace, int port) throws IOException {
    DatanodeID id = new DatanodeID("127.0.0.1", "localhost", UUID.randomUUID().toString(), port, port + 1000, 0,
        port + 2000);
    DatanodeRegistration registration = rpc.registerDatanode(new DatanodeRegistration(id, new DataStorage(namespace),
        new ExportedBlockKeys(), VersionInfo.getVersion()));
    registration.setNamespaceInfo(namespace);
    FakeDataNode dn = new FakeDataNode(registration, new DatanodeStorage(DatanodeStorage.generateUuid()));
    dn.heartbeat(rpc);
    StorageBlockReport empty = new StorageBlockReport(dn.storage, BlockListAsLongs.EMPTY);
    rpc.blockReport(registration, poolId, new StorageBlockReport[] {empty},
        new BlockReportContext(1, 0, System.nanoTime(), 0));
    return dn;
  }

  /** The DataNodes' ids (IP:transfer port), in registration order. */
  public List<String> ids() {
    List<String> ids = new ArrayList<>();
    dataNodes.forEach(dn -> ids.add(dn.id));
    return ids;
  }

  /** One-block files written so far (file n holds block n, counting from 0). */
  public long files() {
    return files;
  }

  /** The path of file {@code n}. */
  public static String path(long n) {
    return String.format("%s/d%05d/f%06d", ROOT, n / FILES_PER_DIRECTORY, n % FILES_PER_DIRECTORY);
  }

  /** The DataNode {@code id} as the NameNode knows it. */
  public DatanodeDescriptor descriptor(String id) {
    DatanodeRegistration registration = byId.get(id).registration;
    return nameNode.getNamesystem().getBlockManager().getDatanodeManager()
        .getDatanodeByXferAddr(registration.getIpAddr(), registration.getXferPort());
  }

  /**
   * Writes files until there are {@code total}, file n's replica on each DataNode {@code holders} names for n
   * (ids from {@link #ids}), a directory of files at a time.
   */
  public void growTo(long total, LongFunction<List<String>> holders) throws IOException {
    while (files < total) {
      int batch = (int) Math.min(total - files, FILES_PER_DIRECTORY - files % FILES_PER_DIRECTORY);
      writeBatch(batch, holders);
    }
  }

  private void writeBatch(int count, LongFunction<List<String>> holders) throws IOException {
    List<String> paths = new ArrayList<>(count);
    List<LocatedBlock> blocks = new ArrayList<>(count);
    List<Long> fileIds = new ArrayList<>(count);
    Map<FakeDataNode, List<ReceivedDeletedBlockInfo>> received = new HashMap<>();
    for (int i = 0; i < count; i++) {
      long n = files + i;
      String path = path(n);
      List<String> on = holders.apply(n);
      HdfsFileStatus status = rpc.create(path, FsPermission.getFileDefault(), CLIENT,
          new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)), true, (short) on.size(), 128L << 20, null, null, null);
      LocatedBlock block = rpc.addBlock(path, CLIENT, null, null, status.getFileId(), on.toArray(new String[0]), null);
      Block replica = new Block(block.getBlock().getBlockId(), BLOCK_BYTES, block.getBlock().getGenerationStamp());
      for (String id : on) {
        received.computeIfAbsent(byId.get(id), dn -> new ArrayList<>())
            .add(new ReceivedDeletedBlockInfo(replica, ReceivedDeletedBlockInfo.BlockStatus.RECEIVED_BLOCK, null));
      }
      paths.add(path);
      blocks.add(block);
      fileIds.add(status.getFileId());
    }
    for (Map.Entry<FakeDataNode, List<ReceivedDeletedBlockInfo>> entry : received.entrySet()) {
      FakeDataNode dn = entry.getKey();
      dn.replicas += entry.getValue().size();
      rpc.blockReceivedAndDeleted(dn.registration, poolId, new StorageReceivedDeletedBlocks[] {
          new StorageReceivedDeletedBlocks(dn.storage, entry.getValue().toArray(new ReceivedDeletedBlockInfo[0]))});
    }
    nameNode.getNamesystem().getBlockManager().flushBlockOps();
    for (int i = 0; i < count; i++) {
      ExtendedBlock last = blocks.get(i).getBlock();
      last.setNumBytes(BLOCK_BYTES);
      if (!rpc.complete(paths.get(i), CLIENT, last, fileIds.get(i))) {
        throw new IOException("file " + paths.get(i) + " did not complete: its replicas were not recorded");
      }
    }
    files += count;
    for (FakeDataNode dn : dataNodes) {
      dn.heartbeat(rpc);
    }
  }

  /** A DataNode that exists only as a registration and one storage. */
  private static final class FakeDataNode {
    final DatanodeRegistration registration;
    final DatanodeStorage storage;
    final String id;
    /** Replicas reported, so each heartbeat reports their bytes as used (relayout's shares are of them). */
    long replicas;

    FakeDataNode(DatanodeRegistration registration, DatanodeStorage storage) {
      this.registration = registration;
      this.storage = storage;
      this.id = registration.getIpAddr() + ":" + registration.getXferPort();
    }

    void heartbeat(NamenodeProtocols rpc) throws IOException {
      long used = replicas * BLOCK_BYTES;
      rpc.sendHeartbeat(registration, new StorageReport[] {new StorageReport(storage, false, CAPACITY, used,
          CAPACITY - used, used, 0)}, 0, 0, 0, 0, 0, null, false, SlowPeerReports.EMPTY_REPORT,
          SlowDiskReports.EMPTY_REPORT);
    }
  }
}
