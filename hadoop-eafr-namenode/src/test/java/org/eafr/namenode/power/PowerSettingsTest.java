package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.eafr.placement.settings.InvalidSettingException;
import org.eafr.placement.settings.Setting;
import org.junit.jupiter.api.Test;

class PowerSettingsTest {

  @Test
  void defaults_followIronicAndMaas() {
    Configuration conf = new Configuration(false);
    conf.addResource("eafr-default.xml");
    PowerSettings settings = PowerSettings.from(conf::get);
    assertThat(settings.minCommandIntervalMillis()).isEqualTo(5_000);
    assertThat(settings.stateTimeoutMillis()).isEqualTo(60_000);
    assertThat(settings.commandTimeoutMillis()).isEqualTo(20_000);
    assertThat(settings.retries()).isEqualTo(2);
    assertThat(settings.quarantineAfter()).isEqualTo(3);
    assertThat(settings.ipmitool()).isEqualTo("ipmitool");
    assertThat(settings.truststoreType()).isEqualTo("PKCS12");
    assertThat(settings.inventoryFile()).isEmpty();
    // waits between state reads: 1, 2, 4, 8, then 10 s (each also at least the min command interval)
    assertThat(new long[] {settings.pollDelayMillis(0), settings.pollDelayMillis(1), settings.pollDelayMillis(2),
        settings.pollDelayMillis(3), settings.pollDelayMillis(4), settings.pollDelayMillis(40)})
        .containsExactly(1_000, 2_000, 4_000, 8_000, 10_000, 10_000);
  }

  @Test
  void badValues_nameTheKeyTheValueAndWhatIsAllowed() {
    assertThatThrownBy(() -> PowerSettings.from(Map.of("eafr.power.min-command-interval.ms", "-5")::get))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("eafr.power.min-command-interval.ms = -5 is not allowed: expected a number in [0, 600000]");
    assertThatThrownBy(() -> PowerSettings.from(Map.of("eafr.power.state-timeout.ms", "1m")::get))
        .hasMessageStartingWith("eafr.power.state-timeout.ms = 1m is not allowed");
    assertThatThrownBy(() -> PowerSettings.from(Map.of("eafr.power.poll.initial.ms", "5000",
        "eafr.power.poll.max.ms", "1000")::get))
        .hasMessage("eafr.power.poll.max.ms = 1000 is not allowed: must be at least eafr.power.poll.initial.ms"
            + " (5000)");
    assertThatThrownBy(() -> PowerSettings.from(Map.of("eafr.power.redfish.truststore.type", "PEM")::get))
        .hasMessage("eafr.power.redfish.truststore.type = PEM is not allowed: PKCS12 or JKS");
  }

  @Test
  void everyKey_isDocumentedInDocsPower() throws Exception {
    String docs = Files.readString(Paths.get("../docs/power.md"));
    for (Setting<?> setting : PowerSettings.numericSettings()) {
      assertThat(docs).as("docs/power.md documents " + setting.key()).contains("`" + setting.key() + "`");
    }
    for (String key : new String[] {PowerSettings.INVENTORY_FILE_KEY, PowerSettings.IPMITOOL_KEY,
        PowerSettings.REDFISH_TRUSTSTORE_KEY, PowerSettings.REDFISH_TRUSTSTORE_TYPE_KEY,
        PowerSettings.REDFISH_TRUSTSTORE_PASSWORD_ALIAS_KEY}) {
      assertThat(docs).as("docs/power.md documents " + key).contains("`" + key + "`");
    }
  }
}
