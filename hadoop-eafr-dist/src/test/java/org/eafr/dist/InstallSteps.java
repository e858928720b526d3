package org.eafr.dist;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;

/** The install commands of docs/operations.md: the sh block between its install-steps markers. */
final class InstallSteps {
  private static final String BEGIN = "<!-- install-steps:begin -->";
  private static final String END = "<!-- install-steps:end -->";
  private static final String FENCE = "```sh\n";

  private InstallSteps() {
  }

  static String fromOperationsGuide() throws IOException {
    String guide = Files.readString(Paths.get("..", "docs", "operations.md"));
    int begin = guide.indexOf(BEGIN);
    int end = guide.indexOf(END);
    if (begin < 0 || end < begin) {
      throw new IllegalStateException("docs/operations.md has no " + BEGIN + " ... " + END + " section");
    }
    String block = guide.substring(begin, end);
    return block.substring(block.indexOf(FENCE) + FENCE.length(), block.lastIndexOf("```"));
  }
}
