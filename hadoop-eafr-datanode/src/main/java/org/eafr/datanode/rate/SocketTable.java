package org.eafr.datanode.rate;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Finds the file descriptor of one of this process's TCP connections, given its local port and remote address, from
 * Linux's {@code /proc}: the connection's socket inode in {@code /proc/net/tcp} (and {@code tcp6}: a Java server
 * socket is dual-stack unless {@code java.net.preferIPv4Stack}), then the descriptor in {@code /proc/self/fd} that
 * links to {@code socket:[INODE]}. The DataNode never hands out its transfer sockets (nor does Java their
 * descriptors), but every connection it accepts is in these tables.
 */
final class SocketTable {
  private static final Path TCP = Paths.get("/proc/net/tcp");
  private static final Path TCP6 = Paths.get("/proc/net/tcp6");
  private static final Path FDS = Paths.get("/proc/self/fd");
  private static final String ESTABLISHED = "01";
  private static final String LISTEN = "0A";

  /** A socket: its inode and the descriptor this process holds it by. */
  static final class Entry {
    final long inode;
    final int fd;

    Entry(long inode, int fd) {
      this.inode = inode;
      this.fd = fd;
    }
  }

  /** The connection from {@code remote}:{@code remotePort} to our {@code localPort}, or null when not found. */
  Entry find(int localPort, InetAddress remote, int remotePort) throws IOException {
    return entry(inode(localPort, remote, remotePort));
  }

  /** This process's socket listening on {@code localPort}, or null when not found. */
  Entry listener(int localPort) throws IOException {
    for (String[] fields : rows()) {
      if (fields[3].equals(LISTEN) && Integer.parseInt(fields[1].split(":")[1], 16) == localPort) {
        Entry entry = entry(Long.parseLong(fields[9]));
        if (entry != null) {
          return entry;
        }
      }
    }
    return null;
  }

  private Entry entry(long inode) throws IOException {
    if (inode <= 0) {
      return null;
    }
    String target = "socket:[" + inode + "]";
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(FDS)) {
      for (Path fd : fds) {
        if (links(fd, target)) {
          return new Entry(inode, Integer.parseInt(fd.getFileName().toString()));
        }
      }
    }
    return null;
  }

  /**
   * Whether descriptor {@code fd} still is socket {@code inode}: a descriptor closed with its connection may be reused
   * for another file, which must never get a socket option meant for the old one.
   */
  boolean stillOpen(Entry entry) {
    return links(FDS.resolve(Integer.toString(entry.fd)), "socket:[" + entry.inode + "]");
  }

  private static boolean links(Path fd, String target) {
    try {
      return Files.readSymbolicLink(fd).toString().equals(target);
    } catch (IOException | UnsupportedOperationException e) { // closed meanwhile, or not a link
      return false;
    }
  }

  private static long inode(int localPort, InetAddress remote, int remotePort) throws IOException {
    for (String[] fields : rows()) {
      long inode = inodeIfMatches(fields, localPort, remote, remotePort);
      if (inode > 0) {
        return inode;
      }
    }
    return -1;
  }

  /** The fields of every socket line of /proc/net/tcp and /proc/net/tcp6. */
  private static List<String[]> rows() throws IOException {
    List<String[]> rows = new ArrayList<>();
    for (Path table : List.of(TCP, TCP6)) {
      if (Files.exists(table)) {
        List<String> lines = Files.readAllLines(table, StandardCharsets.US_ASCII);
        for (String line : lines.subList(1, lines.size())) {
          String[] fields = line.trim().split("\\s+");
          if (fields.length >= 10) {
            rows.add(fields);
          }
        }
      }
    }
    return rows;
  }

  /** One line of /proc/net/tcp: {@code sl local_address rem_address st ... uid timeout inode}. */
  static long inodeIfMatches(String[] fields, int localPort, InetAddress remote, int remotePort) {
    if (!fields[3].equals(ESTABLISHED)) {
      return -1;
    }
    String[] local = fields[1].split(":");
    String[] rem = fields[2].split(":");
    if (Integer.parseInt(local[1], 16) != localPort || Integer.parseInt(rem[1], 16) != remotePort
        || !remote.equals(address(rem[0]))) {
      return -1;
    }
    return Long.parseLong(fields[9]);
  }

  /**
   * An address as /proc/net/tcp prints it: the bytes in 32-bit words, each word in host (little-endian) order; an
   * IPv4-mapped IPv6 address comes back as IPv4. Example: {@code 0100007F} is 127.0.0.1.
   */
  static InetAddress address(String hex) {
    byte[] bytes = new byte[hex.length() / 2];
    for (int word = 0; word < bytes.length; word += 4) {
      for (int i = 0; i < 4; i++) {
        int at = 2 * (word + 3 - i);
        bytes[word + i] = (byte) Integer.parseInt(hex.substring(at, at + 2).toLowerCase(Locale.ROOT), 16);
      }
    }
    try {
      return InetAddress.getByAddress(bytes);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("not an address: " + hex, e);
    }
  }
}
