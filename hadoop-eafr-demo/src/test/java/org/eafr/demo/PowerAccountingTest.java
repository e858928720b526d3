package org.eafr.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class PowerAccountingTest {
  /** The worked example of PowerLedger's Javadoc. */
  @Test
  void oneHostOnOneOffForAnHour() {
    PowerLedger ledger = new PowerLedger(new String[] {"a", "b"});
    boolean[] on = {true, false};
    double[] idle = {0, 0};
    ledger.record(0, on, idle);
    assertThat(ledger.wattsNow()).isCloseTo(103.7, within(1e-9));
    assertThat(ledger.wattsAllOnNow()).isCloseTo(187.4, within(1e-9));
    ledger.record(3_600_000, on, idle);
    assertThat(ledger.kilowattHours()).isCloseTo(0.1037, within(1e-9));
    assertThat(ledger.kilowattHoursAllOn()).isCloseTo(0.1874, within(1e-9));
    assertThat(ledger.ratio()).isCloseTo(0.5534, within(1e-4));
    assertThat(ledger.onMillis(0)).isEqualTo(3_600_000);
    assertThat(ledger.onMillis(1)).isZero();
  }

  @Test
  void loadRaisesTheDrawOfHostsThatAreOn() {
    PowerLedger ledger = new PowerLedger(new String[] {"a"});
    ledger.record(0, new boolean[] {true}, new double[] {0.5});
    assertThat(ledger.wattsNow()).isCloseTo(115.5, within(1e-9)); // EAFR Table 2, between 40 % and 60 %
  }

  /** The example of PowerEvents' Javadoc, plus lines before the start and noise. */
  @Test
  void powerEventsCountedPerDriverAndAction() {
    PowerEvents events = PowerEvents.of(List.of("1 demo dn3 on", "5 ipmi dn3 off", "9 ipmi dn3 on",
        "7 wol dn8 off suspended by the power agent", "garbage"), 2);
    assertThat(events.count("ipmi", "off")).isEqualTo(1);
    assertThat(events.count("demo", "on")).isZero();
    assertThat(events.bothWays("ipmi")).isTrue();
    assertThat(events.bothWays("wol")).isFalse();
  }

  @Test
  void magicPacketCarriesTheMacSixteenTimes() {
    byte[] packet = new byte[102];
    byte[] mac = {0x02, (byte) 0xEA, (byte) 0xF7, 0, 0, 8};
    for (int i = 0; i < 6; i++) {
      packet[i] = (byte) 0xFF;
    }
    for (int r = 0; r < 16; r++) {
      System.arraycopy(mac, 0, packet, 6 + 6 * r, 6);
    }
    assertThat(MagicPacket.macOf(packet, 102)).isEqualTo("02:ea:f7:00:00:08");
    assertThat(MagicPacket.macOf(packet, 101)).isNull();
    packet[100] = 1;
    assertThat(MagicPacket.macOf(packet, 102)).isNull();
  }
}
