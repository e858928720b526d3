package org.eafr.namenode.relayout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/**
 * The namespace in a fixed order, a few files at a time: depth first, each directory's children in HDFS's listing
 * order (by name bytes), resumed after a <em>cursor</em>, the path of the last file handed out. A step costs one
 * {@code getFileInfo} per level of the cursor's path and the listing pages it reads (each at most
 * {@code dfs.ls.limit} entries, under HDFS's own short read lock), never the size of the namespace; a file created
 * before the cursor during a walk is left for the next walk, one deleted is skipped.
 */
final class NamespaceWalk {
  private final ClientProtocol namespace;

  NamespaceWalk(ClientProtocol namespace) {
    this.namespace = namespace;
  }

  /** Up to {@code count} file paths after {@code cursor} (empty: from the start); an empty list ends the walk. */
  List<String> after(String cursor, int count) throws IOException {
    List<String> files = new ArrayList<>(count);
    List<String> parts = cursor.isEmpty() ? List.of() : Arrays.asList(cursor.substring(1).split("/"));
    visit("/", parts, files, count);
    return files;
  }

  /** Adds the files of {@code dir} that come after {@code cursor} (the rest of the cursor's path below dir). */
  private void visit(String dir, List<String> cursor, List<String> files, int count) throws IOException {
    byte[] after = HdfsFileStatus.EMPTY_NAME;
    if (!cursor.isEmpty()) {
      String child = path(dir, cursor.get(0));
      if (cursor.size() > 1) { // the cursor is inside this child: finish it first
        HdfsFileStatus status = namespace.getFileInfo(child);
        if (status != null && status.isDirectory()) {
          visit(child, cursor.subList(1, cursor.size()), files, count);
        }
      }
      after = cursor.get(0).getBytes(StandardCharsets.UTF_8);
    }
    DirectoryListing listing;
    do {
      if (files.size() >= count) {
        return;
      }
      listing = namespace.getListing(dir, after, false);
      if (listing == null) {
        return;
      }
      for (HdfsFileStatus status : listing.getPartialListing()) {
        if (files.size() >= count) {
          return;
        }
        String path = status.getFullName(dir);
        if (status.isDirectory()) {
          visit(path, List.of(), files, count);
        } else {
          files.add(path);
        }
      }
      after = listing.getLastName();
    } while (listing.hasMore());
  }

  private static String path(String dir, String name) {
    return dir.endsWith("/") ? dir + name : dir + "/" + name;
  }
}
