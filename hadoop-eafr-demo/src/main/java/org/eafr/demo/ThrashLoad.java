package org.eafr.demo;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * The thrash test's continuous load: writer threads create files of seeded pseudo-random bytes (their MD5 recorded
 * when the file is closed) and reader threads read random written files back against that MD5. An operation that
 * throws is tried again, as an application would, for up to {@link #RETRY_MILLIS} (a DataNode pipeline being
 * rebuilt, the NameNode restarting); only then it counts as failed. A checksum that differs is never retried: it is a
 * mismatch. Past {@code keepFiles} files a writer goes on writing churn files that it reads back and deletes, so a
 * long run does not fill the disk.
 */
final class ThrashLoad implements AutoCloseable {
  static final long RETRY_MILLIS = 120_000;
  /** Between two writes of a writer: with 2 writers about 1 file a second, which a gear-up's reflection outpaces. */
  private static final long WRITE_PAUSE_MILLIS = 1500;
  private static final long MIN_BYTES = 64 << 10;
  private static final long MAX_BYTES = 3 << 19; // 1.5 MiB: one or two 1 MiB blocks

  private final FileSystem fs;
  private final long seed;
  private final int keepFiles;
  private final Map<String, String> checksums = new ConcurrentHashMap<>();
  private final List<String> written = new CopyOnWriteArrayList<>();
  private final List<String> failures = new CopyOnWriteArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  final AtomicLong reads = new AtomicLong();
  final AtomicLong readsRetried = new AtomicLong();
  final AtomicLong readsFailed = new AtomicLong();
  final AtomicLong writes = new AtomicLong();
  final AtomicLong writesFailed = new AtomicLong();
  final AtomicLong mismatches = new AtomicLong();
  private volatile boolean running = true;

  ThrashLoad(FileSystem fs, long seed, int keepFiles) {
    this.fs = fs;
    this.seed = seed;
    this.keepFiles = keepFiles;
  }

  void start(int writers, int readers) {
    for (int w = 0; w < writers; w++) {
      int writer = w;
      threads.add(thread("thrash-writer-" + w, () -> writeLoop(writer)));
    }
    for (int r = 0; r < readers; r++) {
      Random random = new Random(seed * 31 + r);
      threads.add(thread("thrash-reader-" + r, () -> readLoop(random)));
    }
  }

  private Thread thread(String name, Runnable body) {
    Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  private void writeLoop(int writer) {
    Random random = new Random(seed * 17 + writer);
    for (int k = 0; running; k++) {
      long bytes = MIN_BYTES + (long) (random.nextDouble() * (MAX_BYTES - MIN_BYTES));
      boolean keep = checksums.size() < keepFiles;
      String path = String.format(Locale.ROOT, keep ? "/thrash/w%d/f%06d" : "/thrash/churn/w%d-%06d", writer, k);
      String md5 = withRetry("write " + path, () -> {
        try (OutputStream out = fs.create(new Path(path), true)) {
          return FileContent.write(out, seed, path, bytes);
        }
      });
      if (md5 == null) {
        writesFailed.incrementAndGet();
        continue;
      }
      writes.incrementAndGet();
      checksums.put(path, md5);
      if (keep) {
        written.add(path);
      } else {
        verify(path);
        checksums.remove(path);
        withRetry("delete " + path, () -> fs.delete(new Path(path), false));
      }
      pause(WRITE_PAUSE_MILLIS);
    }
  }

  /**
   * Writes one kept file whose replicas go to {@code favored} (HDFS's favored nodes, which the NameNode takes before
   * its placement policy, as an application that chooses its DataNodes does), recording its MD5 like the writers do;
   * the readers and the final check read it back.
   */
  boolean writeOn(String path, long bytes, InetSocketAddress[] favored) {
    String md5 = withRetry("write " + path, () -> {
      try (OutputStream out = ((DistributedFileSystem) fs).create(new Path(path), FsPermission.getFileDefault(), true,
          4096, (short) favored.length, fs.getDefaultBlockSize(new Path(path)), null, favored)) {
        return FileContent.write(out, seed, path, bytes);
      }
    });
    if (md5 == null) {
      writesFailed.incrementAndGet();
      return false;
    }
    writes.incrementAndGet();
    checksums.put(path, md5);
    written.add(path);
    return true;
  }

  private void readLoop(Random random) {
    while (running) {
      int n = written.size();
      if (n == 0) {
        pause(200);
        continue;
      }
      verify(written.get(random.nextInt(n)));
      pause(100);
    }
  }

  /** Reads {@code path} back against its recorded MD5; true when it matched. */
  boolean verify(String path) {
    String expected = checksums.get(path);
    FileContent.Read read = withRetry("read " + path, () -> {
      try (InputStream in = fs.open(new Path(path))) {
        return FileContent.read(in);
      }
    });
    if (read == null) {
      readsFailed.incrementAndGet();
      return false;
    }
    reads.incrementAndGet();
    if (!read.md5().equals(expected)) {
      mismatches.incrementAndGet();
      failures.add("checksum of " + path + ": read " + read.md5() + " (" + read.length() + " bytes), wrote "
          + expected);
      return false;
    }
    return true;
  }

  private interface Op<T> {
    T run() throws IOException;
  }

  /** Runs {@code op}, again after each exception for up to RETRY_MILLIS; null (and a failure noted) if never. */
  private <T> T withRetry(String what, Op<T> op) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RETRY_MILLIS);
    for (int attempt = 1;; attempt++) {
      try {
        T result = op.run();
        if (attempt > 1 && what.startsWith("read")) {
          readsRetried.incrementAndGet();
        }
        return result;
      } catch (IOException | RuntimeException e) {
        if (e instanceof FileNotFoundException || System.nanoTime() > deadline || !running && attempt > 3) {
          failures.add(what + " after " + attempt + " attempts: " + e);
          return null;
        }
        pause(Math.min(5000, 250L << Math.min(attempt, 5)));
      }
    }
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops the writers and readers (each finishes its operation under way). */
  @Override
  public void close() throws InterruptedException {
    running = false;
    for (Thread thread : threads) {
      thread.join(TimeUnit.MILLISECONDS.toMillis(RETRY_MILLIS + 30_000));
    }
  }

  /** Reads every kept file back; returns how many matched their checksum. */
  long verifyAll() {
    long verified = 0;
    for (String path : new TreeMap<>(checksums).keySet()) {
      if (verify(path)) {
        verified++;
      }
    }
    return verified;
  }

  long filesKept() {
    return checksums.size();
  }

  List<String> failures() {
    return List.copyOf(failures);
  }
}
