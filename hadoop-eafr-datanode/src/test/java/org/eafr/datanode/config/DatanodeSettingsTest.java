package org.eafr.datanode.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.eafr.placement.settings.InvalidSettingException;
import org.junit.jupiter.api.Test;

class DatanodeSettingsTest {

  @Test
  void defaults_leaveRateControlOff() {
    DatanodeSettings settings = DatanodeSettings.from(key -> null);
    assertThat(settings.rateControlEnabled()).isFalse();
    assertThat(settings.linkBytesPerSecond()).isZero();
    assertThat(settings.periodMillis()).isEqualTo(100L);
    assertThat(settings.core().rateLowThreshold()).isEqualTo(0.2);
    assertThat(settings.core().rateHighThreshold()).isEqualTo(0.5);
  }

  @Test
  void keysFromTheConfiguration_areRead() {
    Map<String, String> conf = Map.of("eafr.datanode.link.bytes-per-second", "12500000",
        "eafr.datanode.rate.period.ms", "250", "eafr.rate.low-threshold", "0.05", "eafr.rate.high-threshold", "0.15");
    DatanodeSettings settings = DatanodeSettings.from(conf::get);
    assertThat(settings.rateControlEnabled()).isTrue();
    assertThat(settings.linkBytesPerSecond()).isEqualTo(12_500_000L);
    assertThat(settings.periodMillis()).isEqualTo(250L);
    assertThat(settings.core().rateLowThreshold()).isEqualTo(0.05);
    assertThat(settings.core().rateHighThreshold()).isEqualTo(0.15);
  }

  @Test
  void malformedValue_namesKeyValueAndRange() {
    Map<String, String> conf = Map.of("eafr.datanode.rate.period.ms", "fast");
    assertThatThrownBy(() -> DatanodeSettings.from(conf::get)).isInstanceOf(InvalidSettingException.class)
        .hasMessage("eafr.datanode.rate.period.ms = fast is not allowed: expected a number in [10, 60000]");
  }

  @Test
  void linkCapacityBelowTheFloor_isRefusedNamingTheKeyAndTheRange() {
    Map<String, String> conf = Map.of("eafr.datanode.link.bytes-per-second", "1048575");
    assertThatThrownBy(() -> DatanodeSettings.from(conf::get)).isInstanceOf(InvalidSettingException.class)
        .hasMessage("eafr.datanode.link.bytes-per-second = 1048575 is not allowed: expected 0 (off) or a number in"
            + " [1048576, 1099511627776]");
    assertThat(DatanodeSettings.from(Map.of("eafr.datanode.link.bytes-per-second", "1048576")::get)
        .linkBytesPerSecond()).isEqualTo(1_048_576L);
  }

  @Test
  void rateMode_isWindowByDefault_readInAnyCase_andAnythingElseNamesTheChoices() {
    assertThat(DatanodeSettings.from(key -> null).mode()).isEqualTo(RateMode.WINDOW);
    assertThat(DatanodeSettings.from(Map.of("eafr.datanode.rate.mode", " Pacing ")::get).mode())
        .isEqualTo(RateMode.PACING);
    assertThatThrownBy(() -> DatanodeSettings.from(Map.of("eafr.datanode.rate.mode", "icTCP")::get))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("eafr.datanode.rate.mode = icTCP is not allowed: expected window or pacing");
  }

  @Test
  void adapterSettings_areListedOnce() {
    assertThat(DatanodeSettings.adapterSettings()).extracting(s -> s.key())
        .containsExactly("eafr.datanode.link.bytes-per-second", "eafr.datanode.rate.period.ms");
  }
}
