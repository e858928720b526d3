package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.placement.gear.policy.GearedPolicies;
import org.eafr.placement.gear.policy.GearedPolicySpec;
import org.eafr.placement.settings.InvalidSettingException;
import org.junit.jupiter.api.Test;

class GearSettingsTest {
  @Test
  void mode_isManualByDefault_andAutoWhenSet() {
    assertThat(GearSettings.from(key -> null).mode()).isEqualTo(GearMode.MANUAL);
    GearSettings auto = GearSettings.from(Map.of("eafr.gear.mode", " auto ", "eafr.gear.auto.interval.ms", "250",
        "eafr.gear.server.opens-per-second", "0")::get);
    assertThat(auto.mode()).isEqualTo(GearMode.AUTO);
    assertThat(auto.autoIntervalMillis()).isEqualTo(250);
    assertThat(auto.serverOpensPerSecond()).isZero();
    assertThat(auto.serverWriteBytesPerSecond()).isEqualTo(104_857_600L);
  }

  @Test
  void badMode_isRefusedNamingTheKeyAndTheAllowedValues() {
    assertThatThrownBy(() -> GearSettings.from(Map.of("eafr.gear.mode", "automatic")::get))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("eafr.gear.mode = automatic is not allowed: one of manual, auto");
    assertThatThrownBy(() -> GearSettings.from(Map.of("eafr.gear.auto.interval.ms", "5")::get))
        .isInstanceOf(InvalidSettingException.class).hasMessageStartingWith("eafr.gear.auto.interval.ms = 5");
  }

  /** u = 0.55 and h = 0.1 (default): a steering range down to u - 0.5 would take the target below h. */
  @Test
  void aUtilizationRangeBelowTheDownMargin_isRefusedNamingTheKey() {
    assertThatThrownBy(() -> GearSettings.from(Map.of("eafr.grid.utilization.lower", "0.5",
        "eafr.gear.target-utilization", "0.55")::get)).isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("eafr.grid.utilization.lower = 0.5");
    assertThat(GearSettings.from(Map.of("eafr.grid.utilization.lower", "0.1")::get).grid()).isNotNull();
  }

  @Test
  void badMode_stopsTheNameNodesEafrState_beforeAnythingStarts() {
    Configuration conf = new Configuration(false);
    conf.set("dfs.namenode.name.dir", "/gear-settings-test/bad-mode");
    conf.set("eafr.gear.mode", "sometimes");
    assertThatThrownBy(() -> EafrRuntime.of(conf)).isInstanceOf(InvalidSettingException.class)
        .hasMessage("eafr.gear.mode = sometimes is not allowed: one of manual, auto");
  }

  @Test
  void accordionLayout_isAccepted_andAnUnknownLayoutIsRefusedListingIt() {
    GearSettings accordion = GearSettings.from(Map.of("eafr.layout", "accordion")::get);
    assertThat(accordion.layout()).isEqualTo("accordion");
    assertThat(accordion.geared()).isTrue();
    assertThat(accordion.policy()).contains(GearedPolicies.ACCORDION);
    assertThatThrownBy(() -> GearSettings.from(Map.of("eafr.layout", "accordian")::get))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("eafr.layout = accordian is not allowed: one of random, equal-work, rabbit, springfs, accordion,"
            + " eafr-geared (equal-work is rabbit)");
  }

  @Test
  void everyGearedPolicyOfTheCoreRegistry_isSelectable_andEqualWorkIsRabbit() {
    for (GearedPolicySpec<?> policy : GearedPolicies.entries()) {
      GearSettings settings = GearSettings.from(Map.of("eafr.layout", " " + policy.name() + " ")::get);
      assertThat(settings.policy()).as(policy.name()).contains(policy);
      assertThat(settings.geared()).isTrue();
    }
    GearSettings equalWork = GearSettings.from(Map.of("eafr.layout", "equal-work")::get);
    assertThat(equalWork.layout()).isEqualTo("equal-work");
    assertThat(equalWork.policy()).contains(GearedPolicies.RABBIT);
    GearSettings random = GearSettings.from(key -> null);
    assertThat(random.layout()).isEqualTo("random");
    assertThat(random.policy()).isEmpty();
    assertThat(random.geared()).isFalse();
  }

  @Test
  void badAccordionGroupSize_stopsTheNameNodesEafrState_namingTheKey() {
    Configuration conf = new Configuration(false);
    conf.set("dfs.namenode.name.dir", "/gear-settings-test/bad-accordion");
    conf.set("eafr.layout", "accordion");
    conf.set("eafr.gear.accordion.lowest-group", "1");
    assertThatThrownBy(() -> EafrRuntime.of(conf)).isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("eafr.gear.accordion.lowest-group = 1 is not allowed: 0 (N / 5) or at least 2");
  }
}
