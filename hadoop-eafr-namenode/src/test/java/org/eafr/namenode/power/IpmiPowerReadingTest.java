package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.junit.jupiter.api.Test;

/**
 * The IPMI driver's measured draw from the real answer of a BMC without DCMI (OpenIPMI's ipmi_sim answers DCMI Get
 * Power Reading with a completion code), which is "not offered", unlike a BMC that cannot be reached. The parsing of
 * ipmitool's output is in {@code IpmiDcmiOutputTest}.
 */
class IpmiPowerReadingTest {
  private static final String PASSWORD = "Dcmi-pw-4c1e9";

  @Test
  void ipmiSimWithoutDcmi_isNotOffered_atEitherPrivilege_andAWrongPasswordIsAnError() throws Exception {
    Path dir = TestDirs.create("ipmi-dcmi");
    try (LogCapture log = new LogCapture(); IpmiSimBmc bmc = IpmiSimBmc.start(dir, PASSWORD)) {
      for (String privilege : new String[] {null, "ADMINISTRATOR"}) {
        try (PowerManager manager = manager(dir, bmc.port(), PASSWORD, privilege)) {
          PowerReading reading = manager.driver("dn1").powerReading();

          assertThat(reading.measured()).as(String.valueOf(privilege)).isFalse();
          assertThat(reading.lasting()).as(String.valueOf(privilege)).isTrue();
          assertThat(reading.notOfferedReason()).startsWith("BMC 127.0.0.1:" + bmc.port()
              + " answered DCMI Get Power Reading with ");
        }
      }
      try (PowerManager manager = manager(dir, bmc.port(), "Wrong-pw-0c3", null)) {
        assertThatThrownBy(() -> manager.driver("dn1").powerReading()).isInstanceOf(PowerException.class)
            .hasMessageStartingWith("ipmitool dcmi power reading to BMC 127.0.0.1:" + bmc.port()
                + " as ipmiusr failed (exit 1): ")
            .satisfies(e -> assertThat(e.getMessage()).doesNotContain(PASSWORD).doesNotContain("Wrong-pw-0c3"));
      }
      assertThat(bmc.told()).isEmpty();
      assertThat(log.text()).doesNotContain(PASSWORD);
    }
  }

  private static PowerManager manager(Path dir, int port, String storedPassword, String privilege)
      throws Exception {
    Configuration conf = PowerTestSupport.fastConf(dir, "{\"nodes\": [{\"host\": \"dn1\", \"driver\": \"ipmi\","
        + " \"address\": \"127.0.0.1\", \"port\": " + port + ", \"user\": \"" + IpmiSimBmc.USER + "\","
        + " \"credential\": \"eafr.bmc.dn1\", \"cipher-suite\": 3"
        + (privilege == null ? "" : ", \"privilege\": \"" + privilege + "\"") + "}]}");
    TestCredentials.store(conf, dir, "eafr.bmc.dn1", storedPassword);
    return PowerDrivers.startManager(conf, PowerTestSupport.ANY_HOST_MAY_POWER_OFF, 1);
  }
}
