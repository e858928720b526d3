package org.eafr.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.eafr.placement.settings.InvalidSettingException;
import org.junit.jupiter.api.Test;

class SimSettingsTest {
  @Test
  void defaultsAreTheEafrSetup() {
    SimSettings settings = SimSettings.defaults();
    assertThat(settings.servers()).isEqualTo(300);
    assertThat(settings.racks()).isEqualTo(10);
    assertThat(settings.hotFraction()).isEqualTo(0.7);
    assertThat(settings.files()).isEqualTo(50_000);
    assertThat(settings.readFiles()).isEqualTo(16_566);
    assertThat(settings.eafr().minReplicas()).isEqualTo(2);
    assertThat(settings.eafr().minHotReplicas()).isEqualTo(1);
  }

  @Test
  void aNegativeSizeIsRejectedNamingKeyValueAndRange() {
    assertThatThrownBy(() -> SimSettings.of(Map.of("sim.file-size.min-bytes", "-5")))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("sim.file-size.min-bytes = -5 is not allowed: expected a number in [1, +inf)");
  }

  @Test
  void anUnknownKeyListsTheKnownOnes() {
    assertThatThrownBy(() -> SimSettings.of(Map.of("sim.servrs", "10")))
        .hasMessageStartingWith("sim.servrs = 10 is not allowed: unknown key; known keys are sim.servers, sim.racks");
  }

  @Test
  void moreReadFilesThanFilesIsRejected() {
    assertThatThrownBy(() -> SimSettings.of(Map.of("sim.files", "10", "sim.read-files", "11")))
        .hasMessage("sim.read-files = 11 is not allowed: must be at most sim.files = 10");
  }

  @Test
  void eafrKeysGoToTheCoreSettings() {
    SimSettings settings = SimSettings.of(Map.of("eafr.min-replicas", "3"));
    assertThat(settings.eafr().minReplicas()).isEqualTo(3);
    assertThatThrownBy(() -> SimSettings.of(Map.of("eafr.min-replicas", "0")))
        .hasMessageStartingWith("eafr.min-replicas = 0 is not allowed");
  }

  @Test
  void withOverridesKeepsTheOtherValues() {
    SimSettings settings = SimSettings.of(Map.of("sim.servers", "40")).with(Map.of("sim.racks", "4"));
    assertThat(settings.servers()).isEqualTo(40);
    assertThat(settings.racks()).isEqualTo(4);
  }
}
