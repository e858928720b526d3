package org.eafr.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.SplittableRandom;

/**
 * The bytes of a demo file: a pseudo-random stream fixed by the seed and the file's name, so a file's MD5 is known when
 * it is written and every later read can be checked against it.
 */
final class FileContent {
  private static final int CHUNK = 64 << 10;

  private FileContent() {
  }

  /** Writes {@code size} bytes of file {@code name} to {@code out}; returns their MD5 in hex. */
  static String write(OutputStream out, long seed, String name, long size) throws IOException {
    MessageDigest md5 = md5();
    SplittableRandom random = new SplittableRandom(seed ^ ((long) name.hashCode() << 32 | name.length()));
    byte[] chunk = new byte[CHUNK];
    for (long left = size; left > 0; left -= CHUNK) {
      int n = (int) Math.min(CHUNK, left);
      random.nextBytes(chunk);
      out.write(chunk, 0, n);
      md5.update(chunk, 0, n);
    }
    return HexFormat.of().formatHex(md5.digest());
  }

  /** The MD5 in hex of everything {@code in} holds, and its length. */
  static Read read(InputStream in) throws IOException {
    MessageDigest md5 = md5();
    byte[] buffer = new byte[CHUNK];
    long length = 0;
    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
      md5.update(buffer, 0, n);
      length += n;
    }
    return new Read(HexFormat.of().formatHex(md5.digest()), length);
  }

  record Read(String md5, long length) {
  }

  private static MessageDigest md5() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has MD5", e);
    }
  }
}
