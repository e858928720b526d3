package org.eafr.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The core runs in the simulator and in HDFS daemons alike: no source file may name a Hadoop class. */
class CoreHasNoHadoopClassesTest {

  @Test
  void noMainSourceMentionsOrgApacheHadoop() throws IOException {
    Path main = Paths.get("src", "main", "java");
    assertThat(main).isDirectory();
    try (Stream<Path> files = Files.walk(main)) {
      List<Path> offenders = files.filter(p -> p.toString().endsWith(".java"))
          .filter(CoreHasNoHadoopClassesTest::mentionsHadoop).collect(Collectors.toList());
      assertThat(offenders).isEmpty();
    }
  }

  private static boolean mentionsHadoop(Path file) {
    try {
      return new String(Files.readAllBytes(file), StandardCharsets.UTF_8).contains("org.apache.hadoop");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
