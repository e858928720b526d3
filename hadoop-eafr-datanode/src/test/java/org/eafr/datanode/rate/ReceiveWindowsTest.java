package org.eafr.datanode.rate;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** The window arithmetic and the parsing around it; ReceiveWindowModeTest runs it against a real DataNode. */
class ReceiveWindowsTest {

  @Test
  void window_isRateTimesRtt_betweenTwoSegmentsAndTheCeiling() {
    // The class Javadoc's worked example.
    assertThat(ReceiveWindows.window(1_500_000, 2_000, 1448)).isEqualTo(3_000);
    assertThat(ReceiveWindows.window(1_500_000, 50, 1448)).isEqualTo(2_896);
    assertThat(ReceiveWindows.window(1e12, 10_000, 1448)).isEqualTo(ReceiveWindows.MAX_WINDOW);
    assertThat(ReceiveWindows.window(1_500_000, 0, 1448)).as("no RTT measured yet").isEqualTo(2_896);
  }

  @Test
  void receiveBuffer_isTwiceTheWindow() {
    assertThat(ReceiveWindows.receiveBuffer(2_896)).isEqualTo(5_792);
    assertThat(ReceiveWindows.receiveBuffer(Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
  }

  @Test
  void senderIds_giveTheirConnectionsAddress_withoutNameLookups() throws Exception {
    assertThat(ReceiveWindows.peerOf("10.213.0.3:41234#2")).isEqualTo("10.213.0.3:41234");
    assertThat(ReceiveWindows.address("10.213.0.3:41234"))
        .isEqualTo(new InetSocketAddress(InetAddress.getByName("10.213.0.3"), 41234));
    assertThat(ReceiveWindows.address("[0:0:0:0:0:0:0:1]:9866"))
        .isEqualTo(new InetSocketAddress(InetAddress.getByName("::1"), 9866));
    assertThat(ReceiveWindows.address("dn5.example.com:9866")).isNull();
    assertThat(ReceiveWindows.address("DataXceiver for client")).isNull();
  }

  @Test
  void procNetTcpAddresses_areWordsInHostOrder() throws Exception {
    assertThat(SocketTable.address("0100007F")).isEqualTo(InetAddress.getByName("127.0.0.1"));
    assertThat(SocketTable.address("0000000000000000FFFF00000300D50A")).as("IPv4-mapped, from tcp6")
        .isEqualTo(InetAddress.getByName("10.213.0.3"));
    assertThat(SocketTable.address("00000000000000000000000001000000")).isEqualTo(InetAddress.getByName("::1"));
  }

  @Test
  void aProcNetTcpLine_matchesOnlyItsEstablishedConnection() throws Exception {
    String line = "1: 0B00D50A:2692 0300D50A:A112 01 00000000:00000000 00:00000000 00000000 0 0 123456 1 0 20 4 30";
    String[] fields = line.split("\\s+");
    InetAddress sender = InetAddress.getByName("10.213.0.3");
    assertThat(SocketTable.inodeIfMatches(fields, 9874, sender, 41234)).isEqualTo(123456L);
    assertThat(SocketTable.inodeIfMatches(fields, 9866, sender, 41234)).isEqualTo(-1L);
    assertThat(SocketTable.inodeIfMatches(line.replace(" 01 ", " 06 ").split("\\s+"), 9874, sender, 41234))
        .as("TIME_WAIT").isEqualTo(-1L);
  }
}
