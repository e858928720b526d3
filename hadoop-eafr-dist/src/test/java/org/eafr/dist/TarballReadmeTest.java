package org.eafr.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

class TarballReadmeTest {

  @Test
  void tarballReadme_givesTheInstallCommandsOfTheOperationsGuide() throws IOException {
    String readme = Files.readString(Paths.get("src", "main", "tarball", "README.md"));

    assertThat(readme).contains("```sh\n" + InstallSteps.fromOperationsGuide() + "```");
  }
}
