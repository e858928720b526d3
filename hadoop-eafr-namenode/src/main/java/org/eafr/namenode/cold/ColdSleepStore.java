package org.eafr.namenode.cold;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.records.NamespaceRecords;

/**
 * The cold servers whose hosts are switched off, kept in the namespace: a record of the root in the {@code trusted}
 * namespace ({@value #XATTR}, chunked when large: {@link NamespaceRecords}), edit-logged, so a restarted NameNode and a standby that takes over read the same set.
 * Its value is JSON: DataNode id (IP:transfer port) to the inventory host and the time it was switched off.
 */
final class ColdSleepStore {
  static final String XATTR = "trusted.eafr.cold.asleep";
  private static final ObjectMapper JSON = new ObjectMapper();

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
    new NamespaceRecords(nameNode).write("/", XATTR, JSON.writeValueAsString(root).getBytes(StandardCharsets.UTF_8));
  }

  /** Read from the inodes (an in-process RPC read of a trusted xattr has no caller to check). */
  private byte[] rootXattr() throws IOException {
    return new NamespaceRecords(nameNode).read("/", XATTR); // one xattr, or chunks of any size
  }
}
