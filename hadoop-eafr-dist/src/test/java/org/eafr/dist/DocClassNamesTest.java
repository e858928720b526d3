package org.eafr.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every class the operator docs name in code spans exists: fully qualified names (hdfs-site.xml values, Hadoop's
 * classes) as they are, and names relative to a module's root package (`gear.GearService`) in one of the modules.
 */
class DocClassNamesTest {
  private static final Pattern CLASS_SPAN = Pattern.compile("`((?:[a-z][a-z0-9]*\\.)+[A-Z][A-Za-z0-9]*)`");
  private static final List<String> MODULE_PACKAGES = List.of("org.eafr.namenode.", "org.eafr.datanode.",
      "org.eafr.placement.");

  @ParameterizedTest
  @ValueSource(strings = {"configuration.md", "operations.md", "architecture.md"})
  void classesNamedInDoc_exist(String doc) throws IOException {
    Matcher span = CLASS_SPAN.matcher(Files.readString(Paths.get("..", "docs", doc)));
    Set<String> missing = new TreeSet<>();
    int found = 0;
    while (span.find()) {
      found++;
      if (!exists(span.group(1))) {
        missing.add(span.group(1));
      }
    }

    assertThat(found).as("class names in docs/%s", doc).isPositive();
    assertThat(missing).as("classes docs/%s names that do not exist", doc).isEmpty();
  }

  private boolean exists(String name) {
    List<String> candidates = name.startsWith("org.") ? List.of(name)
        : MODULE_PACKAGES.stream().map(prefix -> prefix + name).collect(java.util.stream.Collectors.toList());
    for (String candidate : candidates) {
      try {
        Class.forName(candidate, false, getClass().getClassLoader());
        return true;
      } catch (ClassNotFoundException e) {
        // try the next module
      }
    }
    return false;
  }
}
