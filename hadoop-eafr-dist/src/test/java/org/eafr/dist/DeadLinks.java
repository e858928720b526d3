package org.eafr.dist;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The relative Markdown links of a tree's {@code .md} files whose target is not in the tree: what a reader of the
 * unpacked release tarball would find dead. A link with a scheme ({@code https:}, {@code mailto:}) or to an anchor of
 * the same page is not followed; a link's anchor is ignored, its file or folder must exist inside the tree.
 */
final class DeadLinks {
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern SCHEME = Pattern.compile("^[a-z][a-z0-9+.-]*:");

  private DeadLinks() {
  }

  /** Each dead link as {@code file:line: target}, files relative to {@code tree}, in file and line order. */
  static List<String> in(Path tree) throws IOException {
    Path root = tree.toAbsolutePath().normalize();
    List<Path> docs;
    try (Stream<Path> files = Files.walk(root)) {
      docs = files.filter(file -> file.toString().endsWith(".md")).sorted().collect(Collectors.toList());
    }
    List<String> dead = new ArrayList<>();
    for (Path doc : docs) {
      List<String> lines = Files.readAllLines(doc, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        Matcher link = LINK.matcher(lines.get(i));
        while (link.find()) {
          if (isDead(root, doc, link.group(1))) {
            dead.add(root.relativize(doc) + ":" + (i + 1) + ": " + link.group(1));
          }
        }
      }
    }
    return dead;
  }

  private static boolean isDead(Path root, Path doc, String target) {
    if (target.startsWith("#") || SCHEME.matcher(target).find()) {
      return false;
    }
    int anchor = target.indexOf('#');
    Path resolved = doc.getParent().resolve(anchor < 0 ? target : target.substring(0, anchor)).normalize();
    return !resolved.startsWith(root) || !Files.exists(resolved);
  }
}
