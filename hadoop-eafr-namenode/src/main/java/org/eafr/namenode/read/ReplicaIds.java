package org.eafr.namenode.read;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.eafr.namenode.cluster.RecentReads;
import org.eafr.namenode.cluster.ServerTranslator;

/**
 * Each DataNode a block's replica is on, as one long-lived {@link ReplicaId} per DataNode: its server id (IP:transfer
 * port), its counter of recently directed reads and its position in the expansion chain. getBlockLocations hands the
 * reader ordering a fresh copy of each replica's DataNode (HDFS's {@code DatanodeInfoWithStorage}), whose transfer
 * address is a new String, so every map keyed by server id (roles, recently directed reads, the chain) hashed and
 * compared its characters again. The copy shares the DataNode's uuid and IP Strings, whose hashes the JVM keeps, so
 * one lookup by uuid and an identity test of the IP find everything the ordering needs. A DataNode that re-registers
 * at another address gets a new entry; one entry per DataNode uuid ever seen.
 */
final class ReplicaIds {
  private final ConcurrentMap<String, ReplicaId> idsByUuid = new ConcurrentHashMap<>();
  private final RecentReads recentReads;

  ReplicaIds(RecentReads recentReads) {
    this.recentReads = recentReads;
  }

  /** {@code replica}'s entry, the same object for every copy of the same DataNode at the same address. */
  ReplicaId of(DatanodeID replica) {
    String uuid = replica.getDatanodeUuid();
    ReplicaId known = uuid == null ? null : idsByUuid.get(uuid);
    if (known != null && known.isAt(replica)) {
      return known;
    }
    ReplicaId id = new ReplicaId(replica, recentReads.counter(ServerTranslator.idOf(replica)));
    if (uuid != null) {
      idsByUuid.put(uuid, id);
    }
    return id;
  }
}
