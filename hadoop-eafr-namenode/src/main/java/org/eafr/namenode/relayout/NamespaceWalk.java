package org.eafr.namenode.relayout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/**
 * The namespace in a fixed order, a few files at a time: depth first, each directory's children in HDFS's listing
 * order (by name bytes), resumed after a <em>cursor</em>, the path of the last file handed out.
 *
 * <p>Cost: the walk keeps the listing page it stands in (one per directory level of the cursor), so each page of
 * {@code dfs.ls.limit} entries is read once per walk, under HDFS's own short read lock, whatever the number of files a
 * step asks for: a walk of the namespace costs one {@code getListing} per page, as {@code hdfs dfs -ls -R} does. A
 * step asked to go on after another cursor than the one it stands at (a restart, a failover, a stopped relayout, a
 * batch read again) finds its place anew: one {@code getFileInfo} per level of the cursor's path and the pages from
 * there, never the size of the namespace.
 *
 * <p>A file created during a walk behind the walk's place, or in a page the walk already holds, is left for the next
 * walk (files written under a geared layout are placed on its homes anyway); a file deleted meanwhile is handed out
 * and found gone by the reader ({@link RelayoutBlocks}).
 */
final class NamespaceWalk {
  private final ClientProtocol namespace;
  /** The directories the walk stands in, the innermost on top; empty once a walk is over. */
  private final Deque<Page> pages = new ArrayDeque<>();
  /** The cursor the pages stand at; null when they stand nowhere (a fresh walk, or one over). */
  private String at;

  NamespaceWalk(ClientProtocol namespace) {
    this.namespace = namespace;
  }

  /** Up to {@code count} files after {@code cursor} (empty: from the start); an empty list ends the walk. */
  List<WalkedFile> after(String cursor, int count) throws IOException {
    if (!cursor.equals(at)) {
      standAt(cursor);
    }
    List<WalkedFile> files = new ArrayList<>(count);
    while (files.size() < count && !pages.isEmpty()) {
      Page page = pages.peek();
      HdfsFileStatus status = page.next(namespace);
      if (status == null) {
        pages.pop();
      } else if (status.isDirectory()) {
        pages.push(new Page(status.getFullName(page.dir), HdfsFileStatus.EMPTY_NAME));
      } else {
        files.add(new WalkedFile(status.getFullName(page.dir), status.getFileId()));
      }
    }
    at = files.isEmpty() ? null : files.get(files.size() - 1).path;
    return files;
  }

  /**
   * Stands the walk just after {@code cursor}: a page per level of its path, each after the name the cursor goes on
   * with; a level whose directory is gone or is no directory now is left out (the walk goes on after it).
   */
  private void standAt(String cursor) throws IOException {
    pages.clear();
    if (cursor.isEmpty()) {
      pages.push(new Page("/", HdfsFileStatus.EMPTY_NAME));
      return;
    }
    String[] names = cursor.substring(1).split("/");
    String dir = "/";
    for (int level = 0; level < names.length; level++) {
      pages.push(new Page(dir, names[level].getBytes(StandardCharsets.UTF_8)));
      String child = dir.endsWith("/") ? dir + names[level] : dir + "/" + names[level];
      if (level + 1 < names.length) {
        HdfsFileStatus status = namespace.getFileInfo(child);
        if (status == null || !status.isDirectory()) {
          return;
        }
      }
      dir = child;
    }
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

  /** One listing page of a directory the walk stands in, and where the walk is in it. */
  private static final class Page {
    final String dir;
    /** The name the next page is listed after. */
    byte[] after;
    HdfsFileStatus[] entries = new HdfsFileStatus[0];
    int next;
    boolean more = true;

    Page(String dir, byte[] after) {
      this.dir = dir;
      this.after = after;
    }

    /** The next entry, reading the directory's next page when this one is used up; null when the directory is. */
    HdfsFileStatus next(ClientProtocol namespace) throws IOException {
      while (next == entries.length) {
        if (!more) {
          return null;
        }
        DirectoryListing listing = namespace.getListing(dir, after, false);
        if (listing == null) { // the directory is gone
          return null;
        }
        entries = listing.getPartialListing();
        next = 0;
        more = listing.hasMore() && entries.length > 0;
        after = entries.length > 0 ? listing.getLastName() : after;
      }
      return entries[next++];
    }
  }
}
