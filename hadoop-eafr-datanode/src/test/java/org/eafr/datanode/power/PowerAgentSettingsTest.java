package org.eafr.datanode.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.eafr.placement.settings.InvalidSettingException;
import org.junit.jupiter.api.Test;

class PowerAgentSettingsTest {
  private static PowerAgentSettings read(Map<String, String> keys) {
    return PowerAgentSettings.from(keys::get, keys);
  }

  @Test
  void offByDefault_withTheDocumentedDefaults() {
    PowerAgentSettings settings = read(Map.of());
    assertThat(settings.enabled()).isFalse();
    assertThat(settings.pollMillis()).isEqualTo(10_000L);
    assertThat(settings.hostCommand()).containsExactly("systemctl", "suspend");
    assertThat(settings.wolArmCommand()).isEmpty();
    assertThat(settings.dryRun()).isFalse();
  }

  @Test
  void readsCommandsAsWords() {
    PowerAgentSettings settings = read(Map.of("eafr.datanode.power-agent.enabled", "TRUE",
        "eafr.datanode.power-agent.wol-arm.command", " /sbin/ethtool  -s eno1 wol g ",
        "eafr.datanode.power-agent.host.command", "poweroff", "eafr.datanode.power-agent.dry-run", "true",
        "eafr.datanode.power-agent.poll.ms", "2500"));
    assertThat(settings.enabled()).isTrue();
    assertThat(settings.wolArmCommand()).isEqualTo(List.of("/sbin/ethtool", "-s", "eno1", "wol", "g"));
    assertThat(settings.hostCommand()).containsExactly("poweroff");
    assertThat(settings.dryRun()).isTrue();
    assertThat(settings.pollMillis()).isEqualTo(2500L);
  }

  @Test
  void badValuesAreRefusedNamingKeyValueAndWhatIsAllowed() {
    assertThatThrownBy(() -> read(Map.of("eafr.datanode.power-agent.enabled", "yes")))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("eafr.datanode.power-agent.enabled = yes is not allowed: expected true or false");
    assertThatThrownBy(() -> read(Map.of("eafr.datanode.power-agent.poll.ms", "50")))
        .hasMessage("eafr.datanode.power-agent.poll.ms = 50 is not allowed: expected a number in [100, 3600000]");
    assertThatThrownBy(() -> read(Map.of("eafr.datanode.power-agent.enabled", "true")))
        .hasMessage("eafr.datanode.power-agent.wol-arm.command = (empty) is not allowed: expected a command that arms"
            + " Wake-on-LAN on the interface the magic packet reaches, e.g. ethtool -s eth0 wol g while"
            + " eafr.datanode.power-agent.enabled = true");
    assertThatThrownBy(() -> read(Map.of("eafr.datanode.power-agent.enabled", "true",
        "eafr.datanode.power-agent.wol-arm.command", "ethtool -s eth0 wol g",
        "eafr.datanode.power-agent.host.command", " ")))
        .hasMessageStartingWith("eafr.datanode.power-agent.host.command = (empty) is not allowed: expected the"
            + " command that puts the host to sleep");
    assertThatThrownBy(() -> read(Map.of("eafr.datanode.power-agent.dryrun", "true")))
        .hasMessageStartingWith("eafr.datanode.power-agent.dryrun = true is not allowed: unknown key; did you mean"
            + " eafr.datanode.power-agent.dry-run?");
  }
}
