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
 * reads and, once asked, the roles file's answer for it, the number of its rack and its position in an expansion
 * chain. Shared by the IPC handler threads: each of those is an immutable object replaced whole, so a thread sees
 * either an old one (and finds it stale) or a complete new one.
 */
final class ReplicaId {
  /** IP:transfer port ({@link ServerTranslator#idOf}). */
  final String id;
  final RecentReads.Counter directedReads;
  private final String ip;
  private final int transferPort;
  private ChainPosition position;
  private ServerRoles.CachedRole fileRole;
  private Rack rack;

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

  /**
   * The number of the rack of {@code copy}, a copy of this DataNode ({@link RackIds}): a copy shares its DataNode's
   * rack String, so this is an identity test unless HDFS resolved the rack again.
   */
  int rackId(DatanodeInfo copy, RackIds racks) {
    String location = copy.getNetworkLocation();
    Rack known = rack;
    if (known == null || known.name != location) {
      known = new Rack(location, racks.idOf(location));
      rack = known;
    }
    return known.id;
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

  /** A rack name and its number. */
  private static final class Rack {
    final String name;
    final int id;

    Rack(String name, int id) {
      this.name = name;
      this.id = id;
    }
  }
}
