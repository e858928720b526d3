package org.eafr.namenode.cold;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.hdfs.XAttrHelper;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.XAttrStorage;
import org.apache.hadoop.hdfs.server.namenode.snapshot.Snapshot;

/**
 * The cold servers whose hosts are switched off, kept in the namespace: one xattr of the root in the {@code trusted}
 * namespace ({@value #XATTR}), edit-logged, so a restarted NameNode and a standby that takes over read the same set.
 * Its value is JSON: DataNode id (IP:transfer port) to the inventory host and the time it was switched off.
 */
final class ColdSleepStore {
  static final String XATTR = "trusted.eafr.cold.asleep";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final EnumSet<XAttrSetFlag> CREATE_OR_REPLACE = EnumSet.of(XAttrSetFlag.CREATE,
      XAttrSetFlag.REPLACE);

  private final NameNode nameNode;

  ColdSleepStore(NameNode nameNode) {
    this.nameNode = nameNode;
  }

  /** One sleeper as persisted. */
  static final class Sleeper {
    final String host;
    final long sinceMillis;

    Sleeper(String host, long sinceMillis) {
      this.host = host;
      this.sinceMillis = sinceMillis;
    }
  }

  /** The persisted sleepers, by DataNode id; empty when none was ever written. */
  Map<String, Sleeper> read() throws IOException {
    Map<String, Sleeper> sleepers = new TreeMap<>();
    byte[] value = rootXattr();
    if (value == null) {
      return sleepers;
    }
    JsonNode root = JSON.readTree(value);
    for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      sleepers.put(entry.getKey(), new Sleeper(entry.getValue().path("host").asText(),
          entry.getValue().path("since").asLong()));
    }
    return sleepers;
  }

  void write(Map<String, Sleeper> sleepers) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    sleepers.forEach((id, sleeper) -> root.putObject(id).put("host", sleeper.host).put("since", sleeper.sinceMillis));
    nameNode.getRpcServer().setXAttr("/", XAttrHelper.buildXAttr(XATTR,
        JSON.writeValueAsString(root).getBytes(StandardCharsets.UTF_8)), CREATE_OR_REPLACE);
  }

  /** Read from the inode (an in-process RPC read of a trusted xattr has no caller to check). */
  private byte[] rootXattr() throws IOException {
    FSNamesystem namesystem = nameNode.getNamesystem();
    namesystem.readLock();
    try {
      INode root = namesystem.getFSDirectory().getINode("/");
      XAttr xattr = root == null ? null
          : XAttrStorage.readINodeXAttrByPrefixedName(root, Snapshot.CURRENT_STATE_ID, XATTR);
      return xattr == null ? null : xattr.getValue();
    } finally {
      namesystem.readUnlock();
    }
  }
}
