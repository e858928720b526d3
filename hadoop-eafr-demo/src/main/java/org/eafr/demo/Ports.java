package org.eafr.demo;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * Free ports of 127.0.0.1, handed out in ascending order from a base (so DataNode transfer ports rise with the
 * DataNode's index), skipping ports some other process holds. Other engineers' clusters run on the same machine: a port
 * is free when both a TCP and a UDP socket can bind it at the moment of the check.
 */
public final class Ports {
  private int next;

  public Ports(int base) {
    if (base < 10000 || base > 50000) {
      throw new IllegalArgumentException("port base " + base + " is not allowed: expected [10000, 50000], so every"
          + " port has 5 digits");
    }
    this.next = base;
  }

  public int tcp() {
    return take();
  }

  public int udp() {
    return take();
  }

  private int take() {
    while (next < 65000) {
      int port = next++;
      if (free(port)) {
        return port;
      }
    }
    throw new IllegalStateException("no free port of 127.0.0.1 left below 65000");
  }

  static boolean free(int port) {
    InetAddress local = InetAddress.getLoopbackAddress();
    try (ServerSocket tcp = new ServerSocket()) {
      tcp.setReuseAddress(false);
      tcp.bind(new InetSocketAddress(local, port));
    } catch (IOException e) {
      return false;
    }
    try (DatagramSocket udp = new DatagramSocket(new InetSocketAddress(local, port))) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
