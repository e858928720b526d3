package org.eafr.namenode.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.eafr.namenode.power.PowerManager;
import org.eafr.namenode.power.PowerSettings;
import org.eafr.namenode.power.PowerTestSupport;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.junit.jupiter.api.Test;

/**
 * The operator's power commands per BMC endpoint are bounded: Wake-on-LAN hosts that share one broadcast address
 * (one endpoint) and never come on keep their power-ons under way; one more than {@link
 * OperatorPowerCommands#MAX_PER_BMC} is refused naming the endpoint, and nothing is handed to the manager for it.
 */
class OperatorPowerCommandsTest {
  @Test
  void aFullBmcQueue_refusesTheNextCommand_namingTheBmc() throws Exception {
    Path dir = Files.createTempDirectory("operator-commands");
    StringBuilder nodes = new StringBuilder();
    int hosts = OperatorPowerCommands.MAX_PER_BMC + 1;
    for (int i = 1; i <= hosts; i++) {
      nodes.append(i == 1 ? "" : ", ").append("{\"host\": \"dn").append(i).append("\", \"driver\": \"wol\",")
          .append(" \"mac\": \"00:5c:52:31:3a:0").append(i).append("\", \"address\": \"127.0.0.1\", \"port\": 9}");
    }
    Path inventory = dir.resolve("inventory.json");
    Files.write(inventory, ("{\"nodes\": [" + nodes + "]}").getBytes(StandardCharsets.UTF_8));
    Configuration conf = new Configuration(false);
    conf.set(PowerSettings.INVENTORY_FILE_KEY, inventory.toString());
    conf.set("eafr.power.min-command-interval.ms", "0");
    conf.set("eafr.power.state-timeout.ms", "600000"); // the hosts never come on within the test
    OperatorPowerCommands commands = new OperatorPowerCommands();
    try (PowerManager power = PowerDrivers.startManager(conf, PowerTestSupport.ANY_HOST_MAY_POWER_OFF, 1)) {
      for (int i = 1; i < hosts; i++) {
        assertThat(commands.submit(power, "dn" + i, AdminRequest.Verb.POWER_ON).future).isNotDone();
      }
      assertThatThrownBy(() -> commands.submit(power, "dn" + hosts, AdminRequest.Verb.POWER_ON))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("'hdfs eafr power on dn" + hosts + "' refused: " + OperatorPowerCommands.MAX_PER_BMC
              + " operator power commands are under way on BMC wol 127.0.0.1:9 (at most "
              + OperatorPowerCommands.MAX_PER_BMC + " per BMC); ask again once one has finished ('hdfs eafr power"
              + " status HOST' shows each)");
      assertThat(power.status("dn" + hosts).inFlight()).as("nothing handed to the manager").isNull();
      assertThat(commands.find("dn1", 1)).isNotNull();
      assertThat(commands.find("dn1", 2)).as("command 2 was dn2's").isNull();
    }
  }
}
