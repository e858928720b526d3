package org.eafr.namenode.gear;

import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.StoredBlocks;

/**
 * The core's {@link StoredBlocks} from the NameNode's block map: the blocks each DataNode of the chain stores (its
 * block count as its reports left it) against the distinct blocks of the namespace. O(1) per answer, no lock (the
 * counts are HDFS's own, updated as reports and moves arrive).
 */
final class DataNodeBlockCounts implements StoredBlocks {
  private final BlockManager blocks;
  private final ExpansionChain chain;

  DataNodeBlockCounts(BlockManager blocks, ExpansionChain chain) {
    this.blocks = blocks;
    this.chain = chain;
  }

  @Override
  public long held(int position) {
    DatanodeDescriptor dn = ServerTranslator.dataNodeOf(blocks.getDatanodeManager(), chain.id(position));
    return dn == null ? 0 : dn.numBlocks();
  }

  @Override
  public long blocks() {
    return blocks.getTotalBlocks();
  }
}
