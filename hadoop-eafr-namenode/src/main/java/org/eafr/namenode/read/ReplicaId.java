package org.eafr.namenode.read;

import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.eafr.namenode.cluster.RecentReads;
import org.eafr.namenode.cluster.ServerRoles;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.gear.ExpansionChain;

/**
 * One DataNode as the reader ordering knows it ({@link ReplicaIds}): its server id, its counter of recently directed
 * reads and, once asked, the roles file's answer for it and its position in an expansion chain. Shared by the IPC
 * handler threads: the role and the chain position are immutable objects replaced whole, so a thread sees either an
 * old one (and finds it stale) or a complete new one.
 */
final class ReplicaId {
  /** IP:transfer port ({@link ServerTranslator#idOf}). */
  final String id;
  final RecentReads.Counter directedReads;
  private final String ip;
  private final int transferPort;
  private ChainPosition position;
  private ServerRoles.CachedRole fileRole;

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

  /**
   * The role of {@code copy}, a copy of this DataNode ({@link ServerTranslator#roleOf}: HDFS's admin state, else the
   * roles file in force, whose answer is kept here until the file or the DataNode's host name changes).
   */
  ServerRole role(DatanodeInfo copy, ServerRoles roles, ServerTranslator translator) {
    ServerRoles.CachedRole known = roles.roleOf(copy, fileRole);
    fileRole = known;
    return translator.roleOf(copy, known);
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
