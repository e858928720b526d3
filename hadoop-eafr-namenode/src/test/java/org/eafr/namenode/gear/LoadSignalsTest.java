package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.eafr.placement.gear.LoadSample;
import org.junit.jupiter.api.Test;

/**
 * The autopilot's load over a hand-driven clock. Worked example: over 2 s, 20 opens; DataNode a grew from 1,000 to
 * 3,000 bytes used, b shrank from 5,000 to 4,000 (a delete: counts 0), c registered meanwhile with 1,000,000 bytes
 * (counts from its next sample); xceivers 3 + 4 + 5. So 10 opens/s, 2,000 bytes / 2 s = 1,000 bytes/s written, 12
 * transfers in progress.
 */
class LoadSignalsTest {
  private final AtomicLong opens = new AtomicLong();
  private final AtomicLong millis = new AtomicLong(1_000);
  private final List<DatanodeDescriptor> live = new ArrayList<>();
  private final LoadSignals signals = new LoadSignals(opens::get, () -> live, millis::get);

  @Test
  void workedExample_ratesSinceTheLastSample() {
    DatanodeDescriptor a = dataNode("10.0.0.1", 1_000, 1);
    DatanodeDescriptor b = dataNode("10.0.0.2", 5_000, 1);
    live.add(a);
    live.add(b);
    assertThat(signals.sample()).as("the first sample only starts the window").isEmpty();

    opens.addAndGet(20);
    millis.addAndGet(2_000);
    a.setDfsUsed(3_000);
    a.setXceiverCount(3);
    b.setDfsUsed(4_000);
    b.setXceiverCount(4);
    live.add(dataNode("10.0.0.3", 1_000_000, 5));
    LoadSample load = signals.sample().orElseThrow();

    assertThat(load.readsPerSecond()).isEqualTo(10.0);
    assertThat(load.writeBytesPerSecond()).isEqualTo(1_000.0);
    assertThat(load.transfers()).isEqualTo(12.0);
    assertThat(load.writesPerSecond()).isZero();
    assertThat(load.readBytesPerSecond()).isZero();

    signals.forget();
    assertThat(signals.sample()).as("after forget, the next sample starts a new window").isEmpty();
  }

  private static DatanodeDescriptor dataNode(String ip, long used, int xceivers) {
    DatanodeDescriptor node = DFSTestUtil.createDatanodeStorageInfo("s-" + ip, ip, "/rack", "host-" + ip)
        .getDatanodeDescriptor();
    node.setDfsUsed(used);
    node.setXceiverCount(xceivers);
    return node;
  }
}
