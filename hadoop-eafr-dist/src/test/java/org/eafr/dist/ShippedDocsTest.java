package org.eafr.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tarball's docs, checked without building it: the docs the assembly lists, its README and conf/ laid out as the
 * tarball lays them out, so a shipped doc linking one the tarball leaves out fails here, in the unit tests, and not
 * only in {@link TarballInstallIT}.
 */
class ShippedDocsTest {
  private static final Path ASSEMBLY = Paths.get("src", "assembly", "tarball.xml");
  private static final Path SOURCE_DOCS = Paths.get("..", "docs");
  private static final Pattern DOCS_FILESET = Pattern.compile(
      "<directory>\\$\\{project\\.basedir}/\\.\\./docs</directory>.*?<includes>(.*?)</includes>", Pattern.DOTALL);
  private static final Pattern INCLUDE = Pattern.compile("<include>([^<]+)</include>");

  @Test
  void everyDocTheAssemblyLists_exists() throws IOException {
    assertThat(shippedDocs()).isNotEmpty()
        .allSatisfy(name -> assertThat(SOURCE_DOCS.resolve(name)).as("docs/%s", name).isRegularFile());
  }

  @Test
  void theShippedDocs_linkOnlyWhatTheTarballCarries(@TempDir Path tarball) throws IOException {
    Files.createDirectories(tarball.resolve("docs"));
    for (String name : shippedDocs()) {
      Files.copy(SOURCE_DOCS.resolve(name), tarball.resolve("docs").resolve(name));
    }
    Files.copy(Paths.get("src", "main", "tarball", "README.md"), tarball.resolve("README.md"));
    Files.copy(Paths.get("..", "LICENSE"), tarball.resolve("LICENSE"));
    copyTree(Paths.get("..", "conf"), tarball.resolve("conf"));

    assertThat(DeadLinks.in(tarball)).as("relative links in the shipped docs whose target the tarball lacks").isEmpty();
  }

  private static List<String> shippedDocs() throws IOException {
    Matcher fileSet = DOCS_FILESET.matcher(Files.readString(ASSEMBLY));
    assertThat(fileSet.find()).as("%s has a docs fileSet with includes", ASSEMBLY).isTrue();
    List<String> names = new ArrayList<>();
    Matcher include = INCLUDE.matcher(fileSet.group(1));
    while (include.find()) {
      names.add(include.group(1));
    }
    return names;
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target);
        }
      }
    }
  }
}
