package org.eafr.placement.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

class SettingsReferenceTest {

  @Test
  void docsSettingsMd_embedsTheCurrentTable() throws IOException {
    String doc = new String(Files.readAllBytes(Paths.get("..", "docs", "settings.md")), StandardCharsets.UTF_8);

    assertThat(doc)
        .as("docs/settings.md is stale: regenerate its table with SettingsReference.main")
        .contains(SettingsReference.markdownTable());
  }

  @Test
  void table_hasOneRowPerSetting() {
    String table = SettingsReference.markdownTable();

    assertThat(table.split("\n")).hasSize(EafrSettings.all().size() + 2);
    assertThat(table).contains("| `eafr.min-hot-replicas` | eps | 1 | [0, 31] |");
  }
}
