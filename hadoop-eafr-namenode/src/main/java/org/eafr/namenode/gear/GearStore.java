package org.eafr.namenode.gear;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.power.PowerQuarantine;
import org.eafr.namenode.records.NamespaceRecords;
import org.eafr.namenode.power.PowerState;

/**
 * The gear state and what sleeping groups owe, kept in the namespace itself: xattrs in the {@code trusted} namespace
 * (superuser only) on the state directory ({@code eafr.gear.state.dir}, /system/eafr by default) and on one empty
 * directory per owed file below its {@code owed/} child, named by the file's inode id (so a rename does not lose it).
 * Every change goes through the NameNode's edit log, so it survives a restart and reaches the standby, which reads it
 * straight from its namespace. Writes happen on the active NameNode only, from the gear service's thread.
 */
public final class GearStore {
  static final String STATE_XATTR = "trusted.eafr.gear";
  static final String OWED_XATTR = "trusted.eafr.owed";
  /** The power manager's quarantined hosts (JSON), on the state directory. */
  static final String QUARANTINE_XATTR = "trusted.eafr.power.quarantine";
  /**
   * On the root directory: where the gear state lives, its layout and its sleeping DataNodes (JSON), so a NameNode
   * started with the state directory moved or deleted, or with gears switched off, finds the sleepers and refuses.
   */
  static final String HOME_XATTR = "trusted.eafr.gear.home";
  /** The gear mode chosen at run time and the configured mode it was chosen under (JSON). */
  static final String MODE_XATTR = "trusted.eafr.gear.mode";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final NameNode nameNode;
  private final String stateDir;
  private final String owedDir;
  private final NamespaceRecords records;

  public GearStore(NameNode nameNode, String stateDir) {
    this.nameNode = nameNode;
    this.stateDir = stateDir;
    this.owedDir = stateDir + "/owed";
    this.records = new NamespaceRecords(nameNode);
  }

  /** The directory the gear state is kept on ({@code eafr.gear.state.dir}). */
  String stateDir() {
    return stateDir;
  }

  /** The persisted state, read from this NameNode's namespace (works on a standby too); empty when none. */
  public Optional<GearRecord> read() throws IOException {
    byte[] value = xattr(stateDir, STATE_XATTR);
    return value == null ? Optional.empty() : Optional.of(GearRecord.fromBytes(value));
  }

  public void write(GearRecord state) throws IOException {
    mkdirs(stateDir);
    records.write(stateDir, STATE_XATTR, state.toBytes());
  }

