package org.eafr.namenode.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.eafr.namenode.runtime.SettingsDefaults;
import org.eafr.placement.settings.InvalidSettingException;
import org.junit.jupiter.api.Test;

class ColdSleepSettingsTest {

  @Test
  void defaults_leaveColdServersOn_andWakeThemWeekly() {
    ColdSleepSettings settings = ColdSleepSettings.from(key -> null);

    assertThat(settings.powerOff()).isFalse();
    assertThat(settings.consistencyCheckMillis()).isEqualTo(7L * 24 * 3600 * 1000);
    assertThat(settings.awakeMillis()).isEqualTo(600_000L);
    assertThat(settings.stepMillis()).isEqualTo(5_000L);
  }

  @Test
  void powerOff_acceptsTrueAndFalseInAnyCase() {
    assertThat(ColdSleepSettings.from(Map.of("eafr.cold.power-off", " TRUE ")::get).powerOff()).isTrue();
    assertThat(ColdSleepSettings.from(Map.of("eafr.cold.power-off", "false")::get).powerOff()).isFalse();
  }

  @Test
  void powerOff_otherThanTrueOrFalse_isRefusedNamingKeyValueAndChoices() {
    assertThatThrownBy(() -> ColdSleepSettings.from(Map.of("eafr.cold.power-off", "yes")::get))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("eafr.cold.power-off").hasMessageContaining("yes")
        .hasMessageContaining("must be true or false");
  }

  @Test
  void aConsistencyCheckMoreOftenThanAMinute_isRefused_throughTheNameNodeSettingsToo() {
    assertThatThrownBy(() -> NamenodeSettings.from(Map.of("eafr.cold.consistency-check.interval.ms", "1000")::get))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("eafr.cold.consistency-check.interval.ms").hasMessageContaining("1000");
  }

  @Test
  void everyKey_isKnown_soNoneIsTakenForAMisspelling() {
    assertThat(SettingsDefaults.knownKeys()).containsAll(ColdSleepSettings.keys())
        .contains("eafr.cold.power-off", "eafr.cold.awake.ms", "eafr.cold.step.ms",
            "eafr.cold.consistency-check.interval.ms");
  }
}
