package org.eafr.namenode.records;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.XAttrHelper;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.XAttrStorage;
import org.apache.hadoop.hdfs.server.namenode.snapshot.Snapshot;

/**
 * A record of any size kept in the namespace as {@code trusted.*} xattrs (edit-logged, so it survives a restart and
 * reaches the standby). A record whose name and value fit one xattr ({@code dfs.namenode.fs-limits.max-xattr-size},
 * read from the NameNode's configuration) is the xattr {@code name} on its directory, as NameNodes always wrote it.
 * A larger one is deflated and cut into chunks, each one xattr no larger than that limit, on small directories
 * {@code DIR/.eafr-records/NAME/GENERATION/GROUP} (at most {@value #CHUNKS_PER_DIR} chunks each, and never more than
 * {@code dfs.namenode.fs-limits.max-xattrs-per-inode}), named by a header xattr {@code NAME.chunked} on the record's
 * directory: generation, chunk count, lengths and the CRC-32 of the record.
 *
 * <p>Replacement is atomic with respect to a crash or failover between edits: the new generation's chunks are written
 * first, then the header (the one edit that switches readers to them), then the old inline xattr and the old
 * generations are deleted; a record that fits again is written inline before the header is removed. A reader follows
 * only the header, under one read lock. A missing or damaged chunk throws naming the record and what is wrong, and
 * nothing is changed. A write costs edits in proportion to the record: one per chunk, one per chunk directory, the
 * header and one delete.
 */
public final class NamespaceRecords {
  /** The header's suffix after the record's name. */
  public static final String HEADER_SUFFIX = ".chunked";
  /** The child of a record's directory its chunks live under. */
  public static final String CHUNKS_DIR = ".eafr-records";
  static final int CHUNKS_PER_DIR = 8;
  private static final String CHUNK_XATTR = "trusted.eafr.chunk.";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final EnumSet<XAttrSetFlag> CREATE_OR_REPLACE = EnumSet.of(XAttrSetFlag.CREATE,
      XAttrSetFlag.REPLACE);
  private static final FsPermission PRIVATE = new FsPermission((short) 0700);

  private final NameNode nameNode;

  public NamespaceRecords(NameNode nameNode) {
    this.nameNode = nameNode;
  }

  /** The record {@code name} on {@code dir} read from this NameNode's namespace (a standby too); null when none. */
  public byte[] read(String dir, String name) throws IOException {
    FSNamesystem namesystem = nameNode.getNamesystem();
    Stored stored;
    namesystem.readLock(); // the header and its chunks as one edit left them
    try {
      stored = collect(dir, name, this::xattr);
    } finally {
      namesystem.readUnlock();
    }
    return stored.value(); // inflated and checked out of the lock
  }

  /** One xattr as stored (no header followed); null when it or its path is absent. */
  private byte[] xattr(String path, String name) throws IOException {
    FSNamesystem namesystem = nameNode.getNamesystem();
    namesystem.readLock();
    try {
      INode inode = namesystem.getFSDirectory().getINode(path);
      XAttr found = inode == null ? null
          : XAttrStorage.readINodeXAttrByPrefixedName(inode, Snapshot.CURRENT_STATE_ID, name);
      return found == null ? null : found.getValue();
    } finally {
      namesystem.readUnlock();
    }
  }

  /** The same read through a client (the HDFS superuser's), e.g. outside the NameNode's locks. */
  public static byte[] read(FileSystem fs, String dir, String name) throws IOException {
    XAttrReader reader = (path, xattr) -> {
      Map<String, byte[]> all = fs.exists(new Path(path)) ? fs.getXAttrs(new Path(path)) : Map.of();
      return all.get(xattr);
    };
    for (int attempt = 1; ; attempt++) {
      byte[] header = reader.get(dir, name + HEADER_SUFFIX);
      try {
        return collect(dir, name, reader).value();
      } catch (IOException e) { // a write may have replaced the generation between two reads: read it again
        if (attempt == 3 || Arrays.equals(header, reader.get(dir, name + HEADER_SUFFIX))) {
          throw e;
        }
      }
    }
  }

  /** Replaces the record {@code name} on {@code dir} (creating the directory) through the edit log; active only. */
  public void write(String dir, String name, byte[] value) throws IOException {
    write(dir, name, value, chunkRoot(dir) + "/" + name);
  }