  /**
   * Records on the root directory that the gear state of {@code layout} lives in this store's directory, with
   * {@code state}'s sleeping DataNodes ({@link Home}); unchanged records are not written again.
   */
  public void writeHome(String layout, GearRecord state) throws IOException {
    Home home = new Home(stateDir, layout, new TreeSet<>(state.sleeping()));
    if (home.equals(readHome(nameNode).orElse(null))) {
      return;
    }
    ObjectNode root = JSON.createObjectNode().put("dir", home.dir).put("layout", home.layout);
    home.sleeping.forEach(root.putArray("sleeping")::add);
    records.write("/", HOME_XATTR, root.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** Where the gear state was last written, with its layout and sleepers; empty when never. */
  public static Optional<Home> readHome(NameNode nameNode) throws IOException {
    byte[] value = new GearStore(nameNode, "/").xattr("/", HOME_XATTR);
    if (value == null) {
      return Optional.empty();
    }
    JsonNode root = JSON.readTree(value);
    SortedSet<String> sleeping = new TreeSet<>();
    root.path("sleeping").forEach(id -> sleeping.add(id.asText()));
    return Optional.of(new Home(root.path("dir").asText(), root.path("layout").asText(), sleeping));
  }

  /** The quarantined hosts persisted with the gear state; empty when none. */
  public List<PowerQuarantine> readQuarantines() throws IOException {
    List<PowerQuarantine> all = new ArrayList<>();
    byte[] value = xattr(stateDir, QUARANTINE_XATTR);
    if (value != null) {
      for (JsonNode entry : JSON.readTree(value)) {
        all.add(new PowerQuarantine(entry.path("host").asText(),
            PowerState.valueOf(entry.path("target").asText()), entry.path("reason").asText()));
      }
    }
    return all;
  }

  public void writeQuarantines(List<PowerQuarantine> quarantines) throws IOException {
    mkdirs(stateDir);
    ArrayNode list = JSON.createArrayNode();
    for (PowerQuarantine quarantine : quarantines) {
      list.addObject().put("host", quarantine.host()).put("target", quarantine.target().name())
          .put("reason", quarantine.reason());
    }
    records.write(stateDir, QUARANTINE_XATTR, list.toString().getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The gear mode last chosen at run time ({@code hdfs eafr gear auto}, or a manual gear command), if it was chosen
   * while {@code eafr.gear.mode} was {@code configured}; empty when none was chosen, or the configured mode has changed
   * since (then the configuration wins).
   */
  public Optional<GearMode> readMode(GearMode configured) throws IOException {
    byte[] value = xattr(stateDir, MODE_XATTR);
    if (value == null) {
      return Optional.empty();
    }
    JsonNode root = JSON.readTree(value);
    GearMode chosen = GearMode.of(root.path("mode").asText());
    return chosen != null && configured.word().equals(root.path("configured").asText()) ? Optional.of(chosen)
        : Optional.empty();
  }

  public void writeMode(GearMode mode, GearMode configured) throws IOException {
    mkdirs(stateDir);
    ObjectNode root = JSON.createObjectNode().put("mode", mode.word()).put("configured", configured.word());
    records.write(stateDir, MODE_XATTR, root.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** Records that the file at {@code path} owes moves; false when the file is gone. Idempotent. */
  public boolean recordOwed(String path) throws IOException {
    long id = inodeId(path);
    if (id < 0) {
      return false;
    }
    String marker = owedDir + "/" + id;
    if (xattr(marker, OWED_XATTR) != null) {
      return true;
    }
    mkdirs(marker);
    writeOwed(new OwedFile(id, path, Map.of()));
    return true;
  }

  /**
   * Up to {@code limit} owed files listed after the record of inode {@code afterInode} (-1: from the first), in the
   * order of their records' names, with the current path of each (null when it is gone): a cursor lets a walk pass
   * the records kept for homes still asleep.
   */
  public List<OwedFile> owedAfter(long afterInode, int limit) throws IOException {
    List<OwedFile> files = new ArrayList<>();
    if (nameNode.getRpcServer().getFileInfo(owedDir) == null) {
      return files;
    }
    byte[] after = afterInode < 0 ? HdfsFileStatus.EMPTY_NAME
        : String.valueOf(afterInode).getBytes(StandardCharsets.UTF_8);
    DirectoryListing listing;
    do {
      listing = nameNode.getRpcServer().getListing(owedDir, after, false);
      for (HdfsFileStatus status : listing.getPartialListing()) {
        if (files.size() >= limit) {
          return files;
        }
        files.add(readOwed(recordId(status.getLocalName())));
      }
      after = listing.getLastName();
    } while (listing.hasMore());
    return files;
  }

  /** How many files owe moves. */
  public long owedCount() throws IOException {
    ContentSummary summary = nameNode.getRpcServer().getFileInfo(owedDir) == null ? null
        : nameNode.getRpcServer().getContentSummary(owedDir);
    return summary == null ? 0 : summary.getDirectoryCount() - 1;
  }

  public void writeOwed(OwedFile file) throws IOException {
    ObjectNode root = JSON.createObjectNode().put("inode", file.inodeId()).put("path", file.path());
    ObjectNode homes = root.putObject("homes");
    file.homes().forEach((block, servers) -> {
      ArrayNode list = homes.putArray(String.valueOf(block));
      servers.forEach(list::add);
    });
    records.write(owedDir + "/" + file.inodeId(), OWED_XATTR, root.toString().getBytes(StandardCharsets.UTF_8),
        owedChunks(file.inodeId())); // chunks, if any, out of owed/: its directories are counted
  }

  public void forgetOwed(long inodeId) throws IOException {
    nameNode.getRpcServer().delete(owedDir + "/" + inodeId, true);
    nameNode.getRpcServer().delete(owedChunks(inodeId), true);
  }

  private String owedChunks(long inodeId) {
    return NamespaceRecords.chunkRoot(stateDir) + "/owed/" + inodeId;
  }

  /** The owed record of inode {@code inodeId}; empty when there is none (its file owes nothing). */
  Optional<OwedFile> owedFile(long inodeId) throws IOException {
    return nameNode.getRpcServer().getFileInfo(owedDir + "/" + inodeId) == null ? Optional.empty()
        : Optional.of(readOwed(inodeId));
  }

  private long recordId(String name) throws IOException {
    try {
      return Long.parseLong(name);
    } catch (NumberFormatException e) {
      throw new IOException(owedDir + "/" + name + " is not an owed record (each is named by its file's inode id);"
          + " remove it (hdfs dfs -rm -r " + owedDir + "/" + name + ") or rename it", e);
    }
  }

  /** Reads the record of inode {@code id}; a damaged one throws naming it (and changes nothing). */
  private OwedFile readOwed(long id) throws IOException {
    String marker = owedDir + "/" + id;
    byte[] value = xattr(marker, OWED_XATTR);
    Map<Long, List<String>> homes = new LinkedHashMap<>();
    if (value != null) {
      try {
        JsonNode root = JSON.readTree(value);
        if (!root.isObject()) {
          throw new IOException("expected a JSON object {\"inode\":..., \"path\":..., \"homes\":{block id: [DataNode"
              + " ids]}}");
        }
        root.path("homes").fields().forEachRemaining(entry -> {
          List<String> servers = new ArrayList<>();
          entry.getValue().forEach(server -> servers.add(server.asText()));
          homes.put(Long.parseLong(entry.getKey()), servers);
        });
      } catch (IOException | IllegalArgumentException e) {
        throw new IOException("owed record " + marker + " (xattr " + OWED_XATTR + ") is damaged: " + e.getMessage()
            + "; nothing was changed; remove the record (hdfs dfs -rm -r " + marker + ") to forget what its file"
            + " owes", e);
      }
    }
    return new OwedFile(id, pathOf(id), homes);
  }

  /** The current path of inode {@code id}, or null when it is gone or not a file. */
  private String pathOf(long id) {
    FSNamesystem namesystem = nameNode.getNamesystem();
    namesystem.readLock();
    try {
      INode inode = namesystem.getFSDirectory().getInode(id);
      return inode == null || !inode.isFile() ? null : inode.getFullPathName();
    } finally {
      namesystem.readUnlock();
    }
  }

  private long inodeId(String path) {
    FSNamesystem namesystem = nameNode.getNamesystem();
    namesystem.readLock();
    try {
      INode inode = namesystem.getFSDirectory().getINode(path);
      return inode == null ? -1 : inode.getId();
    } catch (IOException e) {
      return -1;
    } finally {
      namesystem.readUnlock();
    }
  }

  /**
   * Another part's record kept beside the gear state (a {@code trusted.*} xattr {@code name} on the state directory),
   * e.g. relayout's cursor; null when none. Read from this NameNode's namespace, so a standby sees it too.
   */
  public byte[] readRecord(String name) throws IOException {
    return xattr(stateDir, name);
  }

  /** Writes {@link #readRecord}'s record through the edit log (active NameNode only). */
  public void writeRecord(String name, byte[] value) throws IOException {
    mkdirs(stateDir);
    records.write(stateDir, name, value);
  }

  private byte[] xattr(String path, String name) throws IOException {
    return records.read(path, name); // one xattr, or chunks of any size (NamespaceRecords)
  }

  private void mkdirs(String dir) throws IOException {
    if (nameNode.getRpcServer().getFileInfo(dir) == null) {
      nameNode.getRpcServer().mkdirs(dir, new FsPermission((short) 0700), true);
    }
  }

  /** Where the gear state lives ({@code eafr.gear.state.dir} when written), its layout and its sleeping DataNodes. */
  public static final class Home {
    final String dir;
    final String layout;
    final SortedSet<String> sleeping;

    Home(String dir, String layout, SortedSet<String> sleeping) {
      this.dir = dir;
      this.layout = layout;
      this.sleeping = sleeping;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Home && ((Home) o).dir.equals(dir) && ((Home) o).layout.equals(layout)
          && ((Home) o).sleeping.equals(sleeping);
    }

    @Override
    public int hashCode() {
      return Objects.hash(dir, layout, sleeping);
    }
  }

  /** One file that owes moves: its inode, its path now, and the home of each block once reflection planned it. */
  public static final class OwedFile {
    private final long inodeId;
    private final String path;
    private final Map<Long, List<String>> homes;

    public OwedFile(long inodeId, String path, Map<Long, List<String>> homes) {
      this.inodeId = inodeId;
      this.path = path;
      this.homes = Map.copyOf(homes);
    }

    public long inodeId() {
      return inodeId;
    }

    /** The file's path now; null when it was deleted. */
    public String path() {
      return path;
    }

    /** Block id to the DataNode ids of its target placement; empty until reflection plans the file. */
    public Map<Long, List<String>> homes() {
      return homes;
    }

    public OwedFile withHomes(Map<Long, List<String>> planned) {
      return new OwedFile(inodeId, path, planned);
    }
  }
}
