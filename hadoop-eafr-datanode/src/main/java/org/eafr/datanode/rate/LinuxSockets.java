package org.eafr.datanode.rate;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import java.util.Locale;

/**
 * Socket options of a TCP socket given by its file descriptor, through the C library ({@code setsockopt},
 * {@code getsockopt}, reached with JNA): Java has no call for {@code TCP_WINDOW_CLAMP} or {@code TCP_INFO}, and no
 * public way from a Java socket to its descriptor ({@link SocketTable} finds it). Linux only: the constants below are
 * those of {@code <sys/socket.h>} and {@code <netinet/tcp.h>} on x86-64 and arm64.
 */
final class LinuxSockets {
  static final int SOL_SOCKET = 1;
  static final int SO_RCVBUF = 8;
  static final int IPPROTO_TCP = 6;
  static final int TCP_WINDOW_CLAMP = 10;
  static final int TCP_INFO = 11;
  /** Bytes of {@code struct tcp_info} read: up to and including {@code tcpi_total_retrans}. */
  private static final int TCP_INFO_BYTES = 104;

  /** The two C library calls used. */
  interface CLibrary extends Library {
    int setsockopt(int fd, int level, int name, Pointer value, int length) throws LastErrorException;

    int getsockopt(int fd, int level, int name, Pointer value, IntByReference length) throws LastErrorException;
  }

  private final CLibrary c;

  private LinuxSockets(CLibrary c) {
    this.c = c;
  }

  /** Loads the C library; throws {@link IllegalStateException} saying why when this is not Linux or JNA fails. */
  static LinuxSockets load() {
    String os = System.getProperty("os.name", "");
    if (!os.toLowerCase(Locale.ROOT).startsWith("linux")) {
      throw new IllegalStateException("it needs Linux (TCP_WINDOW_CLAMP, TCP_INFO); this is " + os);
    }
    try {
      return new LinuxSockets(Native.load("c", CLibrary.class));
    } catch (LinkageError | RuntimeException e) { // JNA missing from the classpath, or its native part refused
      throw new IllegalStateException("JNA cannot reach the C library: " + e, e);
    }
  }

  void setInt(int fd, int level, int name, int value) {
    try (Memory memory = new Memory(4)) {
      memory.setInt(0, value);
      c.setsockopt(fd, level, name, memory, 4);
    }
  }

  int getInt(int fd, int level, int name) {
    try (Memory memory = new Memory(4)) {
      c.getsockopt(fd, level, name, memory, new IntByReference(4));
      return memory.getInt(0);
    }
  }

  /** The fields of {@code struct tcp_info} the receive window needs. */
  TcpInfo tcpInfo(int fd) {
    try (Memory memory = new Memory(TCP_INFO_BYTES)) {
      memory.clear();
      c.getsockopt(fd, IPPROTO_TCP, TCP_INFO, memory, new IntByReference(TCP_INFO_BYTES));
      return new TcpInfo(memory.getInt(68), memory.getInt(92), memory.getInt(20), memory.getInt(96),
          memory.getInt(100));
    }
  }

  /** Round trip, the receiver's own round-trip estimate, the peer's segment size, window space and retransmits. */
  static final class TcpInfo {
    final int rttMicros;
    final int receiverRttMicros;
    final int receiveMss;
    final int receiveSpace;
    final int totalRetransmits;

    TcpInfo(int rttMicros, int receiverRttMicros, int receiveMss, int receiveSpace, int totalRetransmits) {
      this.rttMicros = rttMicros;
      this.receiverRttMicros = receiverRttMicros;
      this.receiveMss = receiveMss;
      this.receiveSpace = receiveSpace;
      this.totalRetransmits = totalRetransmits;
    }

    /** The receiver's RTT estimate ({@code tcpi_rcv_rtt}) once it has one, else the handshake's. */
    int roundTripMicros() {
      return receiverRttMicros > 0 ? receiverRttMicros : rttMicros;
    }
  }
}