  /**
   * The same with the chunks, if any, under {@code recordDir} (named in the header), e.g. out of a directory whose
   * children are counted; whoever deletes the record's directory deletes {@code recordDir} too.
   */
  public void write(String dir, String name, byte[] value, String recordDir) throws IOException {
    mkdirs(dir);
    Configuration conf = nameNode.getConf();
    int maxSize = conf.getInt(DFSConfigKeys.DFS_NAMENODE_MAX_XATTR_SIZE_KEY,
        DFSConfigKeys.DFS_NAMENODE_MAX_XATTR_SIZE_DEFAULT);
    String headerName = name + HEADER_SUFFIX;
    byte[] oldHeader = xattr(dir, headerName);
    JsonNode header;
    try {
      header = header(dir, name, oldHeader);
    } catch (IOException e) {
      header = null; // a damaged header is replaced like any other
    }
    if (bytes(name) + value.length <= maxSize) {
      set(dir, name, value);
      if (oldHeader != null) {
        remove(dir, headerName); // the commit: readers now see the inline value
        nameNode.getRpcServer().delete(header == null ? recordDir : header.path("at").asText(recordDir), true);
      }
      return;
    }
    int perDir = Math.max(1, Math.min(CHUNKS_PER_DIR, conf.getInt(
        DFSConfigKeys.DFS_NAMENODE_MAX_XATTRS_PER_INODE_KEY, DFSConfigKeys.DFS_NAMENODE_MAX_XATTRS_PER_INODE_DEFAULT)));
    long generation = header == null ? 1 : header.path("generation").asLong() + 1;
    String genDir = recordDir + "/" + generation;
    nameNode.getRpcServer().delete(genDir, true); // a write cut before its header: never read
    byte[] stored = deflate(value);
    int chunkSize = maxSize - bytes(CHUNK_XATTR + "000000");
    if (chunkSize < 64) {
      throw new IOException("dfs.namenode.fs-limits.max-xattr-size (" + maxSize + ") is too small to keep record "
          + name + " on " + dir + " in chunks");
    }
    int chunks = (stored.length + chunkSize - 1) / chunkSize;
    for (int i = 0; i < chunks; i++) {
      String group = genDir + "/" + (i / perDir);
      if (i % perDir == 0) {
        nameNode.getRpcServer().mkdirs(group, PRIVATE, true);
      }
      set(group, CHUNK_XATTR + i, Arrays.copyOfRange(stored, i * chunkSize,
          Math.min(stored.length, (i + 1) * chunkSize)));
    }
    CRC32 crc = new CRC32();
    crc.update(value);
    String newHeader = JSON.createObjectNode().put("generation", generation).put("chunks", chunks)
        .put("perDir", perDir).put("stored", stored.length).put("length", value.length).put("crc32", crc.getValue())
        .put("codec", "deflate").put("at", recordDir).toString();
    set(dir, headerName, newHeader.getBytes(StandardCharsets.UTF_8)); // the commit
    if (xattr(dir, name) != null) {
      remove(dir, name);
    }
    byte[] after = HdfsFileStatus.EMPTY_NAME;
    DirectoryListing listing;
    do { // the old generation and any write cut before its header
      listing = nameNode.getRpcServer().getListing(recordDir, after, false);
      if (listing == null) {
        break;
      }
      for (HdfsFileStatus status : listing.getPartialListing()) {
        if (!status.getLocalName().equals(String.valueOf(generation))) {
          nameNode.getRpcServer().delete(recordDir + "/" + status.getLocalName(), true);
        }
      }
      after = listing.getLastName();
    } while (listing.hasMore());
  }

  /** Where the chunks of the records on {@code dir} live. */
  public static String chunkRoot(String dir) {
    return (dir.endsWith("/") ? dir : dir + "/") + CHUNKS_DIR;
  }

  /** Reads one xattr of one path; null when either is absent. */
  private interface XAttrReader {
    byte[] get(String path, String xattr) throws IOException;
  }

  /** A record as read: its inline value, or its header and chunks' bytes to inflate. */
  private static final class Stored {
    final JsonNode header;
    final String where;
    final byte[] bytes;

    Stored(JsonNode header, String where, byte[] bytes) {
      this.header = header;
      this.where = where;
      this.bytes = bytes;
    }

