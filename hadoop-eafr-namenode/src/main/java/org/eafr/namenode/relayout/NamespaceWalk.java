package org.eafr.namenode.relayout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.INodeDirectory;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.snapshot.Snapshot;
import org.apache.hadoop.hdfs.util.ReadOnlyList;
import org.eafr.namenode.cluster.StorageBlockWalk;

/**
 * The namespace in a fixed order, a few files at a time: depth first, each directory's children in HDFS's own order
 * (by name bytes, as {@code getListing} lists them), resumed after a <em>cursor</em>, the path of the last file handed
 * out. Every entry that is not a directory is handed out (a symlink too; the block reader skips what is no file).
 *
 * <p>Lock: the walk reads HDFS's directory tree itself, in slices of at most {@value #SLICE} entries per hold of the
 * namesystem read lock (a directory entered or left counts as one), and between two holds keeps only its place: per
 * level of the cursor's path, the name it stands at. Each hold first looks that place up again from the root, one
 * lookup by name per level, so what changed while the lock was free is seen: a directory of the place that is gone or
 * is no directory now is left out (the walk goes on after it), and entries added or removed are taken as they are now.
 * Under a hold the walk copies each entry's inode id and name array (HDFS's own, not copied) into arrays made before
 * the hold, allocating nothing per entry (HDFS's {@code getListing} builds an HdfsFileStatus of about 1,900 bytes per
 * entry under its hold, so a young-generation collection it triggers stops the holder there); the paths are made after
 * the hold. A hold costs {@value #SLICE} pointer steps at most, whatever the directory's size, and starts at the
 * start of a CPU slice of its thread ({@link FreshSlice}).
 *
 * <p>A file created during a walk behind the walk's place is left for the next walk (files written under a geared
 * layout are placed on its homes anyway), one created ahead of it is walked; a file deleted after it was handed out is
 * found gone by the reader ({@link RelayoutBlocks}).
 */
final class NamespaceWalk {
  /** Entries one hold of the read lock visits at most: HDFS's decommission monitor's 1,000 a hold. */
  static final int SLICE = StorageBlockWalk.BATCH;
  private static final byte[] BEFORE_FIRST = new byte[0];
  /** An event of a slice that is no file: the walk entered the directory named, or left its innermost directory. */
  private static final long ENTERED = -1;
  private static final long LEFT = -2;

  private final NameNode nameNode;
  private final int slice;
  /**
   * The walk's place, level by level: {@code names[i]} is the entry it stands at in the directory of level {@code i}
   * (level 0 the root), a directory it is inside for every level but the innermost, where it is the last entry visited
   * ({@link #BEFORE_FIRST}: none yet). {@code paths[i]} is the path of level {@code i}'s directory.
   */
  private byte[][] names = new byte[16][];
  private String[] paths = new String[16];
  /** Level {@code i}'s directory while a hold lasts; cleared when it ends. */
  private INodeDirectory[] directories = new INodeDirectory[16];
  /** Levels of the place; 0 once a walk is over. */
  private int depth;
  /** The cursor the place stands at; null when it stands nowhere (a fresh walk). */
  private String at;
  /** One slice's events, in order: a file (its inode id), or {@link #ENTERED} / {@link #LEFT}, with its name. */
  private final long[] eventIds;
  private final byte[][] eventNames;
  private int events;
  /** The place's levels as the last slice found them, before it stepped on. */
  private int sliceStart;
  private long holds;

  NamespaceWalk(NameNode nameNode) {
    this(nameNode, SLICE);
  }

  /** A walk of {@code slice} entries a hold ({@link #SLICE}; tests take fewer). */
  NamespaceWalk(NameNode nameNode, int slice) {
    this.nameNode = nameNode;
    this.slice = slice;
    this.eventIds = new long[slice];
    this.eventNames = new byte[slice][];
  }

  /** Up to {@code count} files after {@code cursor} (empty: from the start); an empty list ends the walk. */
  List<WalkedFile> after(String cursor, int count) {
    if (!cursor.equals(at)) {
      standAt(cursor);
    }
    List<WalkedFile> files = new ArrayList<>(Math.min(count, slice));
    while (files.size() < count && depth > 0) {
      FSNamesystem namesystem = nameNode.getNamesystem();
      FreshSlice.beforeHold();
      namesystem.readLock();
      try {
        holds++;
        step(namesystem.getFSDirectory().getRoot(), count - files.size());
      } finally {
        Arrays.fill(directories, 0, directories.length, null);
        namesystem.readUnlock();
      }
      replay(files);
    }
    at = files.isEmpty() ? null : files.get(files.size() - 1).path;
    return files;
  }

