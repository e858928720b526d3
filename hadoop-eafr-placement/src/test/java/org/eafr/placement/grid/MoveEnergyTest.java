package org.eafr.placement.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.eafr.placement.power.PowerModel;
import org.junit.jupiter.api.Test;

class MoveEnergyTest {
  @Test
  void oneGigabyteOverAGigabitLinkAtTable2sSpan() {
    MoveEnergy energy = MoveEnergy.of(PowerModel.eafrTable2(10), 125_000_000);

    assertThat(energy.joules(1_000_000_000L)).isCloseTo(660.8, within(1e-9));
    assertThat(energy.kwh(1_000_000_000L)).isCloseTo(0.00018356, within(1e-8));
  }

  @Test
  void aZeroLinkIsRefused() {
    assertThatThrownBy(() -> new MoveEnergy(41.3, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("link 0.0 bytes/s");
  }
}
