package org.eafr.namenode.read;

import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.eafr.namenode.cluster.RecentReads;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.placement.gear.ExpansionChain;

/**
 * One DataNode as the reader ordering knows it ({@link ReplicaIds}): its server id, its counter of recently directed
 * reads and, once asked, its position in an expansion chain. Shared by the IPC handler threads: the chain position is
 * an immutable pair replaced whole, so a thread sees either an old pair (and looks the position up again) or a
 * complete new one.
 */
final class ReplicaId {
  /** IP:transfer port ({@link ServerTranslator#idOf}). */
  final String id;
  final RecentReads.Counter directedReads;
  private final String ip;
  private final int transferPort;
  private ChainPosition position;

  ReplicaId(DatanodeID dataNode, RecentReads.Counter directedReads) {
    this.id = ServerTranslator.idOf(dataNode);
    this.directedReads = directedReads;
    this.ip = dataNode.getIpAddr();
    this.transferPort = dataNode.getXferPort();
  }

  /**
   * Whether {@code copy} is this DataNode at the same transfer address. HDFS builds the transfer address as IP +
   * ":" + port, and a copy shares the registered IP String, so this is an identity test in the common case.
   */
  boolean isAt(DatanodeID copy) {
    String copyIp = copy.getIpAddr();
    return copy.getXferPort() == transferPort && (copyIp == ip || ip.equals(copyIp));
  }

  /** The position of this DataNode in {@code chain} ({@link ExpansionChain#position}: -1 when not in it). */
  int position(ExpansionChain chain) {
    ChainPosition known = position;
    if (known == null || known.chain != chain) {
      known = new ChainPosition(chain, chain.position(id));
      position = known;
    }
    return known.position;
  }

  /** A position and the chain it is in. */
  private static final class ChainPosition {
    final ExpansionChain chain;
    final int position;

    ChainPosition(ExpansionChain chain, int position) {
      this.chain = chain;
      this.position = position;
    }
  }
}
