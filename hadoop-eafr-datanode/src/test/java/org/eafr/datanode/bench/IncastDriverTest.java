package org.eafr.datanode.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What scripts/bench/incast.sh leaves to Java besides the statistics: counters, configuration, the setup text. */
class IncastDriverTest {
  @TempDir
  Path state;

  @Test
  void tcpCounters_readTheNamedColumnOfTheTableAfterItsHeader() {
    List<String> snmp = List.of(
        "Ip: Forwarding DefaultTTL InReceives",
        "Ip: 1 64 1000",
        "Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets CurrEstab InSegs"
            + " OutSegs RetransSegs InErrs OutRsts InCsumErrors",
        "Tcp: 1 200 120000 -1 52 40 0 3 9 81234 90210 1234 0 7 0");
    List<String> netstat = List.of("TcpExt: SyncookiesSent TCPTimeouts TCPLossProbes", "TcpExt: 0 56 12");

    assertThat(TcpCounters.counter(snmp, "Tcp:", "RetransSegs")).isEqualTo(1234);
    assertThat(TcpCounters.counter(netstat, "TcpExt:", "TCPTimeouts")).isEqualTo(56);
    assertThat(TcpCounters.counter(netstat, "TcpExt:", "NoSuchCounter")).isZero();
  }

  @Test
  void nodeConf_hasTheBenchsPropertiesThenTheNodesOwn_andTheRacks() throws Exception {
    Files.createDirectories(state.resolve("node3/data"));
    IncastConf conf = new IncastConf(state, "10.213.0");
    conf.scenario(9, 5);
    conf.node(6, 16L << 20, Map.of("eafr.rate.low-threshold", "0.2"),
        IncastConf.properties(List.of("dfs.replication=2", "eafr.destination.finish-ratio=1")));

    assertThat(state.resolve("node3")).doesNotExist(); // a new scenario starts afresh
    assertThat(Files.readAllLines(state.resolve("conf/racks"))).startsWith("10.213.0.3 /r1")
        .contains("10.213.0.6 /r1", "10.213.0.7 /r2").hasSize(8);
    String site = Files.readString(state.resolve("node6/conf/hdfs-site.xml"), StandardCharsets.UTF_8);
    assertThat(site).contains("<name>dfs.datanode.address</name><value>10.213.0.8:9866</value>",
        "<name>dfs.blocksize</name><value>16777216</value>", "<name>eafr.rate.low-threshold</name><value>0.2",
        "<name>eafr.destination.finish-ratio</name><value>1</value>")
        .containsOnlyOnce("<name>dfs.replication</name><value>2</value>");
    assertThat(state.resolve("node6/conf/core-site.xml")).content().contains("hdfs://10.213.0.2:8020");
    assertThatThrownBy(() -> IncastConf.properties(List.of("=1"))).hasMessageContaining("'=1'");
  }

  @Test
  void setupText_namesTheKnobsAndTheHadoopVersionFromTheClasspath() {
    String version = IncastSetup.hadoopVersion("/x/webapps:/m2/hadoop-hdfs-client-3.4.3.jar:/m2/hadoop-hdfs-3.4.3.jar:"
        + "/m2/hadoop-hdfs-3.4.3-tests.jar");
    String text = IncastSetup.text(Map.ofEntries(Map.entry("--mbit", "100"), Map.entry("--queue", "30000"),
        Map.entry("--block-mb", "16"), Map.entry("--blocks", "3"), Map.entry("--period-ms", "100"),
        Map.entry("--rounds", "5"), Map.entry("--modes", "pacing window"), Map.entry("--eta-low", "0.2"),
        Map.entry("--eta-high", "0.5"), Map.entry("--slow-mbit", "25"), Map.entry("--finish-ratio", "1"),
        Map.entry("--load-start", "1.00 2.00 3.00")), version, "4.00 5.00 6.00 2/300 4000\n");

    assertThat(version).isEqualTo("3.4.3");
    assertThat(text).contains("(Hadoop 3.4.3,", "(100 Mbit/s, 30000-byte queue", "2 of them at 25 Mbit/s",
        "eafr.destination.finish-ratio = 1,", "at the start: 1.00 2.00 3.00; at the end: 4.00 5.00 6.00.");
  }
}
