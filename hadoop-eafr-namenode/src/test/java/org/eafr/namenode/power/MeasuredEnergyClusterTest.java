package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.admin.AdminRun;
import org.eafr.namenode.monitor.ReplicationMonitorPlugin;
import org.eafr.namenode.testing.EafrCluster;
import org.junit.jupiter.api.Test;

/**
 * Measured watts in the NameNode's energy estimate, end to end: a MiniDFSCluster with the EAFR plugin, a power manager
 * over its three DataNodes whose drivers report 150 W, 120 W and no meter, and the BMC poller every 200 ms. Once
 * polled, {@code hdfs eafr status -json} shows each DataNode's model watts beside its measured watts (null for the one
 * without a meter), the draw now is 150 + 120 W measured plus the third's model draw, and between two samples the kWh
 * used and the measured kWh grow by exactly those draws over the time between them.
 */
class MeasuredEnergyClusterTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A MiniDFSCluster DataNode's driver with a power meter reading {@code watts}, or none when null. */
  private static final class Metered implements PowerDriver {
    private final PowerDriver host;
    private final Double watts;

    Metered(PowerDriver host, Double watts) {
      this.host = host;
      this.watts = watts;
    }

    @Override
    public String name() {
      return host.name();
    }

    @Override
    public String endpoint() {
      return host.endpoint();
    }

    @Override
    public void powerOn() throws PowerException {
      host.powerOn();
    }

    @Override
    public void gracefulOff() throws PowerException {
      host.gracefulOff();
    }

    @Override
    public void forcedOff() throws PowerException {
      host.forcedOff();
    }

    @Override
    public PowerState state() throws PowerException {
      return host.state();
    }

    @Override
    public PowerReading powerReading() throws PowerException {
      return watts == null ? PowerDriver.super.powerReading() : PowerReading.watts(watts);
    }
  }

  @Test
  void measuredDraws_replaceTheModel_andAreIntegrated_beside_theModelsFigures() throws Exception {
    Configuration conf = EafrCluster.baseConf("measured-energy");
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReplicationMonitorPlugin.class.getName());
    EafrCluster cluster = EafrCluster.start(conf, new String[] {"/r1", "/r1", "/r2"});
    try {
      Map<String, PowerDriver> drivers = new LinkedHashMap<>();
      List<Double> readings = java.util.Arrays.asList(150.0, 120.0, null);
      int i = 0;
      for (Map.Entry<String, PowerDriver> entry : MiniClusterPower.drivers(cluster.mini(), null).entrySet()) {
        drivers.put(entry.getKey(), new Metered(entry.getValue(), readings.get(i++)));
      }
      try (PowerManager manager = MiniClusterPower.manager(cluster.mini(), drivers);
          BmcPoller poller = new BmcPoller(manager, 200, PowerScheduler.threads(1))) {
        cluster.runtime().gears().power(manager);
        poller.begin();
        GenericTestUtils.waitFor(() -> status(cluster).get("energy").get("wattsMeasured").asDouble() == 270.0, 100,
            60_000);

        JsonNode first = status(cluster);
        for (JsonNode node : first.get("nodes")) {
          int index = cluster.indexOf(node.get("id").asText());
          assertThat(node.get("powerState").asText()).isEqualTo("ON");
          assertThat(node.get("watts").asDouble()).as("the model's").isBetween(93.7, 135.0);
          if (readings.get(index) == null) {
            assertThat(node.get("measuredWatts").isNull()).isTrue();
          } else {
            assertThat(node.get("measuredWatts").asDouble()).isEqualTo(readings.get(index));
          }
        }
        double modelled = first.get("nodes").get(cluster.indexOf(cluster.id(2))).get("watts").asDouble();
        JsonNode energy = first.get("energy");
        assertThat(energy.get("wattsNow").asDouble()).isCloseTo(270.0 + modelled, within(1e-9));
        assertThat(AdminRun.run(cluster.conf(), "status").out).contains("measured by BMCs: 270.0 W of the draw now");

        JsonNode second = status(cluster).get("energy");
        double hours = (second.get("sampleTimeMillis").asLong() - energy.get("sampleTimeMillis").asLong()) / 3.6e6;
        assertThat(second.get("energyMeasuredKwh").asDouble() - energy.get("energyMeasuredKwh").asDouble())
            .isCloseTo(270.0 * hours / 1000, within(1e-12));
        assertThat(second.get("energyUsedKwh").asDouble() - energy.get("energyUsedKwh").asDouble())
            .isCloseTo(energy.get("wattsNow").asDouble() * hours / 1000, within(1e-12));
        cluster.runtime().gears().power(null);
      }
    } finally {
      cluster.close();
    }
  }

  private static JsonNode status(EafrCluster cluster) {
    try {
      AdminRun run = AdminRun.run(cluster.conf(), "status", "-json");
      assertThat(run.code).as(run.err).isZero();
      return JSON.readTree(run.out);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
