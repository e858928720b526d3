package org.eafr.namenode.relayout;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walk's order, its slices of the read lock and its resumption, on a NameNode (no DataNodes, empty files):
 * {@code /a} holds 10 files, {@code /b} a directory {@code c} of 3 files, a file {@code d} and an empty directory
 * {@code e}, and {@code /g} is a file. A whole walk visits 24 entries: 15 files, 4 directories entered, and 5 left
 * (the 4 and the root).
 */
class NamespaceWalkTest {
  private static final int ENTRIES = 24;
  @TempDir
  static java.nio.file.Path dir;
  private static MiniDFSCluster cluster;
  private static final List<String> FILES = new ArrayList<>();

  @BeforeAll
  static void start() throws IOException {
    Configuration conf = new HdfsConfiguration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.toString());
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(0).build();
    cluster.waitActive();
    for (int i = 0; i < 10; i++) {
      FILES.add("/a/f" + i);
    }
    FILES.addAll(List.of("/b/c/x", "/b/c/y", "/b/c/z", "/b/d", "/g"));
    FileSystem fs = cluster.getFileSystem();
    for (String file : FILES) {
      fs.create(new Path(file), (short) 1).close();
    }
    fs.mkdirs(new Path("/b/e"));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  @Test
  void aWalkHandsOutEveryFileInOrder_inSlicesOfBoundedEntries() {
    for (int slice : new int[] {1, 4, NamespaceWalk.SLICE}) {
      for (int batch : new int[] {1, 2, 3, 64}) {
        NamespaceWalk walk = new NamespaceWalk(cluster.getNameNode(), slice);
        List<String> walked = new ArrayList<>();
        int batches = 0;
        String cursor = "";
        for (List<NamespaceWalk.WalkedFile> files = walk.after(cursor, batch); !files.isEmpty();
            files = walk.after(cursor, batch)) {
          files.forEach(file -> walked.add(file.path));
          cursor = files.get(files.size() - 1).path;
          batches++;
        }
        assertThat(walked).as("slice %d, batch %d", slice, batch).isEqualTo(FILES);
        assertThat(batches).as("slice %d, batch %d", slice, batch).isEqualTo((FILES.size() + batch - 1) / batch);
        if (batch == 64) { // one batch: only the slice cuts the holds
          assertThat(walk.holds()).as("holds, slice %d", slice).isEqualTo((ENTRIES + slice - 1) / slice);
        }
      }
    }
  }

  @Test
  void aWalkGoesOnAfterAnyCursor() {
    for (int k = 1; k <= FILES.size(); k++) {
      List<String> rest = new ArrayList<>();
      NamespaceWalk walk = new NamespaceWalk(cluster.getNameNode());
      walk.after(FILES.get(k - 1), 100).forEach(file -> rest.add(file.path));
      assertThat(rest).as("after %s", FILES.get(k - 1)).isEqualTo(FILES.subList(k, FILES.size()));
      assertThat(walk.holds()).as("after %s", FILES.get(k - 1)).isEqualTo(1);
    }
  }

  @Test
  void aWalkResumedFromItsCursorAfterANameNodeRestart_coversEveryFileOnce() throws IOException {
    List<String> walked = new ArrayList<>();
    String cursor = "";
    NamespaceWalk walk = new NamespaceWalk(cluster.getNameNode());
    for (int batch = 0; batch < 3; batch++) { // the cursor is /a/f8
      List<NamespaceWalk.WalkedFile> files = walk.after(cursor, 3);
      files.forEach(file -> walked.add(file.path));
      cursor = files.get(files.size() - 1).path;
    }
    cluster.restartNameNode(true);
    walk = new NamespaceWalk(cluster.getNameNode());
    for (List<NamespaceWalk.WalkedFile> files = walk.after(cursor, 3); !files.isEmpty();
        files = walk.after(cursor, 3)) {
      files.forEach(file -> walked.add(file.path));
      cursor = files.get(files.size() - 1).path;
    }
    assertThat(walked).isEqualTo(FILES);
  }

  @Test
  void aCursorInADirectoryDeletedSince_goesOnAfterTheDirectory() throws IOException {
    FileSystem fs = cluster.getFileSystem();
    try {
      fs.create(new Path("/b/cc/q"), (short) 1).close();
      NamespaceWalk walk = new NamespaceWalk(cluster.getNameNode());
      assertThat(walk.after("/b/c/y", 1)).extracting(file -> file.path).containsExactly("/b/c/z");
      fs.delete(new Path("/b/cc"), true);
      List<String> rest = new ArrayList<>();
      walk.after("/b/cc/q", 100).forEach(file -> rest.add(file.path));
      assertThat(rest).containsExactly("/b/d", "/g");
    } finally {
      fs.delete(new Path("/b/cc"), true);
    }
  }

  /**
   * Between two holds the walk keeps only its place by name: the directory it stands in deleted, it goes on after
   * that directory; a file added ahead of it is walked, one added behind it is not, and one deleted ahead is not.
   */
  @Test
  void whatChangesBetweenHolds_isSeenByTheNextHold() throws IOException {
    FileSystem fs = cluster.getFileSystem();
    NamespaceWalk walk = new NamespaceWalk(cluster.getNameNode(), 1);
    try {
      fs.mkdirs(new Path("/b/c2"));
      fs.create(new Path("/b/c2/p"), (short) 1).close();
      fs.create(new Path("/b/c2/q"), (short) 1).close();
      assertThat(walk.after("/a/f9", 2)).extracting(file -> file.path).containsExactly("/b/c/x", "/b/c/y");
      fs.delete(new Path("/b/c"), true); // the directory the walk stands in
      fs.create(new Path("/a/f99"), (short) 1).close(); // behind the walk
      fs.create(new Path("/b/cz"), (short) 1).close(); // ahead of it
      fs.delete(new Path("/b/c2/q"), true); // ahead of it
      List<String> rest = new ArrayList<>();
      String cursor = "/b/c/y";
      for (List<NamespaceWalk.WalkedFile> files = walk.after(cursor, 1); !files.isEmpty();
          files = walk.after(cursor, 1)) {
        files.forEach(file -> rest.add(file.path));
        cursor = files.get(files.size() - 1).path;
      }
      assertThat(rest).containsExactly("/b/c2/p", "/b/cz", "/b/d", "/g");
    } finally {
      for (String path : List.of("/b/c2", "/b/cz", "/a/f99")) {
        fs.delete(new Path(path), true);
      }
      for (String file : List.of("/b/c/x", "/b/c/y", "/b/c/z")) {
        fs.create(new Path(file), (short) 1).close();
      }
    }
  }
}
