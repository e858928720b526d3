package org.eafr.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The check TarballInstallIT runs over the unpacked tarball's docs, on a tree made for it. */
class DeadLinksTest {
  @Test
  void linksToShippedFiles_pass_whileLinksOutOfTheTreeOrToAbsentDocs_areNamedWithFileAndLine(@TempDir Path tree)
      throws Exception {
    Files.createDirectories(tree.resolve("docs"));
    Files.createDirectories(tree.resolve("conf"));
    Files.writeString(tree.resolve("conf/roles.example"), "", StandardCharsets.UTF_8);
    Files.writeString(tree.resolve("README.md"), "See [operations](docs/operations.md#install).\n",
        StandardCharsets.UTF_8);
    Files.writeString(tree.resolve("docs/operations.md"), String.join("\n",
        "# Install",
        "[roles](../conf/roles.example), [above](#install), [site](https://hadoop.apache.org/), [back](../README.md)",
        "results in [evaluation.md](evaluation.md#carbon) and [the grid](../../sim/grid/README.md)",
        ""), StandardCharsets.UTF_8);

    assertThat(DeadLinks.in(tree)).containsExactly(
        "docs/operations.md:3: evaluation.md#carbon",
        "docs/operations.md:3: ../../sim/grid/README.md");
  }
}
