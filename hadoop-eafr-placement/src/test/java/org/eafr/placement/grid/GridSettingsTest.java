package org.eafr.placement.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.eafr.placement.settings.InvalidSettingException;
import org.junit.jupiter.api.Test;

class GridSettingsTest {
  @Test
  void defaultsAreEnergyOnlyWithEachKindsWait() {
    GridSettings settings = GridSettings.defaults();

    assertThat(settings.objective()).isEqualTo(Objective.ENERGY);
    assertThat(settings.maxWaitMillis(WorkKind.REFLECTION)).isEqualTo(6 * 3_600_000L);
    assertThat(settings.maxWaitMillis(WorkKind.COLD_MIGRATION)).isEqualTo(24 * 3_600_000L);
    assertThat(settings.get(GridSettings.MIN_SAVING)).isEqualTo(0.05);
    assertThat(settings.asMap()).containsEntry("eafr.grid.objective", "energy")
        .containsEntry("eafr.grid.defer.trim.ms", "86400000").hasSize(GridSettings.keys().size());
  }

  @Test
  void badInputNamesTheKeyAndWhatIsAllowed() {
    assertThatThrownBy(() -> GridSettings.of(Map.of("eafr.grid.objective", "cheap")))
        .isInstanceOf(InvalidSettingException.class).hasMessageContaining("eafr.grid.objective")
        .hasMessageContaining("[energy, carbon, price]");
    assertThatThrownBy(() -> GridSettings.of(Map.of("eafr.grid.defer.relayot.ms", "1")))
        .isInstanceOf(InvalidSettingException.class).hasMessageContaining("eafr.grid.defer.relayout.ms");
    assertThatThrownBy(() -> GridSettings.of(Map.of("eafr.grid.utilization.raise", "0.7")))
        .isInstanceOf(InvalidSettingException.class).hasMessageContaining("eafr.grid.utilization.raise");
  }
}
