package org.eafr.namenode.read;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.eafr.namenode.cluster.ServerTranslator;

/**
 * The server id (IP:transfer port) of a block's replica as one long-lived String per DataNode. getBlockLocations hands
 * the reader ordering a fresh copy of each replica's DataNode (HDFS's {@code DatanodeInfoWithStorage}), whose transfer
 * address is a new String, so every map keyed by server id (roles, recently directed reads, attributed reads) hashed
 * its characters again: 6% of the IPC handlers' samples in a 1 ms profile of getBlockLocations. The copy
 * shares the DataNode's uuid String, whose hash the JVM keeps, so one lookup by uuid finds the id whose hash is kept
 * too. A DataNode that re-registers at another address gets the new id; one entry per DataNode uuid ever seen.
 */
final class ReplicaIds {
  private final ConcurrentMap<String, String> idsByUuid = new ConcurrentHashMap<>();

  /** {@code replica}'s server id, the same String object for every copy of the same DataNode at the same address. */
  String of(DatanodeID replica) {
    String id = ServerTranslator.idOf(replica);
    String uuid = replica.getDatanodeUuid();
    if (uuid == null) {
      return id;
    }
    String known = idsByUuid.get(uuid);
    if (known != null && known.equals(id)) {
      return known;
    }
    idsByUuid.put(uuid, id);
    return id;
  }
}
