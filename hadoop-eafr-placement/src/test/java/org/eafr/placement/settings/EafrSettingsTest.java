package org.eafr.placement.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EafrSettingsTest {

  @Test
  void defaults_areThoseOfEafrSection4() {
    EafrSettings settings = EafrSettings.defaults();

    assertThat(settings.hotMeanReads()).isEqualTo(20.0);
    assertThat(settings.coldMeanReads()).isEqualTo(10.0);
    assertThat(settings.hotReplicaReads()).isEqualTo(8.0);
    assertThat(settings.coldReplicaReads()).isEqualTo(1.0);
    assertThat(settings.minReplicas()).isEqualTo(2);
    assertThat(settings.minHotReplicas()).isEqualTo(1);
    assertThat(settings.overloadThreshold()).isEqualTo(0.8);
    assertThat(settings.storageReserveBytes()).isEqualTo(10L * 1024 * 1024 * 1024);
    assertThat(settings.rateLowThreshold()).isEqualTo(0.2);
    assertThat(settings.rateHighThreshold()).isEqualTo(0.5);
  }

  @Test
  void from_readsKeysFromALookup_andKeepsDefaultsForAbsentOrBlankOnes() {
    Map<String, String> conf = new HashMap<>();
    conf.put("eafr.min-replicas", "3");
    conf.put("eafr.min-hot-replicas", " 2 ");
    conf.put("eafr.ewma.alpha", "");

    EafrSettings settings = EafrSettings.from(conf::get);

    assertThat(settings.minReplicas()).isEqualTo(3);
    assertThat(settings.minHotReplicas()).isEqualTo(2);
    assertThat(settings.ewmaAlpha()).isEqualTo(0.3);
  }

  @Test
  void outOfRangeValues_areRefusedNamingKeyValueAndRange() {
    assertThatThrownBy(() -> EafrSettings.builder().set("eafr.replica-fraction", "1").build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("eafr.replica-fraction = 1.0 is not allowed: expected a number in (0.0, 1.0)");
    assertThatThrownBy(() -> EafrSettings.builder().set(EafrSettings.EWMA_ALPHA, 0.0))
        .hasMessage("eafr.ewma.alpha = 0.0 is not allowed: expected a number in (0.0, 1.0)");
    assertThatThrownBy(() -> EafrSettings.builder().set("eafr.min-replicas", "0"))
        .hasMessage("eafr.min-replicas = 0 is not allowed: expected a number in [1, 32]");
    assertThatThrownBy(() -> EafrSettings.builder().set("eafr.storage-reserve.bytes", "-1"))
        .hasMessage("eafr.storage-reserve.bytes = -1 is not allowed: expected a number in [0, +inf)");
    assertThatThrownBy(() -> EafrSettings.builder().set("eafr.overload-threshold", "NaN"))
        .hasMessage("eafr.overload-threshold = NaN is not allowed: expected a number in (0.0, 1.0]");
    assertThatThrownBy(() -> EafrSettings.builder().set("eafr.hot.replica-reads", "Infinity"))
        .hasMessage("eafr.hot.replica-reads = Infinity is not allowed: expected a number in (0.0, +inf)");
  }

  @Test
  void malformedValues_areRefusedNamingKeyAndValue() {
    Map<String, String> conf = Map.of("eafr.interval.ms", "one hour");

    assertThatThrownBy(() -> EafrSettings.from(conf::get))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("eafr.interval.ms = one hour is not allowed: expected a number in [1000, +inf)")
        .extracting(e -> ((InvalidSettingException) e).key()).isEqualTo("eafr.interval.ms");
  }

  @Test
  void unknownKeys_areRefusedListingTheKnownOnes() {
    assertThatThrownBy(() -> EafrSettings.builder().set("eafr.min-replica", "2"))
        .hasMessageStartingWith("eafr.min-replica = 2 is not allowed: unknown key; known keys are eafr.interval.ms,")
        .hasMessageContaining("eafr.min-replicas");
  }

  @Test
  void relationsBetweenSettings_areChecked() {
    assertThatThrownBy(() -> EafrSettings.builder().set("eafr.min-hot-replicas", "2").build())
        .hasMessage("eafr.min-hot-replicas = 2 is not allowed: must be below eafr.min-replicas (r = 2)");
    assertThatThrownBy(() -> EafrSettings.builder().set("eafr.rate.low-threshold", "0.5").build())
        .hasMessage("eafr.rate.low-threshold = 0.5 is not allowed: must be below eafr.rate.high-threshold"
            + " (eta_h = 0.5)");
    assertThatThrownBy(() -> EafrSettings.builder().set("eafr.cold.mean-replica-reads", "25").build())
        .hasMessage("eafr.cold.mean-replica-reads = 25.0 is not allowed: must be at most"
            + " eafr.hot.mean-replica-reads (tau_u = 20.0)");
    assertThatThrownBy(() -> EafrSettings.builder().set("eafr.cold.replica-reads", "9").build())
        .hasMessage("eafr.cold.replica-reads = 9.0 is not allowed: must be at most eafr.hot.replica-reads"
            + " (sigma_u = 8.0)");
    assertThatThrownBy(() -> EafrSettings.builder().set("eafr.gear.down-margin", "0.8").build())
        .hasMessage("eafr.gear.down-margin = 0.8 is not allowed: must be below eafr.gear.target-utilization (u = 0.8)");
  }

  @Test
  void energySettings_defaultToTable2AndKeepOffAtMostIdleAtMostPeak() {
    EafrSettings defaults = EafrSettings.defaults();
    assertThat(defaults.get(EafrSettings.ENERGY_IDLE_WATTS)).isEqualTo(93.7);
    assertThat(defaults.get(EafrSettings.ENERGY_PEAK_WATTS)).isEqualTo(135.0);
    assertThat(defaults.get(EafrSettings.ENERGY_OFF_WATTS)).isEqualTo(10.0);
    assertThatThrownBy(() -> EafrSettings.builder().set("eafr.energy.off-watts", "94").build())
        .hasMessage("eafr.energy.off-watts = 94.0 is not allowed: must be at most eafr.energy.idle-watts"
            + " (P_idle = 93.7)");
    assertThatThrownBy(() -> EafrSettings.builder().set("eafr.energy.idle-watts", "140").build())
        .hasMessage("eafr.energy.idle-watts = 140.0 is not allowed: must be at most eafr.energy.peak-watts"
            + " (P_peak = 135.0)");
    assertThatThrownBy(() -> EafrSettings.builder().set("eafr.energy.peak-watts", "0"))
        .hasMessageContaining("eafr.energy.peak-watts = 0");
  }

  @Test
  void gearSettings_haveDefaultsAndRanges() {
    EafrSettings defaults = EafrSettings.defaults();
    assertThat(defaults.get(EafrSettings.GEAR_PRIMARIES)).isZero();
    assertThat(defaults.get(EafrSettings.GEAR_GROUP_SIZE)).isEqualTo(1);
    assertThat(defaults.get(EafrSettings.GEAR_REPLICAS)).isEqualTo(3);
    assertThat(defaults.get(EafrSettings.GEAR_MIGRATION_THRESHOLD)).isEqualTo(10);
    assertThat(defaults.get(EafrSettings.GEAR_MIN_DWELL_MS)).isEqualTo(300_000L);
    assertThatThrownBy(() -> EafrSettings.builder().set("eafr.gear.group-size", "0"))
        .hasMessage("eafr.gear.group-size = 0 is not allowed: expected a number in [1, 1000000]");
    assertThatThrownBy(() -> EafrSettings.builder().set("eafr.gear.target-utilization", "1.5"))
        .hasMessage("eafr.gear.target-utilization = 1.5 is not allowed: expected a number in (0.0, 1.0]");
  }

  @Test
  void aRefusedBuild_changesNothing() {
    EafrSettings before = EafrSettings.defaults();
    EafrSettings.Builder builder = before.toBuilder();

    assertThatThrownBy(() -> builder.set("eafr.ewma.alpha", "2")).isInstanceOf(InvalidSettingException.class);

    assertThat(builder.build()).isEqualTo(before);
  }

  @Test
  void asMap_listsEverySettingInDocumentationOrder() {
    Map<String, String> map = EafrSettings.defaults().asMap();

    assertThat(map.keySet()).containsExactlyElementsOf(
        EafrSettings.all().stream().map(Setting::key).collect(java.util.stream.Collectors.toList()));
    assertThat(map).containsEntry("eafr.min-replicas", "2").containsEntry("eafr.overload-threshold", "0.8");
  }
}
