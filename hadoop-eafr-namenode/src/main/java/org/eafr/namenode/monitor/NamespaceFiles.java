package org.eafr.namenode.monitor;

import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.eafr.namenode.transfer.BlockLocations;
import org.eafr.namenode.transfer.NameNodeBlockLocations;
import org.eafr.namenode.transfer.StoredBlock;

/**
 * The namespace as the replication monitor reads it: files through the NameNode's own RPC methods, a listing page at
 * a time, and each file's block holders from the block manager.
 */
final class NamespaceFiles {
  private final NameNode nameNode;
  private final BlockLocations blockLocations;

  NamespaceFiles(NameNode nameNode) {
    this.nameNode = nameNode;
    this.blockLocations = new NameNodeBlockLocations(nameNode.getNamesystem());
  }

  /** What a walk does with each file it finds. */
  interface FileVisitor {
    void accept(FileState file) throws IOException;
  }

  /** Hands every non-empty file below {@code dir} to {@code visitor}, one listing page at a time. */
  void walk(String dir, FileVisitor visitor) throws IOException {
    NamenodeProtocols rpc = nameNode.getRpcServer();
    byte[] after = HdfsFileStatus.EMPTY_NAME;
    DirectoryListing listing;
    do {
      listing = rpc.getListing(dir, after, false);
      if (listing == null) {
        return;
      }
      for (HdfsFileStatus status : listing.getPartialListing()) {
        String path = status.getFullName(dir);
        if (status.isDirectory()) {
          walk(path, visitor);
        } else {
          FileState file = stateOf(path, status);
          if (file != null) {
            visitor.accept(file);
          }
        }
      }
      after = listing.getLastName();
    } while (listing.hasMore());
  }

  /** The file at {@code path} as a round sees it, or null when it is gone, empty or has no replica yet. */
  FileState stateOf(String path) throws IOException {
    HdfsFileStatus status = nameNode.getRpcServer().getFileInfo(path);
    return status == null ? null : stateOf(path, status);
  }

  private FileState stateOf(String path, HdfsFileStatus status) {
    if (!status.isFile() || status.getLen() <= 0) {
      return null;
    }
    FileState file = new FileState(path, status.getLen(), status.getReplication());
    return readBlocks(file) ? file : null;
  }

  /** Fills in {@code file}'s block holders; false when it is not a closed file with a replica. */
  private boolean readBlocks(FileState file) {
    for (StoredBlock block : blockLocations.blocksOf(file.path)) {
      file.addBlock(block.holders());
    }
    return !file.holders.isEmpty();
  }
}
