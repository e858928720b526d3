package org.eafr.namenode.power;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** Temporary directories under target/ (surefire's java.io.tmpdir), one per test. */
final class TestDirs {
  private TestDirs() {
  }

  static Path create(String prefix) throws IOException {
    Path tmp = Paths.get(System.getProperty("java.io.tmpdir"));
    Files.createDirectories(tmp);
    return Files.createTempDirectory(tmp, prefix);
  }

  static int freeTcpPort() throws IOException {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  static int freeUdpPort() throws IOException {
    try (java.net.DatagramSocket socket = new java.net.DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
