package org.eafr.namenode.power.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.eafr.namenode.power.PowerException;
import org.eafr.namenode.power.PowerReading;
import org.junit.jupiter.api.Test;

/**
 * The IPMI driver's reading of ipmitool's {@code dcmi power reading} output as ipmitool prints it (the fixtures follow
 * the printf formats of ipmitool's lib/ipmi_dcmi.c). The real answer of a BMC without DCMI is in
 * {@code IpmiPowerReadingTest}.
 */
class IpmiDcmiOutputTest {
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
}