    byte[] value() throws IOException {
      if (header == null) {
        return bytes;
      }
      int length = header.path("length").asInt();
      byte[] value = inflate(bytes, length);
      CRC32 crc = new CRC32();
      crc.update(value == null ? new byte[0] : value);
      if (value == null || crc.getValue() != header.path("crc32").asLong()) {
        throw damaged(where, "its chunks do not inflate to " + length + " bytes of CRC-32 "
            + header.path("crc32").asLong());
      }
      return value;
    }
  }

  private static Stored collect(String dir, String name, XAttrReader reader) throws IOException {
    JsonNode header = header(dir, name, reader.get(dir, name + HEADER_SUFFIX));
    if (header == null) {
      return new Stored(null, null, reader.get(dir, name));
    }
    String where = "record " + name + " on " + dir + " (header " + name + HEADER_SUFFIX + ": " + header + ")";
    long generation = header.path("generation").asLong(-1);
    int chunks = header.path("chunks").asInt(-1);
    int perDir = header.path("perDir").asInt(-1);
    int stored = header.path("stored").asInt(-1);
    int length = header.path("length").asInt(-1);
    if (generation < 1 || chunks < 1 || perDir < 1 || stored < 0 || length < 0
        || !"deflate".equals(header.path("codec").asText())) {
      throw damaged(where, "the header is not {generation, chunks, perDir, stored, length, crc32, codec: deflate}");
    }
    ByteArrayOutputStream all = new ByteArrayOutputStream(stored);
    String genDir = header.path("at").asText(chunkRoot(dir) + "/" + name) + "/" + generation;
    for (int i = 0; i < chunks; i++) {
      String group = genDir + "/" + (i / perDir);
      byte[] chunk = reader.get(group, CHUNK_XATTR + i);
      if (chunk == null) {
        throw damaged(where, "chunk " + i + " of " + chunks + " (xattr " + CHUNK_XATTR + i + " on " + group
            + ") is missing");
      }
      all.write(chunk);
    }
    if (all.size() != stored) {
      throw damaged(where, "its chunks hold " + all.size() + " bytes, not " + stored);
    }
    return new Stored(header, where, all.toByteArray());
  }

  private static JsonNode header(String dir, String name, byte[] value) throws IOException {
    if (value == null) {
      return null;
    }
    try {
      JsonNode header = JSON.readTree(value);
      if (header != null && header.isObject()) {
        return header;
      }
    } catch (IOException e) {
      // reported below
    }
    throw damaged("record " + name + " on " + dir, "its header " + name + HEADER_SUFFIX + " is not JSON: "
        + new String(value, StandardCharsets.UTF_8));
  }

  private static IOException damaged(String where, String what) {
    return new IOException(where + " is damaged: " + what + "; nothing was changed (the next write of the record"
        + " replaces it)");
  }

  private static byte[] deflate(byte[] value) {
    Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
    try {
      deflater.setInput(value);
      deflater.finish();
      ByteArrayOutputStream out = new ByteArrayOutputStream(value.length / 4 + 64);
      byte[] buffer = new byte[1 << 16];
      while (!deflater.finished()) {
        out.write(buffer, 0, deflater.deflate(buffer));
      }
      return out.toByteArray();
    } finally {
      deflater.end();
    }
  }

  /** The inflated bytes, or null when they are not exactly {@code length} bytes of deflate. */
  private static byte[] inflate(byte[] stored, int length) {
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(stored);
      byte[] value = new byte[length];
      int n = 0;
      while (n < length && !inflater.finished()) {
        int got = inflater.inflate(value, n, length - n);
        if (got == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          return null;
        }
        n += got;
      }
      if (n != length) {
        return null;
      }
      byte[] probe = new byte[1];
      return inflater.finished() || inflater.inflate(probe) == 0 && inflater.finished() ? value : null;
    } catch (DataFormatException e) {
      return null;
    } finally {
      inflater.end();
    }
  }

  private void set(String path, String name, byte[] value) throws IOException {
    nameNode.getRpcServer().setXAttr(path, XAttrHelper.buildXAttr(name, value), CREATE_OR_REPLACE);
  }

  private void remove(String path, String name) throws IOException {
    nameNode.getRpcServer().removeXAttr(path, XAttrHelper.buildXAttr(name));
  }

  private void mkdirs(String dir) throws IOException {
    if (nameNode.getRpcServer().getFileInfo(dir) == null) {
      nameNode.getRpcServer().mkdirs(dir, PRIVATE, true);
    }
  }

  private static int bytes(String name) {
    return name.getBytes(StandardCharsets.UTF_8).length;
  }
}
