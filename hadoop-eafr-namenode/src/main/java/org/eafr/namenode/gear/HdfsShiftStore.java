package org.eafr.namenode.gear;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.namenode.FSDirectory;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.INodeFile;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.placement.gear.shift.OwedBlock;
import org.eafr.placement.gear.shift.ShiftState;
import org.eafr.placement.gear.shift.ShiftStore;

/**
 * The core gear shift's store ({@link ShiftStore}) in this NameNode's namespace, over {@link GearStore}: the shift's
 * state inside the gear record (an xattr on the state directory), and what is owed as one record per file, not per
 * block. Both go through the edit log, so they survive a restart and reach the standby.
 *
 * <p>Why per file: a file written while homes slept owes a move for every block, and an edit-log record per block
 * would cost the edit log (and the standby's replay) as many records as blocks written in a low gear. So a file is
 * recorded once ({@link #owePath}, or {@link #owe} for any of its blocks: no edit when it is already recorded), and
 * {@link #owedAfter} expands each file into its blocks as it lists them. The homes of a file's blocks are planned
 * once, by {@link HomePlanner}, the first time the file is listed, and persisted with its record (one edit per file),
 * so a restart plans nothing anew. A block is forgotten in memory, and not listed again; the record goes (one edit) once
 * every block of the file is forgotten. The cursor ({@link #cursorOf}) is the file's record and the block's index in
 * the file ({@code 16390#2}), opaque to the shift.
 *
 * <p>A file still being written lists no blocks (its record stays; reflection moves a closed file's blocks only), and
 * the record of a deleted file is dropped as it is listed. {@link #owedCount} counts files: zero exactly when nothing is
 * owed. A damaged record (state or owed) throws naming the xattr and where it is, and changes nothing.
 */
final class HdfsShiftStore implements ShiftStore {
  private static final String CURSOR_SEPARATOR = "#";

  /** Plans where a block's replicas belong: the layout's homes given its replicas now. */
  interface HomePlanner {
    List<String> homes(String path, long blockId, int replication, List<String> holders);
  }

  private final NameNode nameNode;
  private final GearRuntime gears;
  private final GearStore store;
  private final HomePlanner planner;
  /** The cursor of each block the last listing gave, by block name. */
  private final Map<String, String> cursors = new HashMap<>();
  /** The file (inode) of each block listed this pass, by block name. */
  private final Map<String, Long> fileOf = new HashMap<>();
  /** Of each file listed this pass, its blocks not yet forgotten. */
  private final Map<Long, Set<String>> owing = new HashMap<>();
  /** Of each file still recorded, its blocks forgotten already: not listed again (each block reflected once). */
  private final Map<Long, Set<String>> forgotten = new HashMap<>();
  /** {@link #owedCount} as last counted; -1 once a record may have changed. */
  private long owed = -1;

  HdfsShiftStore(NameNode nameNode, GearRuntime gears, GearStore store, HomePlanner planner) {
    this.nameNode = nameNode;
    this.gears = gears;
    this.store = store;
    this.planner = planner;
  }

  @Override
  public Optional<ShiftState> load() {
    try {
      return store.read().filter(record -> record.gear() >= 0).map(gears::asInForce).map(GearRecord::shift);
    } catch (IOException e) {
      throw new IllegalStateException("the gear state (xattr " + GearStore.STATE_XATTR + " on "
          + store.stateDir() + ") cannot be read: " + e.getMessage() + "; nothing was changed", e);
    }
  }

  /** Persists the gear record in force with {@code state} (and where it lives), then puts it in force here. */
  @Override
  public void save(ShiftState state) {
    GearRecord next = gears.state().withShift(state);
    try {
      store.write(next);
      store.writeHome(gears.settings().layout(), next);
    } catch (IOException e) {
      throw new UncheckedIOException("the gear state could not be written to " + store.stateDir(), e);
    }
    gears.state(next);
  }

  /** Records that the file of {@code block} owes moves (once per file; its homes are planned as it is listed). */
  @Override
  public void owe(OwedBlock block) {
    pathOfBlock(block.blockId()).ifPresent(this::owePath);
  }

