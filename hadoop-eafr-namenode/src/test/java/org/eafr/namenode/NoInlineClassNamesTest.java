package org.eafr.namenode;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Main code names classes by their imports, not inline ({@code java.util.Set}, {@code org.eafr...}): a reader sees
 * in the imports what a class uses, and two classes that would need the same simple name get different names.
 * Comments and string literals (messages that name a configured class) may spell a class out.
 */
class NoInlineClassNamesTest {
  private static final Pattern QUALIFIED =
      Pattern.compile("(?<![\\w.])(?:java|javax|org|com)\\.(?:[a-z][a-z0-9_]*\\.)+[A-Z]\\w*");

  @Test
  void mainCodeNamesNoClassByItsPackage() throws IOException {
    List<String> inline = new ArrayList<>();
    try (Stream<Path> files = Files.walk(Paths.get("src", "main", "java"))) {
      for (Path file : files.filter(p -> p.toString().endsWith(".java")).collect(Collectors.toList())) {
        inline.addAll(inlineNames(file));
      }
    }
    assertThat(inline).isEmpty();
  }

  @Test
  void aQualifiedNameInCodeIsFoundAndOneInAStringOrCommentIsNot() {
    assertThat(qualifiedIn("    java.util.Set<String> s = new java.util.HashSet<>();"))
        .containsExactly("java.util.Set", "java.util.HashSet");
    assertThat(qualifiedIn("    throw new X(\"name org.eafr.namenode.monitor.ReplicationMonitorPlugin\"); // org.a.B"))
        .isEmpty();
  }

  private static List<String> inlineNames(Path file) {
    List<String> found = new ArrayList<>();
    try {
      List<String> lines = Files.readAllLines(file);
      boolean inComment = false;
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i).trim();
        if (inComment || line.startsWith("/*")) {
          inComment = !line.contains("*/");
          continue;
        }
        if (!line.startsWith("import ") && !line.startsWith("package ")) {
          int number = i + 1;
          qualifiedIn(line).forEach(name -> found.add(file + ":" + number + ": " + name));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return found;
  }

  /** The qualified class names in {@code line}'s code: string and character literals and a line comment left out. */
  private static List<String> qualifiedIn(String line) {
    Matcher matcher = QUALIFIED.matcher(codeOf(line));
    List<String> names = new ArrayList<>();
    while (matcher.find()) {
      names.add(matcher.group());
    }
    return names;
  }

  private static String codeOf(String line) {
    StringBuilder code = new StringBuilder();
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote != 0) {
        if (c == '\\') {
          i++;
        } else if (c == quote) {
          quote = 0;
        }
        code.append(' ');
      } else if (c == '"' || c == '\'') {
        quote = c;
        code.append(' ');
      } else if (line.startsWith("//", i)) {
        break;
      } else {
        code.append(c);
      }
    }
    return code.toString();
  }
}
