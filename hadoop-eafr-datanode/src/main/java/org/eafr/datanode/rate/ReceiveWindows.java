package org.eafr.datanode.rate;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets each sending connection's TCP receive window to its allotted rate times its round trip, as ICTCP does and
 * EAFR's receiver does with the rates of Alg. 2: {@code window = rate x RTT}, at least two of the sender's segments
 * (a window of one segment waits for delayed ACKs) and at most {@link #MAX_WINDOW}. RTT is the smallest the kernel
 * has reported for the connection ({@code tcpi_rcv_rtt}, else the handshake's {@code tcpi_rtt}): the round trip
 * without the queue the senders build, so that the windows of all senders add up to c_b x RTT, what the link carries
 * without a standing queue. Applied through {@code SO_RCVBUF} (set to twice the window, {@link #receiveBuffer}) and
 * {@code TCP_WINDOW_CLAMP}, which bounds the advertised window exactly; re-applied every round of Alg. 2.
 *
 * <p>Worked example: rate 1.5 MB/s, RTT 2000 us, segments of 1448 bytes: 3000 bytes (above the 2896-byte floor).
 * At 50 us the product is 75 bytes and the floor, 2896, applies.
 *
 * <p>Only the adjusting thread calls {@link #apply}; {@link #applied()} may be read from any thread.
 */
final class ReceiveWindows {
  static final int MAX_WINDOW = 16 << 20;
  private static final int DEFAULT_MSS = 1448;
  /** The window of a connection before its first round: two Ethernet segments. */
  static final int INITIAL_WINDOW = 2 * DEFAULT_MSS;
  private static final Logger LOG = LoggerFactory.getLogger(ReceiveWindows.class);

  private final LinuxSockets sockets;
  private final SocketTable table = new SocketTable();
  private final boolean clamp;
  private final int localPort;
  private final Map<String, Connection> connections = new HashMap<>(); // by peer IP:PORT
  private volatile Map<String, Window> applied = Map.of();

  /** What was set on one connection in the last round. */
  static final class Window {
    final double rate;
    final int rttMicros;
    final int segmentBytes;
    final int bytes;
    final int fd;

    Window(double rate, int rttMicros, int segmentBytes, int bytes, int fd) {
      this.rate = rate;
      this.rttMicros = rttMicros;
      this.segmentBytes = segmentBytes;
      this.bytes = bytes;
      this.fd = fd;
    }

    @Override
    public String toString() {
      return "window " + bytes + " B (rate " + Math.round(rate) + " B/s x RTT " + rttMicros + " us, fd " + fd + ")";
    }
  }

  private static final class Connection {
    final SocketTable.Entry socket;
    int minRttMicros = Integer.MAX_VALUE;

    Connection(SocketTable.Entry socket) {
      this.socket = socket;
    }
  }

  private ReceiveWindows(LinuxSockets sockets, boolean clamp, int localPort) {
    this.sockets = sockets;
    this.clamp = clamp;
    this.localPort = localPort;
  }

  /**
   * Checks that this host lets a process set a TCP connection's receive window, on a loopback connection of its own:
   * returns whether {@code TCP_WINDOW_CLAMP} works too. Throws {@link IllegalStateException} saying what is missing.
   */
  static boolean probe() {
    LinuxSockets sockets = LinuxSockets.load();
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Socket client = new Socket(server.getInetAddress(), server.getLocalPort());
        Socket accepted = server.accept()) {
      SocketTable.Entry entry = new SocketTable().find(server.getLocalPort(), client.getLocalAddress(),
          client.getLocalPort());
      if (entry == null) {
        throw new IllegalStateException("a loopback connection of this process is not in /proc/net/tcp and"
            + " /proc/self/fd");
      }
      sockets.setInt(entry.fd, LinuxSockets.SOL_SOCKET, LinuxSockets.SO_RCVBUF, 2 * DEFAULT_MSS);
      sockets.tcpInfo(entry.fd);
      try {
        sockets.setInt(entry.fd, LinuxSockets.IPPROTO_TCP, LinuxSockets.TCP_WINDOW_CLAMP, 2 * DEFAULT_MSS);
        return true;
      } catch (LastErrorException e) {
        LOG.warn("TCP_WINDOW_CLAMP is not available ({}): the receive window follows SO_RCVBUF alone", e.getMessage());
        return false;
      }
    } catch (IOException | LastErrorException e) {
      throw new IllegalStateException("setting a loopback connection's receive buffer failed: " + e, e);
    }
  }

  /** Windows for the connections accepted on {@code localPort} (the DataNode's transfer port). */
  static ReceiveWindows on(int localPort, boolean clamp) {
    ReceiveWindows windows = new ReceiveWindows(LinuxSockets.load(), clamp, localPort);
    if (clamp) {
      windows.startSmall();
    }
    return windows;
  }

  /**
   * New connections start with a window of {@link #INITIAL_WINDOW}, not the kernel's autotuned one, until the next
   * round gives them rate x RTT: a receive buffer set on the listening socket is inherited by every connection it
   * accepts and bounds their first window (and their window clamp, which each round raises), while the window scale
   * still follows {@code tcp_rmem}. Without this, a newcomer sends up to its first window (tens of KB) at line rate
   * into the queue the established senders share. Only with {@code TCP_WINDOW_CLAMP}: SO_RCVBUF alone cannot raise
   * the inherited clamp later.
   */
  private void startSmall() {
    try {
      SocketTable.Entry listener = table.listener(localPort);
      if (listener == null) {
        LOG.warn("no socket listening on port {} found: new connections start with the kernel's window", localPort);
        return;
      }
      sockets.setInt(listener.fd, LinuxSockets.SOL_SOCKET, LinuxSockets.SO_RCVBUF, receiveBuffer(INITIAL_WINDOW));
    } catch (IOException | LastErrorException e) {
      LOG.warn("new connections start with the kernel's window: the listening socket's receive buffer could not be"
          + " set ({})", e.toString());
    }
  }

  boolean clamps() {
    return clamp;
  }

  /**
   * One round: every sender's window from its allotted rate ({@code senderId} as {@link SenderThrottler} names it,
   * {@code IP:PORT} or {@code IP:PORT#N}); connections no longer sending are forgotten.
   */
  void apply(Map<String, Double> ratesBySender) {
    Map<String, Window> now = new LinkedHashMap<>();
    Map<String, Connection> kept = new HashMap<>();
    for (Map.Entry<String, Double> sender : ratesBySender.entrySet()) {
      String peer = peerOf(sender.getKey());
      Connection connection = peer == null ? null : connection(peer);
      if (connection == null) {
        continue;
      }
      kept.put(peer, connection);
      Window window = set(connection, sender.getValue());
      if (window != null) {
        now.put(sender.getKey(), window);
      }
    }
    connections.keySet().retainAll(kept.keySet());
    connections.putAll(kept);
    applied = Collections.unmodifiableMap(now);
  }

  /** Sender to the window set on its connection in the last round, oldest sender first. */
  Map<String, Window> applied() {
    return applied;
  }

  private Window set(Connection connection, double rate) {
    SocketTable.Entry socket = connection.socket;
    if (!table.stillOpen(socket)) {
      return null;
    }
    try {
      LinuxSockets.TcpInfo info = sockets.tcpInfo(socket.fd);
      int rtt = info.roundTripMicros();
      if (rtt > 0) {
        connection.minRttMicros = Math.min(connection.minRttMicros, rtt);
      }
      int basis = connection.minRttMicros == Integer.MAX_VALUE ? 0 : connection.minRttMicros;
      int segment = info.receiveMss > 0 ? info.receiveMss : DEFAULT_MSS;
      int bytes = window(rate, basis, segment);
      sockets.setInt(socket.fd, LinuxSockets.SOL_SOCKET, LinuxSockets.SO_RCVBUF, receiveBuffer(bytes));
      if (clamp) {
        sockets.setInt(socket.fd, LinuxSockets.IPPROTO_TCP, LinuxSockets.TCP_WINDOW_CLAMP, bytes);
      }
      return new Window(rate, basis, segment, bytes, socket.fd);
    } catch (LastErrorException e) { // the connection closed between the check and the call
      LOG.debug("receive window of fd {} not set: {}", socket.fd, e.getMessage());
      return null;
    }
  }

  /**
   * The SO_RCVBUF for a window of {@code window} bytes: twice the window. The kernel doubles SO_RCVBUF and offers as
   * window only the part of that its buffers' overhead leaves (on veth links with 1448-byte segments, a buffer set to
   * 2896 advertised one segment, 1448 bytes); with twice the window it can offer the whole window, and
   * TCP_WINDOW_CLAMP bounds it exactly. Without the clamp the window is about, not exactly, this.
   */
  static int receiveBuffer(int window) {
    return (int) Math.min(Integer.MAX_VALUE, 2L * window);
  }

  /** rate x RTT in bytes, at least two segments, at most {@link #MAX_WINDOW}. */
  static int window(double bytesPerSecond, int rttMicros, int segmentBytes) {
    double product = bytesPerSecond * rttMicros / 1e6;
    return (int) Math.max(2L * segmentBytes, Math.min(MAX_WINDOW, Math.round(product)));
  }

  private Connection connection(String peer) {
    Connection known = connections.get(peer);
    if (known != null && table.stillOpen(known.socket)) {
      return known;
    }
    InetSocketAddress address = address(peer);
    if (address == null) {
      return null;
    }
    try {
      SocketTable.Entry socket = table.find(localPort, address.getAddress(), address.getPort());
      return socket == null ? null : new Connection(socket);
    } catch (IOException e) {
      LOG.warn("cannot read the socket table for {}: {}", peer, e.toString());
      return null;
    }
  }

  /** {@code IP:PORT} of a sender id, without the {@code #N} of a later transfer on the same connection. */
  static String peerOf(String senderId) {
    int hash = senderId.indexOf('#');
    return hash < 0 ? senderId : senderId.substring(0, hash);
  }

  /** A numeric {@code IP:PORT} (IPv6 with or without brackets); null for anything else (no name lookups here). */
  static InetSocketAddress address(String peer) {
    int colon = peer.lastIndexOf(':');
    if (colon <= 0) {
      return null;
    }
    String host = peer.substring(0, colon).replace("[", "").replace("]", "");
    if (!host.matches("[0-9A-Fa-f:.]+")) {
      return null;
    }
    try {
      return new InetSocketAddress(InetAddress.getByName(host), Integer.parseInt(peer.substring(colon + 1)));
    } catch (UnknownHostException | NumberFormatException e) {
      return null;
    }
  }
}
