package org.eafr.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.eafr.namenode.admin.AdminRequest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What README.md, the docs (docs/*.md and one folder below, not the run records in docs/bench/) and the release
 * tarball's README name exists: every class in a code span, every {@code eafr.*} setting key, every {@code hdfs eafr}
 * command, every path under scripts/, conf/ or docs/, every relative link and its heading anchor (not the tarball
 * README's: they point into the tarball, which TarballInstallIT checks); the Hadoop 3.5.0 test classes
 * docs/hadoop-compat.md lists are the ones the parent pom's {@code hadoop-3.5} profile runs; every key the daemons read
 * has its row in docs/configuration.md. A failure lists each unknown name as {@code file:line: name}. The docs also
 * stay short: no file over {@value #MAX_DOC_LINES} lines, README.md and docs/*.md together under
 * {@value #MAX_TOTAL_LINES} lines and {@value #MAX_TOTAL_BYTES} bytes.
 *
 * <p>Where names come from: classes from the modules' sources (main and test, nested types included), the test
 * class path (Hadoop) and the JDK; keys from the string literals of the modules' main sources (each {@code Setting}
 * and key prefix) and conf/*.xml; commands from {@link AdminRequest.Verb}.
 */
class DocNamesTest {
  private static final Path ROOT = Paths.get("..");
  /** A dotted class name in a code span: {@code gear.GearService}, {@code org.apache.hadoop.fs.Path}. */
  private static final Pattern DOTTED_CLASS = Pattern.compile("`((?:[a-z][a-z0-9]*\\.)+[A-Z][A-Za-z0-9]*)`");
  /**
   * A code span that is a CamelCase name, optionally with a member: {@code ReadFloor}, {@code Scenarios.gearsBase}; a
   * one-word name ({@code Total}) counts as a class only with a member.
   */
  private static final Pattern CAMEL_SPAN =
      Pattern.compile("`([A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)*)(?:\\.([A-Za-z_][A-Za-z0-9_]*))?(?:\\(\\))?`");
  /**
   * A setting key: {@code eafr.} or the simulator's {@code sim.} then dotted words, not part of a package, class, path
   * or file name; {@code .*} or {@code .<} after it makes it a family.
   */
  private static final Pattern KEY = Pattern.compile(
      "(?<![\\w./-])((?:eafr|sim)(?:\\.[a-z0-9][a-z0-9-]*)+)(\\.(?:\\*|<))?(?![\\w-]*\\.(?:md|xml|sh|[A-Z]))");
  private static final Pattern KEY_LITERAL = Pattern.compile("\"((?:eafr|sim)\\.[a-z0-9.-]*)\"");
  private static final Pattern XML_NAME = Pattern.compile("<name>(eafr\\.[a-z0-9.-]+)</name>");
  private static final Pattern COMMAND = Pattern.compile("hdfs eafr((?: +(?:-namenode +\\S+|-json|[a-z]+(?:\\|[a-z]+)*))*)");
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  /** A path in the checkout: {@code scripts/demo.sh}, {@code conf/eafr-roles.example}, {@code ../docs/bench}. */
  private static final Pattern REPO_PATH = Pattern.compile(
      "(?<![\\w/.-])(?:\\.\\./)*((?:scripts|conf|docs)/[A-Za-z0-9_./-]*[A-Za-z0-9_])(?!\\w|[*<]|[./-][\\w*<])");
  /** A test class in a code span, as the rows of docs/hadoop-compat.md's table name them. */
  private static final Pattern TEST_CLASS = Pattern.compile("`([A-Z][A-Za-z0-9]*Test)`");
  private static final Pattern PROFILE_TESTS =
      Pattern.compile("<id>hadoop-3\\.5</id>.*?<test>([^<]*)</test>", Pattern.DOTALL);
  static final int MAX_DOC_LINES = 500;
  /** README.md and docs/*.md together: a ceiling that only comes down (run records go under docs/bench/). */
  static final int MAX_TOTAL_LINES = 4_700;
  static final long MAX_TOTAL_BYTES = 440_000;
  private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  /** Names of other systems that look like classes: a Redfish privilege, a JFR event. */
  private static final Set<String> NOT_CLASSES = Set.of("ConfigureComponents", "jdk.Compilation");
  /** Pieces metric names are built from: CamelCase string literals and enum constants in CamelCase (UP_FOR_LOAD). */
  private static final Set<String> NAME_PIECES = new HashSet<>();
  private static final Pattern CAMEL_LITERAL = Pattern.compile("\"([A-Z][A-Za-z0-9]*)\"");
  private static final Pattern CONSTANT = Pattern.compile("\\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\\b");
  /** Credential aliases: names the operator chooses in the power inventory, not settings. */
  private static final String CREDENTIAL_ALIAS_PREFIX = "eafr.bmc.";
  /** Words near a key that make it an example of a refused, misspelled key. */
  private static final Pattern MISSPELLING = Pattern.compile("did you mean|misspel|unknown key");
  private static final Pattern TYPE_DECLARATION =
      Pattern.compile("\\b(?:class|interface|enum|record|@interface)\\s+([A-Z][A-Za-z0-9_]*)");

  /** Fully qualified names of the modules' top-level types, and the source file declaring each simple name. */
  private static final Set<String> SOURCE_CLASSES = new HashSet<>();
  private static final Map<String, Path> SOURCE_OF = new HashMap<>();
  private static final Set<String> OTHER_SIMPLE_NAMES = new HashSet<>();
  /** Every word of the modules' sources: JMX attributes, metric and Redfish names the docs quote are words there. */
  private static final Set<String> SOURCE_WORDS = new HashSet<>();
  private static final Set<String> KEYS = new HashSet<>();
  /** The daemons' {@code eafr.*} keys: string literals in the core's, the NameNode's and the DataNode's main code. */
  private static final Set<String> DAEMON_KEYS = new HashSet<>();
  private static final Set<String> KEY_PREFIXES = new HashSet<>();

  @BeforeAll
  static void indexTheCode() throws IOException {
    try (Stream<Path> modules = Files.list(ROOT)) {
      for (Path module : modules.filter(p -> p.getFileName().toString().startsWith("hadoop-eafr-"))
          .collect(Collectors.toList())) {
        indexSources(module.resolve("src/main/java"), true);
        if (List.of("placement", "namenode", "datanode").contains(module.getFileName().toString()
            .substring("hadoop-eafr-".length()))) {
          KEY_LITERAL.matcher(sourceText(module.resolve("src/main/java"))).results().map(m -> m.group(1))
              .filter(key -> key.startsWith("eafr.") && !key.endsWith(".")
                  && !key.startsWith(CREDENTIAL_ALIAS_PREFIX)).forEach(DAEMON_KEYS::add);
        }
        indexSources(module.resolve("src/test/java"), false);
      }
    }
    try (Stream<Path> xml = Files.list(ROOT.resolve("conf"))) {
      for (Path file : xml.filter(p -> p.toString().endsWith(".xml")).collect(Collectors.toList())) {
        XML_NAME.matcher(Files.readString(file)).results().forEach(m -> KEYS.add(m.group(1)));
      }
    }
    for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      if (entry.endsWith(".jar")) {
        try (ZipFile jar = new ZipFile(entry)) {
          jar.stream().forEach(e -> addClassFile(e.getName()));
        }
      }
    }
    Stream.concat(ConfigurationReference.nameNodeRows().stream(), ConfigurationReference.dataNodeRows().stream())
        .forEach(row -> KEYS.add(row.key));
    FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
    try (Stream<Path> jdk = Files.walk(jrt.getPath("/modules"))) {
      jdk.forEach(p -> addClassFile(p.toString()));
    }
  }

  private static void indexSources(Path sourceRoot, boolean main) throws IOException {
    if (!Files.isDirectory(sourceRoot)) {
      return;
    }
    try (Stream<Path> files = Files.walk(sourceRoot)) {
      for (Path file : files.filter(p -> p.toString().endsWith(".java")).collect(Collectors.toList())) {
        String relative = sourceRoot.relativize(file).toString();
        SOURCE_CLASSES.add(relative.substring(0, relative.length() - ".java".length()).replace(file.getFileSystem()
            .getSeparator(), "."));
        String text = Files.readString(file);
        WORD.matcher(text).results().forEach(m -> SOURCE_WORDS.add(m.group()));
        CAMEL_LITERAL.matcher(text).results().forEach(m -> NAME_PIECES.add(m.group(1)));
        CONSTANT.matcher(text).results().forEach(m -> NAME_PIECES.add(camelCase(m.group())));
        TYPE_DECLARATION.matcher(text).results().forEach(m -> SOURCE_OF.putIfAbsent(m.group(1), file));
        if (main) {
          KEY_LITERAL.matcher(text).results().map(m -> m.group(1))
              .forEach(key -> (key.endsWith(".") ? KEY_PREFIXES : KEYS).add(key));
        }
      }
    }
  }

  private static String sourceText(Path sourceRoot) throws IOException {
    StringBuilder text = new StringBuilder();
    try (Stream<Path> files = Files.walk(sourceRoot)) {
      for (Path file : files.filter(p -> p.toString().endsWith(".java")).collect(Collectors.toList())) {
        text.append(Files.readString(file)).append('\n');
      }
    }
    return text.toString();
  }

  private static void addClassFile(String path) {
    if (path.endsWith(".class")) {
      String name = path.substring(path.lastIndexOf('/') + 1, path.length() - ".class".length());
      OTHER_SIMPLE_NAMES.addAll(Arrays.asList(name.split("\\$")));
    }
  }

  @Test
  void classesNamedInDocs_exist() throws IOException {
    List<String> unknown = new ArrayList<>();
    unknown.addAll(mentions(DOTTED_CLASS, m -> dottedClassExists(m.group(1))));
    unknown.addAll(mentions(CAMEL_SPAN, m -> isOneWord(m.group(1)) && m.group(2) == null
        || camelNameExists(m.group(1), m.group(2))));

    assertThat(unknown).as("class names the docs give in code spans that no module, Hadoop or the JDK has").isEmpty();
  }

  @Test
  void settingKeysNamedInDocs_areDefined() throws IOException {
    assertThat(KEYS).as("keys found in the sources")
        .contains("eafr.min-hot-replicas", "eafr.gear.eafr.read-floor", "sim.springfs.offload-set");

    List<String> unknown = new ArrayList<>();
    for (Path doc : namingDocs()) {
      List<String> lines = Files.readAllLines(doc);
      for (String mention : mentionsIn(doc, KEY, m -> keyExists(m.group(1), m.group(2) != null))) {
        int line = Integer.parseInt(mention.split(":")[1]) - 1;
        String near = String.join(" ", lines.subList(Math.max(0, line - 1), Math.min(lines.size(), line + 2)));
        if (!MISSPELLING.matcher(near).find()) {
          unknown.add(mention);
        }
      }
    }

    assertThat(unknown).as("eafr.* and sim.* keys the docs name that no Setting, key prefix or conf/*.xml defines")
        .isEmpty();
  }

  @Test
  void everyDaemonKey_hasItsRowInConfigurationMd() throws IOException {
    Set<String> rows = Pattern.compile("(?m)^\\| `(eafr\\.[a-z0-9.-]+)`").matcher(
        Files.readString(ROOT.resolve("docs/configuration.md"))).results().map(m -> m.group(1))
        .collect(Collectors.toSet());

    assertThat(DAEMON_KEYS).as("keys found in the sources").contains("eafr.interval.ms", "eafr.layout");
    assertThat(DAEMON_KEYS).as("keys the daemons read that docs/configuration.md has no row for")
        .isSubsetOf(rows);
  }

  @Test
  void hdfsEafrCommandsInDocs_exist() throws IOException {
    List<String> unknown = mentions(COMMAND, m -> commandExists(m.group(1).trim()));

    assertThat(unknown).as("hdfs eafr commands the docs name that AdminRequest.Verb does not have").isEmpty();
  }

  @Test
  void pathsNamedInDocs_exist() throws IOException {
    List<String> unknown = mentions(REPO_PATH, m -> Files.exists(ROOT.resolve(m.group(1))));

    assertThat(unknown).as("scripts, conf/ and docs/ paths the docs name that the checkout does not have").isEmpty();
  }

  @Test
  void hadoopCompat_listsExactlyTheTestClassesTheHadoop35ProfileRuns() throws IOException {
    Matcher profile = PROFILE_TESTS.matcher(Files.readString(ROOT.resolve("pom.xml")));
    Set<String> run = profile.find() ? Set.of(profile.group(1).trim().split("\\s*,\\s*")) : Set.of();
    String compat = Files.readString(ROOT.resolve("docs/hadoop-compat.md"));
    String section = compat.substring(Math.max(0, compat.indexOf("## Hadoop 3.5.0")));
    Set<String> listed = section.lines().filter(line -> line.startsWith("|"))
        .flatMap(row -> TEST_CLASS.matcher(row).results().map(m -> m.group(1))).collect(Collectors.toSet());

    assertThat(listed).as("test classes docs/hadoop-compat.md says run against Hadoop 3.5.0 (pom.xml, hadoop-3.5)")
        .isEqualTo(run);
  }

  @Test
  void docsStayShort() throws IOException {
    List<String> tooLong = new ArrayList<>();
    int total = 0;
    long bytes = 0;
    for (Path doc : docs()) {
      int lines = Files.readAllLines(doc).size();
      if (lines > MAX_DOC_LINES) {
        tooLong.add(ROOT.relativize(doc) + ": " + lines + " lines");
      }
      if (doc.getParent().equals(ROOT) || doc.getParent().equals(ROOT.resolve("docs"))) {
        total += lines;
        bytes += Files.size(doc);
      }
    }

    assertThat(tooLong).as("docs over " + MAX_DOC_LINES + " lines: split them by subject").isEmpty();
    assertThat(total).as("lines of README.md and docs/*.md together").isLessThan(MAX_TOTAL_LINES);
    assertThat(bytes).as("bytes of README.md and docs/*.md together").isLessThan(MAX_TOTAL_BYTES);
  }

  @Test
  void relativeLinksInDocs_resolve() throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path doc : docs()) {
      broken.addAll(mentionsIn(doc, LINK, m -> linkResolves(doc, m.group(1))));
    }

    assertThat(broken).as("relative links to a file that does not exist, or to a heading it does not have").isEmpty();
  }

  @Test
  void camelSpan_takesAClassAndItsMember_andLeavesConstantsAlone() {
    Matcher member = CAMEL_SPAN.matcher("`Scenarios.gearsBase`");
    assertThat(member.matches()).isTrue();
    assertThat(member.group(1)).isEqualTo("Scenarios");
    assertThat(member.group(2)).isEqualTo("gearsBase");
    assertThat(CAMEL_SPAN.matcher("`IN_MAINTENANCE`").matches()).isFalse();
    assertThat(REPO_PATH.matcher("see ../scripts/lib/demo-host.sh, /etc/hadoop/conf/x, conf/*.xml").results()
        .map(m -> m.group(1))).containsExactly("scripts/lib/demo-host.sh");
    assertThat(camelNameExists("Scenarios", "noSuchMethodAnywhere")).isFalse();
    assertThat(anchors("# Title\n## A `code` heading, with: punctuation\n## A `code` heading, with: punctuation\n"))
        .containsExactlyInAnyOrder("title", "a-code-heading-with-punctuation", "a-code-heading-with-punctuation-1");
  }

  private static List<String> mentions(Pattern pattern, Predicate<Matcher> exists) throws IOException {
    List<String> unknown = new ArrayList<>();
    for (Path doc : namingDocs()) {
      unknown.addAll(mentionsIn(doc, pattern, exists));
    }
    return unknown;
  }

  /** Each match of {@code pattern} in {@code doc} that does not exist, as {@code file:line: text}. */
  private static List<String> mentionsIn(Path doc, Pattern pattern, Predicate<Matcher> exists) throws IOException {
    List<String> lines = Files.readAllLines(doc);
    List<String> unknown = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = pattern.matcher(lines.get(i));
      while (m.find()) {
        if (!exists.test(m)) {
          unknown.add(ROOT.relativize(doc) + ":" + (i + 1) + ": " + m.group());
        }
      }
    }
    return unknown;
  }

  /** README.md, docs/*.md and docs/*&#47;*.md, without the run records of docs/bench/. */
  private static List<Path> docs() throws IOException {
    List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    try (Stream<Path> files = Files.walk(ROOT.resolve("docs"), 2)) {
      files.filter(p -> p.toString().endsWith(".md") && !p.startsWith(ROOT.resolve("docs/bench"))).sorted()
          .forEach(docs::add);
    }
    return docs;
  }

  /** The docs and the release tarball's README, whose links point into the tarball, so only its names are checked. */
  private static List<Path> namingDocs() throws IOException {
    List<Path> docs = docs();
    docs.add(ROOT.resolve("hadoop-eafr-dist/src/main/tarball/README.md"));
    return docs;
  }

  private static boolean isOneWord(String camel) {
    return camel.chars().skip(1).noneMatch(Character::isUpperCase);
  }

  /** UP_FOR_LOAD as UpForLoad, COLD as Cold. */
  private static String camelCase(String constant) {
    StringBuilder camel = new StringBuilder();
    for (String part : constant.split("_")) {
      if (!part.isEmpty()) {
        camel.append(part.charAt(0)).append(part.substring(1).toLowerCase(Locale.ROOT));
      }
    }
    return camel.toString();
  }

  private boolean dottedClassExists(String name) {
    if (NOT_CLASSES.contains(name)) {
      return true;
    }
    if (SOURCE_CLASSES.contains(name) || SOURCE_CLASSES.stream().anyMatch(c -> c.endsWith("." + name))) {
      return true;
    }
    try {
      Class.forName(name, false, getClass().getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /**
   * A simple class name that exists; a member of one of the modules' classes must appear in its source (unless Hadoop
   * or the JDK has a class of that name too, like {@code Server}).
   */
  private static boolean camelNameExists(String name, String member) {
    Path source = SOURCE_OF.get(name);
    if (source == null) {
      return NOT_CLASSES.contains(name) || OTHER_SIMPLE_NAMES.contains(name) || SOURCE_WORDS.contains(name)
          || isMetricName(name);
    }
    try {
      return member == null || OTHER_SIMPLE_NAMES.contains(name) || Pattern.compile("\\b" + member + "\\b").matcher(Files.readString(source)).find();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A metric attribute: a name the sources build from two pieces ({@code GearAutoDecisions} + {@code UpForLoad},
   * {@code Cold} + {@code Nodes}), counters with Prometheus' {@code Total} after it.
   */
  private static boolean isMetricName(String name) {
    String base = name.endsWith("Total") ? name.substring(0, name.length() - "Total".length()) : name;
    if (SOURCE_WORDS.contains(base) || NAME_PIECES.contains(base)) {
      return true;
    }
    for (int i = 1; i < base.length(); i++) {
      if (Character.isUpperCase(base.charAt(i)) && NAME_PIECES.contains(base.substring(0, i))
          && NAME_PIECES.contains(base.substring(i))) {
        return true;
      }
    }
    return false;
  }

  /** A key, or a family written with a placeholder ({@code eafr.gear.*}, {@code eafr.power.<host>}). */
  private static boolean keyExists(String key, boolean family) {
    if (KEYS.contains(key) || KEY_PREFIXES.contains(key + ".") || key.startsWith(CREDENTIAL_ALIAS_PREFIX)) {
      return true;
    }
    String prefix = key + ".";
    return family && Stream.concat(KEYS.stream(), KEY_PREFIXES.stream()).anyMatch(k -> k.startsWith(prefix));
  }

  /** The words after {@code hdfs eafr}: no words (the tool itself), or a command's words, alternatives with '|'. */
  private static boolean commandExists(String words) {
    List<String> operands = Arrays.stream(words.split(" +")).filter(w -> !w.isEmpty())
        .filter(w -> !w.startsWith("-")).collect(Collectors.toList());
    if (words.contains("-namenode")) {
      operands = operands.subList(Math.min(1, operands.size()), operands.size());
    }
    if (operands.isEmpty()) {
      return true;
    }
    List<String> commands = Arrays.stream(AdminRequest.Verb.values()).map(AdminRequest.Verb::words)
        .collect(Collectors.toList());
    for (String first : operands.get(0).split("\\|")) {
      List<String> starting = commands.stream().filter(c -> c.split(" ")[0].equals(first))
          .collect(Collectors.toList());
      if (starting.isEmpty()) {
        return false;
      }
      boolean oneWord = starting.contains(first);
      if (!oneWord && operands.size() > 1) {
        for (String second : operands.get(1).split("\\|")) {
          if (!starting.contains(first + " " + second)) {
            return false;
          }
        }
      }
    }
    return true;
  }

  private static boolean linkResolves(Path doc, String link) {
    if (link.matches("^[a-z]+:.*")) {
      return true;
    }
    int hash = link.indexOf('#');
    String file = hash < 0 ? link : link.substring(0, hash);
    Path target = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
    if (!Files.exists(target)) {
      return false;
    }
    if (hash < 0 || !target.toString().endsWith(".md")) {
      return true;
    }
    try {
      return anchors(Files.readString(target)).contains(link.substring(hash + 1));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** GitHub's anchors for the headings of a Markdown text (outside code blocks), numbered when repeated. */
  static Set<String> anchors(String markdown) {
    Set<String> anchors = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean inCode = false;
    for (String line : markdown.split("\n")) {
      if (line.startsWith("```")) {
        inCode = !inCode;
      }
      if (inCode || !line.matches("#{1,6} .*")) {
        continue;
      }
      String slug = line.replaceFirst("^#+ ", "").trim().toLowerCase(Locale.ROOT)
          .replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
      int n = seen.merge(slug, 1, Integer::sum);
      anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
    }
    return anchors;
  }
}
