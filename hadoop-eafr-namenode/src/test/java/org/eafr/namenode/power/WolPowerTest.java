package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.eafr.namenode.power.PowerTestSupport.await;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.eafr.namenode.config.DataNodeName;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.junit.jupiter.api.Test;

/**
 * Wake-on-LAN: the magic packet reaches a real UDP listener on 127.0.0.1 byte for byte, the host's state comes from
 * the NameNode's view of its DataNode (here a view that turns ON once the packet arrived, as a booted host's DataNode
 * would heartbeat), and off is refused until an in-band power agent attaches, then recorded for it.
 */
class WolPowerTest {
  private static final byte[] MAC = {0x00, 0x5c, 0x52, 0x31, 0x3a, (byte) 0x9c};

  private final AtomicReference<PowerState> heartbeats = new AtomicReference<>(PowerState.OFF);
  private final HostView view = new HostView() {
    @Override
    public boolean active() {
      return true;
    }

    @Override
    public void checkMayPowerOff(InventoryEntry entry) {
    }

    @Override
    public PowerState heartbeatState(InventoryEntry entry) {
      return heartbeats.get();
    }
  };

  @Test
  void wake_sendsTheExact102ByteMagicPacket_andWaitsForHeartbeats() throws Exception {
    Path dir = TestDirs.create("wol");
    try (DatagramSocket listener = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
      listener.setSoTimeout(30_000);
      Configuration conf = PowerTestSupport.fastConf(dir, "{\"nodes\": [{\"host\": \"dn5\", \"driver\": \"wol\","
          + " \"mac\": \"00:5C:52:31:3a:9c\", \"address\": \"127.0.0.1\", \"port\": " + listener.getLocalPort()
          + "}]}");
      try (PowerManager manager = PowerDrivers.startManager(conf, view, 2)) {
        var on = manager.powerOn("dn5", Requester.AUTOMATIC);
        DatagramPacket packet = new DatagramPacket(new byte[200], 200);
        listener.receive(packet);
        heartbeats.set(PowerState.ON); // the host booted and its DataNode heartbeats

        byte[] expected = new byte[102];
        Arrays.fill(expected, 0, 6, (byte) 0xFF);
        for (int i = 0; i < 16; i++) {
          System.arraycopy(MAC, 0, expected, 6 + 6 * i, 6);
        }
        assertThat(Arrays.copyOf(packet.getData(), packet.getLength())).isEqualTo(expected);
        assertThat(await(on).state()).isEqualTo(PowerState.ON);
      }
    }
  }

  @Test
  void lostFirstPacket_isSentAgain_andTheWakeCompletesLongBeforeTheStateTimeout() throws Exception {
    Path dir = TestDirs.create("wol-resend");
    try (DatagramSocket listener = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
      listener.setSoTimeout(30_000);
      Configuration conf = PowerTestSupport.fastConf(dir, "{\"nodes\": [{\"host\": \"dn5\", \"driver\": \"wol\","
          + " \"mac\": \"00:5c:52:31:3a:9c\", \"address\": \"127.0.0.1\", \"port\": " + listener.getLocalPort()
          + "}]}");
      conf.set("eafr.power.state-timeout.ms", "120000");
      conf.set("eafr.power.poll.max.ms", "10000");
      conf.set(PowerSettings.WOL_RESEND_INTERVAL_MS.key(), "1000");
      try (PowerManager manager = PowerDrivers.startManager(conf, view, 2)) {
        var on = manager.powerOn("dn5", Requester.AUTOMATIC);
        DatagramPacket packet = new DatagramPacket(new byte[200], 200);
        listener.receive(packet); // lost: the host never sees it
        listener.receive(packet); // the resend wakes it
        heartbeats.set(PowerState.ON);

        PowerResult result = on.get(30, TimeUnit.SECONDS); // the state timeout is 120 s
        assertThat(result.state()).isEqualTo(PowerState.ON);
        assertThat(result.attempts()).as("one attempt: the packet was resent within it").isEqualTo(1);
        assertThat(packet.getLength()).isEqualTo(102);
      }
    }
  }

  @Test
  void off_isRefusedWithoutAnInBandAgent_andRecordedForOneOnceAttached() throws Exception {
    Path dir = TestDirs.create("wol-off");
    heartbeats.set(PowerState.ON);
    Configuration conf = PowerTestSupport.fastConf(dir, "{\"nodes\": [{\"host\": \"dn5\", \"driver\": \"wol\","
        + " \"mac\": \"00:5c:52:31:3a:9c\", \"address\": \"127.0.0.1\"}]}");
    try (PowerManager manager = PowerDrivers.startManager(conf, view, 2)) {
      assertThatThrownBy(() -> await(manager.powerOff("dn5", false, Requester.AUTOMATIC)))
          .isInstanceOf(PowerRefusedException.class)
          .hasMessage("wol can only wake dn5: no in-band power agent has attached for it"
              + " (org.eafr.datanode.power.PowerAgentPlugin with eafr.datanode.power-agent.enabled = true on its"
              + " DataNode); give it an ipmi, redfish or command entry in the power inventory to switch it off");
      assertThat(manager.status("dn5").consecutiveFailures()).isZero();
      assertThat(manager.status("dn5").quarantined()).isFalse();

      DataNodeName dataNode = new DataNodeName("10.0.0.5", "dn5", 9866);
      manager.sleepRequests().attach(dataNode); // what the DataNode's agent does with every poll
      var off = manager.powerOff("dn5", false, Requester.AUTOMATIC);
      PowerCommand taken = null;
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (taken == null && System.nanoTime() < deadline) {
        taken = manager.sleepRequests().takeFor(dataNode).map(Map.Entry::getValue).orElse(null);
        Thread.sleep(20);
      }
      assertThat(taken).isEqualTo(PowerCommand.GRACEFUL_OFF);
      heartbeats.set(PowerState.OFF); // the agent shut the host down; its DataNode went dead
      assertThat(await(off).state()).isEqualTo(PowerState.OFF);
    }
  }
}