  /** Records that the file at {@code path} owes moves; nothing when it is gone. Idempotent, no edit when recorded. */
  void owePath(String path) {
    owed = -1;
    try {
      store.recordOwed(path);
    } catch (IOException e) {
      throw new UncheckedIOException("could not record that " + path + " owes moves", e);
    }
  }

  /**
   * Forgets block {@code blockId}, as the last listing gave it; once every block its file listed this pass is
   * forgotten, the file's record goes. A block not listed this pass is not known here and changes nothing.
   */
  @Override
  public void forget(String blockId) {
    Long inode = fileOf.remove(blockId);
    Set<String> left = inode == null ? null : owing.get(inode);
    if (left == null) {
      return;
    }
    left.remove(blockId);
    forgotten.computeIfAbsent(inode, file -> new HashSet<>()).add(blockId);
    if (left.isEmpty()) {
      owing.remove(inode);
      forgetFile(inode);
    }
  }

  @Override
  public String cursorOf(OwedBlock block) {
    return cursors.getOrDefault(block.blockId(), "");
  }

  /**
   * Up to {@code limit} owed blocks after the cursor {@code after} ("" starts a pass from the first record): the rest
   * of the cursor's file, then the files recorded after it, each expanded into its blocks in file order.
   */
  @Override
  public List<OwedBlock> owedAfter(String after, int limit) {
    List<OwedBlock> page = new ArrayList<>();
    cursors.clear();
    try {
      long fileCursor = -1;
      if (after.isEmpty()) {
        fileOf.clear();
        owing.clear();
      } else {
        fileCursor = inodeOf(after);
        int from = indexOf(after) + 1;
        Optional<GearStore.OwedFile> current = store.owedFile(fileCursor);
        if (current.isPresent()) {
          expand(current.get(), from, page, limit);
        }
      }
      while (page.size() < limit) {
        List<GearStore.OwedFile> files = store.owedAfter(fileCursor, limit);
        for (GearStore.OwedFile file : files) {
          fileCursor = file.inodeId();
          expand(file, 0, page, limit);
          if (page.size() >= limit) {
            break;
          }
        }
        if (files.size() < limit) {
          break;
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("the owed records under " + store.stateDir() + "/owed cannot be"
          + " listed: " + e.getMessage(), e);
    }
    return page;
  }

  /**
   * Files that owe moves (each owes at least one block): counted in the namespace once after each change made here
   * (a shift asks every step), and again after {@link #recount}.
   */
  @Override
  public long owedCount() {
    try {
      if (owed < 0) {
        owed = store.owedCount();
      }
      return owed;
    } catch (IOException e) {
      throw new UncheckedIOException("the owed records could not be counted", e);
    }
  }

  /** {@link #owedCount} counts files, as {@code hdfs eafr gear cancel} has always said. */
  @Override
  public String owedUnit() {
    return "files";
  }

  /** Lists the blocks of {@code file} from index {@code from} into {@code page}, planning homes it lacks (once). */
  private void expand(GearStore.OwedFile file, int from, List<OwedBlock> page, int limit) throws IOException {
    if (file.path() == null) {
      forgetFile(file.inodeId()); // deleted: nothing is owed for it
      return;
    }
    List<FileBlock> blocks = blocksOf(file.inodeId());
    if (blocks == null) {
      return; // still being written: its blocks are listed once it is closed
    }
    if (blocks.isEmpty()) {
      forgetFile(file.inodeId()); // no block: nothing to move
      return;
    }
    Map<Long, List<String>> homes = new HashMap<>(file.homes());
    boolean planned = false;
    for (FileBlock block : blocks) {
      if (!homes.containsKey(block.id)) {
        homes.put(block.id, planner.homes(file.path(), block.id, block.replication, block.holders));
        planned = true;
      }
    }
    if (planned) {
      store.writeOwed(file.withHomes(homes));
    }
    Set<String> done = forgotten.getOrDefault(file.inodeId(), Set.of());
    Set<String> names = new LinkedHashSet<>();
    blocks.forEach(block -> names.add(block.name));
    names.removeAll(done);
    if (names.isEmpty()) {
      forgetFile(file.inodeId()); // every block was forgotten already
      return;
    }
    owing.putIfAbsent(file.inodeId(), names);
    for (int i = from; i < blocks.size() && page.size() < limit; i++) {
      FileBlock block = blocks.get(i);
      if (done.contains(block.name)) {
        continue;
      }
      page.add(new OwedBlock(block.name, block.replication, homes.get(block.id)));
      cursors.put(block.name, file.inodeId() + CURSOR_SEPARATOR + i);
      fileOf.put(block.name, file.inodeId());
    }
  }

  /** Counts anew at the next {@link #owedCount}: another NameNode may have changed the records (a failover). */
  void recount() {
    owed = -1;
  }

  private void forgetFile(long inode) {
    owed = -1;
    forgotten.remove(inode);
    try {
      store.forgetOwed(inode);
    } catch (IOException e) {
      throw new UncheckedIOException("the owed record of inode " + inode + " could not be removed", e);
    }
  }

  /** The blocks of file {@code inodeId} with their holders, under one read-lock hold; null while it is open. */
  private List<FileBlock> blocksOf(long inodeId) {
    return closedFileBlocks(nameNode.getNamesystem(), dir -> dir.getInode(inodeId), (file, block) ->
        new FileBlock(block.getBlockName(), block.getBlockId(), file.getFileReplication(),
            NamespaceFloor.holders(nameNode.getNamesystem().getBlockManager(), block)));
  }

  /** Finds an inode in the namespace, under the namesystem lock. */
  interface InodeLookup {
    INode find(FSDirectory dir) throws IOException;
  }

  /**
   * What {@code each} makes of every block of the file {@code lookup} finds, in file order, under one hold of the
   * namesystem read lock; empty when there is no such file, null while it is being written.
   */
  static <T> List<T> closedFileBlocks(FSNamesystem namesystem, InodeLookup lookup,
      BiFunction<INodeFile, BlockInfo, T> each) {
    namesystem.readLock();
    try {
      INode inode = lookup.find(namesystem.getFSDirectory());
      if (inode == null || !inode.isFile()) {
        return List.of();
      }
      INodeFile file = inode.asFile();
      if (file.isUnderConstruction()) {
        return null;
      }
      List<T> blocks = new ArrayList<>();
      for (BlockInfo block : file.getBlocks()) {
        blocks.add(each.apply(file, block));
      }
      return blocks;
    } catch (IOException e) {
      return List.of(); // the path no longer resolves to a file
    } finally {
      namesystem.readUnlock();
    }
  }

  private Optional<String> pathOfBlock(String blockId) {
    FSNamesystem namesystem = nameNode.getNamesystem();
    namesystem.readLock();
    try {
      BlockInfo block = namesystem.getBlockManager().getStoredBlock(new Block(Block.getBlockId(blockId)));
      INodeFile file = block == null ? null : namesystem.getBlockCollection(block.getBlockCollectionId());
      return file == null ? Optional.empty() : Optional.of(file.getFullPathName());
    } finally {
      namesystem.readUnlock();
    }
  }

  private static long inodeOf(String cursor) {
    return Long.parseLong(part(cursor, 0));
  }

  private static int indexOf(String cursor) {
    return Integer.parseInt(part(cursor, 1));
  }

  private static String part(String cursor, int index) {
    String[] parts = cursor.split(CURSOR_SEPARATOR, -1);
    try {
      if (parts.length != 2) {
        throw new NumberFormatException("expected 2 parts");
      }
      Long.parseLong(parts[index]);
      return parts[index];
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("owed-block cursor '" + cursor + "' is not allowed: expected"
          + " <inode id>#<block index> as cursorOf gave it, or \"\" for the first", e);
    }
  }

  /** A block of a closed file: its name and id, the file's replication, the DataNodes holding it. */
  private static final class FileBlock {
    final String name;
    final long id;
    final int replication;
    final List<String> holders;

    FileBlock(String name, long id, int replication, List<String> holders) {
      this.name = name;
      this.id = id;
      this.replication = replication;
      this.holders = holders;
    }
  }
}
