package org.eafr.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import org.eafr.namenode.runtime.SettingsDefaults;
import org.eafr.datanode.config.DatanodeSettings;
import org.eafr.datanode.power.PowerAgentSettings;
import org.junit.jupiter.api.Test;

class ConfigurationReferenceTest {

  @Test
  void docsConfigurationMd_embedsTheCurrentReference() throws IOException {
    String doc = Files.readString(Paths.get("..", "docs", "configuration.md"));

    assertThat(ConfigurationReference.regenerate(doc))
        .as("docs/configuration.md is stale: run java -cp hadoop-eafr-dist/target/classes:hadoop-eafr-namenode/"
            + "target/classes:hadoop-eafr-datanode/target/classes:hadoop-eafr-placement/target/classes"
            + " org.eafr.dist.ConfigurationReference docs/configuration.md")
        .isEqualTo(doc);
  }

  @Test
  void nameNodeTable_hasEveryKeyTheNameNodeReads_once() {
    List<String> keys = keys(ConfigurationReference.nameNodeRows());

    assertThat(keys).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(SettingsDefaults.knownKeys());
  }

  @Test
  void dataNodeTable_hasEveryKeyOfBothPlugins_andTheRateThresholds() {
    List<String> keys = keys(ConfigurationReference.dataNodeRows());

    assertThat(keys).doesNotHaveDuplicates()
        .containsAll(PowerAgentSettings.keys())
        .contains(DatanodeSettings.LINK_BYTES_PER_SECOND.key(), DatanodeSettings.PERIOD_MS.key(),
            "eafr.datanode.rate.mode", "eafr.rate.low-threshold", "eafr.rate.high-threshold")
        .hasSize(PowerAgentSettings.keys().size() + DatanodeSettings.adapterSettings().size() + 3);
  }

  @Test
  void rows_renderRangeAndSymbolFromTheSetting_andTextKeysFromEafrDefaultXml() {
    String table = ConfigurationReference.markdown();

    assertThat(table)
        .contains("| `eafr.min-hot-replicas` | 1 | [0, 31] | eps: Minimum replicas of every file on hot servers;")
        .contains("| `eafr.datanode.link.bytes-per-second` | 0 | [0, 1099511627776] | c_b: Receive capacity")
        .contains("| `eafr.roles.file` | (none) | see meaning | Path of the roles file (lines 'hot HOST...', 'standby HOST...',"
            + " 'unlisted hot\\|standby');")
        .contains("| `eafr.datanode.power-agent.host.command` | systemctl suspend |");
  }

  private static List<String> keys(List<ConfigurationReference.Row> rows) {
    return rows.stream().map(row -> row.key).collect(Collectors.toList());
  }
}
