package org.eafr.namenode.relayout;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walk's order, its listing calls and its resumption, on a NameNode (no DataNodes, empty files) listing
 * {@value #PAGE} entries a page: {@code /a} holds 10 files (3 pages), {@code /b} a directory {@code c} of 3 files, a
 * file {@code d} and an empty directory {@code e}, and {@code /g} is a file. A whole walk reads 7 pages (the root's, 3
 * of {@code /a}, {@code /b}'s, {@code /b/c}'s and the empty {@code /b/e}'s), whatever the batch size.
 */
class NamespaceWalkTest {
  private static final int PAGE = 4;
  private static final int PAGES = 7;
  @TempDir
  static java.nio.file.Path dir;
  private static MiniDFSCluster cluster;
  private static final List<String> FILES = new ArrayList<>();

  @BeforeAll
  static void start() throws IOException {
    Configuration conf = new HdfsConfiguration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.toString());
    conf.setInt(DFSConfigKeys.DFS_LIST_LIMIT, PAGE);
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
  void aWalkReadsEachPageOnce_whateverTheBatchSize() throws IOException {
    for (int batch : new int[] {1, 2, 3, 64}) {
      Counting namespace = new Counting(cluster.getNameNodeRpc());
      NamespaceWalk walk = new NamespaceWalk(namespace.proxy());
      List<String> walked = new ArrayList<>();
      int batches = 0;
      String cursor = "";
      for (List<NamespaceWalk.WalkedFile> files = walk.after(cursor, batch); !files.isEmpty();
          files = walk.after(cursor, batch)) {
        files.forEach(file -> walked.add(file.path));
        cursor = files.get(files.size() - 1).path;
        batches++;
      }
      assertThat(walked).as("batch %d", batch).isEqualTo(FILES);
      assertThat(batches).as("batch %d", batch).isEqualTo((FILES.size() + batch - 1) / batch);
      assertThat(namespace.listings.get()).as("listing calls, batch %d", batch).isEqualTo(PAGES);
      assertThat(namespace.fileInfos.get()).as("getFileInfo calls, batch %d", batch).isZero();
    }
  }

  @Test
  void aWalkGoesOnAfterAnyCursor_withOneLookupPerLevel() throws IOException {
    for (int k = 1; k <= FILES.size(); k++) {
      Counting namespace = new Counting(cluster.getNameNodeRpc());
      List<String> rest = new ArrayList<>();
      new NamespaceWalk(namespace.proxy()).after(FILES.get(k - 1), 100).forEach(file -> rest.add(file.path));
      assertThat(rest).as("after %s", FILES.get(k - 1)).isEqualTo(FILES.subList(k, FILES.size()));
      int levels = FILES.get(k - 1).split("/").length - 1;
      assertThat(namespace.fileInfos.get()).as("after %s", FILES.get(k - 1)).isEqualTo(levels - 1);
    }
  }

  @Test
  void aWalkResumedFromItsCursorAfterANameNodeRestart_coversEveryFileOnce() throws IOException {
    List<String> walked = new ArrayList<>();
    String cursor = "";
    NamespaceWalk walk = new NamespaceWalk(cluster.getNameNodeRpc());
    for (int batch = 0; batch < 3; batch++) { // into /a's third page: the cursor is /a/f8
      List<NamespaceWalk.WalkedFile> files = walk.after(cursor, 3);
      files.forEach(file -> walked.add(file.path));
      cursor = files.get(files.size() - 1).path;
    }
    cluster.restartNameNode(true);
    walk = new NamespaceWalk(cluster.getNameNodeRpc());
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
      NamespaceWalk walk = new NamespaceWalk(cluster.getNameNodeRpc());
      assertThat(walk.after("/b/c/y", 1)).extracting(file -> file.path).containsExactly("/b/c/z");
      fs.delete(new Path("/b/cc"), true);
      List<String> rest = new ArrayList<>();
      walk.after("/b/cc/q", 100).forEach(file -> rest.add(file.path));
      assertThat(rest).containsExactly("/b/d", "/g");
    } finally {
      fs.delete(new Path("/b/cc"), true);
    }
  }

  /** The NameNode's own client protocol, counting the calls the walk makes. */
  private static final class Counting {
    final ClientProtocol target;
    final AtomicInteger listings = new AtomicInteger();
    final AtomicInteger fileInfos = new AtomicInteger();

    Counting(ClientProtocol target) {
      this.target = target;
    }

    ClientProtocol proxy() {
      return (ClientProtocol) Proxy.newProxyInstance(ClientProtocol.class.getClassLoader(),
          new Class<?>[] {ClientProtocol.class}, (proxy, method, args) -> {
            if (method.getName().equals("getListing")) {
              listings.incrementAndGet();
            } else if (method.getName().equals("getFileInfo")) {
              fileInfos.incrementAndGet();
            }
            try {
              return method.invoke(target, args);
            } catch (InvocationTargetException e) {
              throw e.getCause();
            }
          });
    }
  }
}