  /** Read-lock holds this walk has made, for tests. */
  long holds() {
    return holds;
  }

  /** Stands the walk just after {@code cursor}: a level per directory of its path, each at the name it goes on with. */
  private void standAt(String cursor) {
    String[] parts = cursor.isEmpty() ? new String[0] : cursor.substring(1).split("/");
    depth = 0;
    paths[0] = "/";
    for (String part : parts) {
      grow();
      names[depth] = part.getBytes(StandardCharsets.UTF_8);
      paths[depth + 1] = child(paths[depth], part);
      depth++;
    }
    if (depth == 0) {
      names[0] = BEFORE_FIRST;
      depth = 1;
    }
  }

  /**
   * One slice, under the read lock: finds the place again from {@code root}, then steps through at most
   * {@link #slice} entries, or until {@code wanted} files, recording each as an event. Allocates nothing per entry.
   */
  private void step(INodeDirectory root, int wanted) {
    find(root);
    sliceStart = depth;
    events = 0;
    int files = 0;
    ReadOnlyList<INode> children = directories[depth - 1].getChildrenList(Snapshot.CURRENT_STATE_ID);
    int next = after(children, names[depth - 1]);
    while (events < slice && files < wanted && depth > 0) {
      if (next >= children.size()) {
        record(LEFT, null);
        depth--;
        if (depth > 0) {
          children = directories[depth - 1].getChildrenList(Snapshot.CURRENT_STATE_ID);
          next = after(children, names[depth - 1]);
        }
        continue;
      }
      INode entry = children.get(next++);
      names[depth - 1] = entry.getLocalNameBytes();
      if (entry.isDirectory()) {
        record(ENTERED, names[depth - 1]);
        grow();
        directories[depth] = entry.asDirectory();
        names[depth] = BEFORE_FIRST;
        depth++;
        children = directories[depth - 1].getChildrenList(Snapshot.CURRENT_STATE_ID);
        next = 0;
      } else {
        record(entry.getId(), names[depth - 1]);
        files++;
      }
    }
  }

  /**
   * Looks the place up from {@code root}, a name per level: the levels below a directory gone or no directory now are
   * dropped, so the walk goes on after it in its parent.
   */
  private void find(INodeDirectory root) {
    directories[0] = root;
    for (int level = 1; level < depth; level++) {
      INode dir = directories[level - 1].getChild(names[level - 1], Snapshot.CURRENT_STATE_ID);
      if (dir == null || !dir.isDirectory()) {
        depth = level;
        return;
      }
      directories[level] = dir.asDirectory();
    }
  }

  /** The index of the first child after {@code name} in HDFS's order of {@code children}. */
  private static int after(ReadOnlyList<INode> children, byte[] name) {
    int found = ReadOnlyList.Util.binarySearch(children, name);
    return found < 0 ? -found - 1 : found + 1;
  }

  private void record(long id, byte[] name) {
    eventIds[events] = id;
    eventNames[events] = name;
    events++;
  }

  /** Room for one more level; grows (allocates) only for a path deeper than any before. */
  private void grow() {
    if (depth + 1 >= names.length) {
      names = Arrays.copyOf(names, 2 * names.length);
      paths = Arrays.copyOf(paths, 2 * paths.length);
      directories = Arrays.copyOf(directories, 2 * directories.length);
    }
  }

  /** The last slice's files as paths, made after the hold from its events. */
  private void replay(List<WalkedFile> files) {
    int level = sliceStart;
    for (int e = 0; e < events; e++) {
      if (eventIds[e] == LEFT) {
        level--;
      } else if (eventIds[e] == ENTERED) {
        paths[level] = child(paths[level - 1], eventNames[e]);
        level++;
      } else {
        files.add(new WalkedFile(child(paths[level - 1], eventNames[e]), eventIds[e]));
      }
      eventNames[e] = null;
    }
  }

  private static String child(String dir, byte[] name) {
    return child(dir, new String(name, StandardCharsets.UTF_8));
  }

  private static String child(String dir, String name) {
    return dir.endsWith("/") ? dir + name : dir + "/" + name;
  }

  /** A file handed out by the walk: its path (the cursor once it is the last of a batch) and its inode id. */
  static final class WalkedFile {
    final String path;
    final long id;

    WalkedFile(String path, long id) {
      this.path = path;
      this.id = id;
    }

    @Override
    public String toString() {
      return path;
    }
  }
}
