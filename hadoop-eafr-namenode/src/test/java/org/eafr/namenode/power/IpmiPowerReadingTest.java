package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The IPMI driver's measured draw: ipmitool's {@code dcmi power reading} output as ipmitool prints it (the fixtures
 * follow the printf formats of ipmitool's lib/ipmi_dcmi.c), and the real answer of a BMC without DCMI (OpenIPMI's
 * ipmi_sim answers DCMI Get Power Reading with a completion code), which is "not offered", unlike a BMC that cannot
 * be reached.
 */
class IpmiPowerReadingTest {
  private static final String PASSWORD = "Dcmi-pw-4c1e9";
  private static final String WHAT = "ipmitool dcmi power reading to BMC 10.0.1.17:623 as eafr-power";

  /** ipmitool 1.8.19's output of a BMC whose power measurement is on (a 1 s sample). */
  private static final String ACTIVATED = "\n"
      + "    Instantaneous power reading:                   212 Watts\n"
      + "    Minimum during sampling period:                  3 Watts\n"
      + "    Maximum during sampling period:                350 Watts\n"
      + "    Average power reading over sample period:      160 Watts\n"
      + "    IPMI timestamp:                           Fri Nov 27 10:21:07 2026\n"
      + "    Sampling period:                          00000001 Seconds.\n"
      + "    Power reading state is:                   activated\n\n\n";

  /** ipmitool's error lines for a BMC answering with a completion code (to stderr, merged into the output). */
  private static final String INVALID_COMMAND = "Unable to Get Channel Cipher Suites\n\n"
      + "    DCMI request failed because: Invalid command (c1)\n";

  @Test
  void activatedReading_isTheInstantaneousWatts() throws Exception {
    assertThat(IpmiDriver.parseDcmiReading(ACTIVATED, WHAT)).isEqualTo(PowerReading.watts(212));
  }

  @Test
  void deactivatedReading_isUnavailableThisTime_notALastingAnswer() throws Exception {
    PowerReading reading = IpmiDriver.parseDcmiReading(ACTIVATED.replace("   activated", " deactivated"), WHAT);

    assertThat(reading.measured()).isFalse();
    assertThat(reading.lasting()).isFalse();
    assertThat(reading.notOfferedReason()).isEqualTo("DCMI power reading state is deactivated");
  }

  @Test
  void outputWithoutAReading_isAnErrorNamingTheCall() {
    assertThatThrownBy(() -> IpmiDriver.parseDcmiReading("Chassis Power is on\n", WHAT))
        .isInstanceOf(PowerException.class)
        .hasMessage(WHAT + " answered no instantaneous power reading: Chassis Power is on");
  }

  @Test
  void completionCodeAnswer_isTheBmcsRefusal_whileASessionFailureIsNot() {
    assertThat(IpmiDriver.dcmiRefusal(INVALID_COMMAND)).isEqualTo("Invalid command (c1)");
    assertThat(IpmiDriver.dcmiRefusal("Error: Unable to establish IPMI v2 / RMCP+ session\n")).isNull();
  }

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
    return PowerManager.start(conf, PowerTestSupport.ANY_HOST_MAY_POWER_OFF, 1);
  }
}
