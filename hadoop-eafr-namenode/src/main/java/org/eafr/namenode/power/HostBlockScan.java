package org.eafr.namenode.power;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hdfs.protocol.OpenFileEntry;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.OpenFiles;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.cluster.StorageBlockWalk;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.power.PowerOffGuard;

/**
 * The block part of the power-off guard ({@link PowerOffGuard#blockRefusal}) over the NameNode's block map: walks the
 * block lists of the host's DataNodes' storages (not the namespace), a batch per hold of the namesystem read lock
 * ({@link StorageBlockWalk}), then the files open for writing (their blocks being written, judged by their
 * pipelines). The cost grows with the blocks on the host and the open files, never with the namespace, and no lock
 * is held long.
 *
 * <p>A replica counts for a block only on a DataNode that stays on: alive, in service, not on the host, its storage's
 * contents not stale (after a failover, until it reports) and the replica not corrupt. When a storage's list keeps
 * changing under the walk ({@link StorageBlockWalk#MAX_RESTARTS} restarts in a row) the power-off is refused.
 */
final class HostBlockScan {
  private final NameNode nameNode;
  private final FSNamesystem namesystem;
  private final BlockManager blockManager;
  /** Blocks judged since this scan was made (storage lists and blocks being written): the work the guard does. */
  private final AtomicLong judged = new AtomicLong();

  HostBlockScan(NameNode nameNode) {
    this.nameNode = nameNode;
    this.namesystem = nameNode.getNamesystem();
    this.blockManager = namesystem.getBlockManager();
  }

  /** How many blocks the checks have judged so far (a block judged again after a restart of its walk counts again). */
  long judged() {
    return judged.get();
  }

  /** The guard's refusal for the blocks {@code members} (the host's DataNodes) hold or are writing, or empty. */
  Optional<String> check(String host, List<DatanodeDescriptor> members) throws IOException {
    Set<String> onHost = new HashSet<>();
    members.forEach(dn -> onHost.add(ServerTranslator.idOf(dn)));
    for (DatanodeDescriptor member : members) {
      for (DatanodeStorageInfo storage : member.getStorageInfos()) {
        Optional<String> refused = checkStorage(host, storage, onHost);
        if (refused.isPresent()) {
          return refused;
        }
      }
    }
    return checkBeingWritten(host, onHost);
  }

  private Optional<String> checkStorage(String host, DatanodeStorageInfo storage, Set<String> onHost) {
    List<ReplicatedFile> blocks = new ArrayList<>();
    Map<String, Boolean> stays = new HashMap<>();
    List<String> refusal = new ArrayList<>(1);
    boolean whole = StorageBlockWalk.walk(namesystem, storage, new StorageBlockWalk.Visitor() {
      @Override
      public void visit(BlockInfo block) {
        judged.incrementAndGet();
        blocks.add(replicated(block, onHost, stays));
      }

      @Override
      public boolean proceed() {
        PowerOffGuard.blockRefusal(host, blocks, id -> stays.getOrDefault(id, false)).ifPresent(refusal::add);
        blocks.clear();
        stays.clear();
        return refusal.isEmpty();
      }
    });
    if (!refusal.isEmpty()) {
      return Optional.of(refusal.get(0));
    }
    return whole ? Optional.empty() : Optional.of("refusing to power off " + host + ": the block list of " + storage
        + " changed under " + (StorageBlockWalk.MAX_RESTARTS + 1) + " walks in a row (block reports or new blocks);"
        + " ask again");
  }

  /** {@code block} with its holders named by DataNode id, recording for each whether it stays on. */
  private ReplicatedFile replicated(BlockInfo block, Set<String> onHost, Map<String, Boolean> stays) {
    Collection<DatanodeDescriptor> corrupt = blockManager.getCorruptReplicas(block);
    List<String> holders = new ArrayList<>();
    for (DatanodeStorageInfo storage : blockManager.getStorages(block)) {
      DatanodeDescriptor dn = storage.getDatanodeDescriptor();
      String id = ServerTranslator.idOf(dn);
      holders.add(id);
      boolean good = !storage.areBlockContentsStale() && (corrupt == null || !corrupt.contains(dn));
      stays.merge(id, good && staysOn(dn, onHost), Boolean::logicalOr);
    }
    return new ReplicatedFile(block.getBlockName(), block.getNumBytes(), holders);
  }

  private static boolean staysOn(DatanodeDescriptor dn, Set<String> onHost) {
    return dn.isAlive() && dn.isInService() && !onHost.contains(ServerTranslator.idOf(dn));
  }

  /**
   * The files open for writing (a page of the NameNode's open-file listing at a time): each block not yet complete
   * that has a pipeline DataNode on the host must have one that stays on, or the write would lose its last copy.
   */
  private Optional<String> checkBeingWritten(String host, Set<String> onHost) throws IOException {
    return OpenFiles.first(nameNode, file -> checkOpenFile(host, file, onHost));
  }

  private Optional<String> checkOpenFile(String host, OpenFileEntry file, Set<String> onHost) {
    List<ReplicatedFile> blocks = new ArrayList<>();
    Map<String, Boolean> stays = new HashMap<>();
    namesystem.readLock();
    try {
      INode inode = namesystem.getFSDirectory().getInode(file.getId());
      if (inode == null || !inode.isFile()) {
        return Optional.empty();
      }
      BlockInfo[] fileBlocks = inode.asFile().getBlocks();
      for (int i = fileBlocks.length - 1; i >= 0 && !fileBlocks[i].isComplete(); i--) {
        List<String> holders = new ArrayList<>();
        boolean touchesHost = false;
        for (DatanodeStorageInfo storage : fileBlocks[i].getUnderConstructionFeature()
            .getExpectedStorageLocations()) {
          DatanodeDescriptor dn = storage.getDatanodeDescriptor();
          String id = ServerTranslator.idOf(dn);
          holders.add(id);
          touchesHost |= onHost.contains(id);
          stays.merge(id, staysOn(dn, onHost), Boolean::logicalOr);
        }
        if (touchesHost) {
          judged.incrementAndGet();
          blocks.add(new ReplicatedFile(fileBlocks[i].getBlockName() + " (being written) of file "
              + file.getFilePath(), fileBlocks[i].getNumBytes(), holders));
        }
      }
    } finally {
      namesystem.readUnlock();
    }
    return PowerOffGuard.blockRefusal(host, blocks, id -> stays.getOrDefault(id, false));
  }
}
