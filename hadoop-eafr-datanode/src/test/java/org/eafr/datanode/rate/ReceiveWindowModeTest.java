package org.eafr.datanode.rate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.eafr.datanode.testing.RateControlCluster.await;
import static org.eafr.datanode.testing.RateControlCluster.senderThrottler;
import static org.eafr.datanode.testing.RateControlCluster.writer;

import com.sun.jna.LastErrorException;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.eafr.datanode.testing.RateControlCluster;
import org.junit.jupiter.api.Test;

/** eafr.datanode.rate.mode = window in a MiniDFSCluster DataNode: the kernel's window follows each allotted rate. */
class ReceiveWindowModeTest {
  private static final long GIB = 1L << 30;

  @Test
  void eachConnectionsReceiveWindow_isItsAllottedRateTimesItsRtt_inTheKernel() throws Exception {
    // Loopback segments are up to 64 KiB, so the two-segment floor is up to 128 KiB, and loopback round trips are
    // 20 us to 1 ms: at this c_b the older connection's rate x RTT lies between the floor and the 16 MiB ceiling.
    Configuration conf = RateControlCluster.conf("window", 16 * GIB);
    conf.set("eafr.datanode.rate.mode", "window");
    conf.setLong("eafr.datanode.rate.period.ms", 500); // time to read the kernel's values between two rounds
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, 1L << 30); // one connection per writer for the whole test
    try (MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build()) {
      DataNode dataNode = cluster.getDataNodes().get(0);
      ReceiveRatePlugin plugin = plugin(dataNode);
      SenderThrottler throttler = senderThrottler(dataNode);
      LinuxSockets sockets = LinuxSockets.load();
      SocketTable table = new SocketTable();
      AtomicBoolean stop = new AtomicBoolean();
      List<Thread> writers = new ArrayList<>();
      try {
        writers.add(writer(cluster.getFileSystem(), "/older", stop));
        await("the first sender", Duration.ofSeconds(20), () -> throttler.ratesOldestFirst().size() == 1);
        writers.add(writer(cluster.getFileSystem(), "/newer", stop));

        // A round in which both connections got a window, the older one's between the floor and the ceiling (set
        // by its rate, not a bound), read back from the kernel before the next round changes it.
        AtomicReference<Map<String, ReceiveWindows.Window>> seen = new AtomicReference<>();
        await("both connections' windows set to rate x RTT", Duration.ofSeconds(60), () -> {
          Map<String, ReceiveWindows.Window> windows = plugin.windows();
          if (windows.size() != 2 || !betweenBounds(windows.values().iterator().next())) {
            return false;
          }
          try {
            for (ReceiveWindows.Window w : windows.values()) {
              if (sockets.getInt(w.fd, LinuxSockets.IPPROTO_TCP, LinuxSockets.TCP_WINDOW_CLAMP) != w.bytes) {
                return false; // a round came between: look at the next one
              }
            }
          } catch (LastErrorException e) { // a block ended and its connection closed: look at the next round
            return false;
          }
          seen.set(windows);
          return true;
        });

        for (Map.Entry<String, ReceiveWindows.Window> entry : seen.get().entrySet()) {
          ReceiveWindows.Window w = entry.getValue();
          assertThat(w.bytes).as("%s: rate x RTT within the bounds", entry.getKey())
              .isEqualTo(ReceiveWindows.window(w.rate, w.rttMicros, w.segmentBytes));
          // The descriptor is the DataXceiver's connection from that sender, found independently.
          InetSocketAddress peer = ReceiveWindows.address(ReceiveWindows.peerOf(entry.getKey()));
          assertThat(table.find(dataNode.getXferPort(), peer.getAddress(), peer.getPort()).fd).isEqualTo(w.fd);
          // SO_RCVBUF was set to twice the window (the kernel keeps double that, capped by net.core.rmem_max).
          assertThat(sockets.getInt(w.fd, LinuxSockets.SOL_SOCKET, LinuxSockets.SO_RCVBUF))
              .isGreaterThanOrEqualTo(w.bytes);
        }
        List<ReceiveWindows.Window> oldestFirst = new ArrayList<>(seen.get().values());
        assertThat((double) oldestFirst.get(0).bytes).as("the older connection's window is its rate x RTT")
            .isEqualTo(Math.rint(oldestFirst.get(0).rate * oldestFirst.get(0).rttMicros / 1e6));
        assertThat(oldestFirst.get(0).rate).as("Alg. 2: the older connection has the larger rate")
            .isGreaterThan(oldestFirst.get(1).rate);
        assertThat(throttler.stats().throttledMillis()).as("no read is paced in window mode").isZero();
      } finally {
        stop.set(true);
        for (Thread writer : writers) {
          writer.join(30_000);
        }
      }
    }
  }

  private static boolean betweenBounds(ReceiveWindows.Window w) {
    return w.bytes > 2 * w.segmentBytes && w.bytes < ReceiveWindows.MAX_WINDOW;
  }

  /** The plugin instance the DataNode started (Hadoop keeps its plugins in a private list). */
  private static ReceiveRatePlugin plugin(DataNode dataNode) throws ReflectiveOperationException {
    Field field = DataNode.class.getDeclaredField("plugins");
    field.setAccessible(true);
    for (Object plugin : (List<?>) field.get(dataNode)) {
      if (plugin instanceof ReceiveRatePlugin) {
        return (ReceiveRatePlugin) plugin;
      }
    }
    throw new AssertionError("no ReceiveRatePlugin among " + field.get(dataNode));
  }

}
