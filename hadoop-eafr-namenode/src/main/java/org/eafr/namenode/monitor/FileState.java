package org.eafr.namenode.monitor;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.eafr.placement.popularity.FileReads;

/**
 * A file as one round sees it: its replica servers (the holders of its first block, what the core plans with) and,
 * over all its blocks, the fewest and most holders and the servers holding every block, which decide when an
 * action on a multi-block file is done.
 */
final class FileState {
  final String path;
  final long length;
  final int replication;
  FileReads reads;
  List<String> holders = List.of();
  Set<String> holdersOfEveryBlock;
  int fewestHolders = Integer.MAX_VALUE;
  int mostHolders;

  FileState(String path, long length, int replication) {
    this.path = path;
    this.length = length;
    this.replication = replication;
  }

  void addBlock(Set<String> blockHolders) {
    if (holdersOfEveryBlock == null) {
      holders = new ArrayList<>(blockHolders);
      holdersOfEveryBlock = new LinkedHashSet<>(blockHolders);
    } else {
      holdersOfEveryBlock.retainAll(blockHolders);
    }
    fewestHolders = Math.min(fewestHolders, blockHolders.size());
    mostHolders = Math.max(mostHolders, blockHolders.size());
  }

  /** Every block has exactly the file's replication factor of replicas: nothing of HDFS's own is pending. */
  boolean isSettled() {
    return fewestHolders == replication && mostHolders == replication;
  }
}
