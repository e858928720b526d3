package org.eafr.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Installs the release tarball into a Hadoop 3.4 layout with the steps docs/operations.md gives (the test runs that
 * document's install block itself), then starts a real NameNode and DataNode from the layout with the tarball's
 * example configuration and asks the NameNode with {@code hdfs eafr status}.
 *
 * <p>What is real: the tarball, the install commands, the layout (Hadoop's own jars from Maven, placed where the
 * binary distribution puts them), the NameNode and DataNode processes with the EAFR plugins loaded from
 * share/hadoop/hdfs/lib, the shell profile and the AdminTool over RPC. What is not: bin/hdfs is the project's
 * stand-in (src/test/hadoop-launcher/hdfs), because Hadoop's shell scripts ship only in the Apache binary tarball,
 * which no registry this build may use carries (docs/operations.md, "What the install test covers").
 */
class TarballInstallIT {
  private static final Duration STARTUP = Duration.ofSeconds(120);
  private static final List<String> EAFR_JARS = List.of("hadoop-eafr-datanode", "hadoop-eafr-namenode",
      "hadoop-eafr-placement", "jna");

  private final Path work = Paths.get("target", "install-it").toAbsolutePath();
  private final String version = System.getProperty("eafr.hadoop.version");
  private final Path hadoopHome = work.resolve("hadoop-" + version);
  private final List<Process> daemons = new ArrayList<>();

  @AfterEach
  void stopDaemons() throws InterruptedException {
    for (Process daemon : daemons) {
      daemon.destroy();
    }
    for (Process daemon : daemons) {
      if (!daemon.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
        daemon.destroyForcibly().waitFor();
      }
    }
  }

  @Test
  void tarballInstalledPerOperationsGuide_runsInNameNodeAndDataNode_andHdfsEafrStatusAnswers() throws Exception {
    ShellRun.deleteTree(work);
    HadoopLayout.assemble(hadoopHome, Paths.get(System.getProperty("eafr.hadoop.layout.cp")));
    Path tarball = Paths.get(System.getProperty("eafr.tarball"));
    Files.createSymbolicLink(work.resolve(tarball.getFileName()), tarball);

    ShellRun install = ShellRun.bash(work, installSteps(), Map.of("HADOOP_HOME", hadoopHome.toString()));

    assertThat(install.exitCode()).as("install steps of docs/operations.md:%n%s", install.output()).isZero();
    assertThat(jarsIn(hadoopHome.resolve("share/hadoop/hdfs/lib"))).containsExactlyElementsOf(EAFR_JARS);
    assertThat(hdfs("classpath").output()).contains(hadoopHome.resolve("share/hadoop/hdfs/lib") + "/*");
    assertThat(hdfs("--help").output()).as("the shell profile registered the subcommand")
        .containsPattern("(?m)^\\s+eafr\\s+admin\\s+EAFR: ");

    Path unpacked = work.resolve(System.getProperty("eafr.tarball.root"));
    for (String file : List.of("LICENSE", "README.md", "libexec/shellprofile.d/hadoop-eafr.sh",
        "conf/hdfs-site.eafr.xml", "conf/hdfs-site.eafr-datanode.xml", "conf/eafr-roles.example",
        "conf/eafr-power-inventory.example.json", "conf/eafr-bmc-credentials.example.sh", "conf/dfs.hosts.example.json",
        "docs/operations.md", "docs/configuration.md", "docs/architecture.md", "docs/settings.md")) {
      assertThat(unpacked.resolve(file)).as("the tarball carries %s", file).isRegularFile();
    }
    try (Stream<Path> docs = Files.list(unpacked.resolve("docs"))) {
      assertThat(docs.map(p -> p.getFileName().toString())).as("operator docs only: no charts, tables or run records")
          .allMatch(name -> name.endsWith(".md")).noneMatch(name -> name.startsWith("evaluation"));
    }
    LocalCluster cluster = LocalCluster.configure(hadoopHome.resolve("etc/hadoop"), work, unpacked.resolve("conf"));
    ShellRun format = hdfs("namenode", "-format", "-force", "-nonInteractive");
    assertThat(format.exitCode()).as(format.output()).isZero();
    daemons.add(start("namenode"));
    daemons.add(start("datanode"));

    ShellRun status = pollStatus(cluster.dataNodeTransferAddress());

    assertThat(status.output())
        .contains("NameNode localhost/127.0.0.1:" + cluster.nameNodeRpcPort() + " (active)")
        .contains("roles file " + cluster.rolesFile())
        .containsPattern("(?m)^127\\.0\\.0\\.1:" + cluster.dataNodeTransferPort()
            + "\\s+\\S+\\s+\\S+\\s+HOT\\s+\\S+\\s+ON\\s+NORMAL\\s+yes"); // DATANODE HOST RACK ROLE GEAR POWER
    assertThat(log("namenode")).contains("EAFR replication monitor started");
    assertThat(log("datanode")).contains("EAFR receive rate control on: c_b = 1250000000 bytes/s");
  }

  /** The install block of docs/operations.md, VERSION replaced. */
  private static String installSteps() throws IOException {
    return InstallSteps.fromOperationsGuide().replace("VERSION",
        System.getProperty("eafr.tarball.root").replace("hadoop-eafr-", ""));
  }

  private static List<String> jarsIn(Path dir) throws IOException {
    try (Stream<Path> jars = Files.list(dir)) {
      return jars.map(jar -> jar.getFileName().toString().replaceFirst("-[0-9][^-]*(-SNAPSHOT)?\\.jar$", ""))
          .sorted().collect(Collectors.toList());
    }
  }

  private ShellRun hdfs(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(hadoopHome.resolve("bin/hdfs").toString()));
    command.addAll(List.of(args));
    return ShellRun.run(work, command, clientEnvironment());
  }

  private Map<String, String> clientEnvironment() {
    return Map.of("HADOOP_ROOT_LOGGER", "WARN,console", "HDFS_EAFR_OPTS", "-Xmx128m", "HADOOP_OPTS",
        "-Djava.net.preferIPv4Stack=true -Xmx256m");
  }

  private Process start(String daemon) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(hadoopHome.resolve("bin/hdfs").toString(), daemon)
        .directory(work.toFile()).redirectErrorStream(true)
        .redirectOutput(work.resolve(daemon + ".log").toFile());
    builder.environment().put("HADOOP_OPTS", "-Djava.net.preferIPv4Stack=true -Xmx256m");
    return builder.start();
  }

  private String log(String daemon) throws IOException {
    return Files.readString(work.resolve(daemon + ".log"), StandardCharsets.UTF_8);
  }

  /** Asks {@code hdfs eafr status} until the DataNode shows alive, or fails with the last answer and the logs. */
  private ShellRun pollStatus(String dataNode) throws Exception {
    long deadline = System.nanoTime() + STARTUP.toNanos();
    ShellRun status;
    do {
      status = hdfs("eafr", "status");
      // the DataNode's row of the nodes table, admin state NORMAL and alive, whatever columns come between
      if (status.exitCode() == 0 && status.output().matches("(?s).*\\n" + dataNode.replace(".", "\\.")
          + "\\s[^\\n]*\\sNORMAL\\s+yes\\s.*")) {
        return status;
      }
      for (Process daemon : daemons) {
        assertThat(daemon.isAlive()).as("daemon exited; namenode.log:%n%s%ndatanode.log:%n%s", log("namenode"),
            log("datanode")).isTrue();
      }
      Thread.sleep(1000);
    } while (System.nanoTime() < deadline);
    throw new AssertionError("hdfs eafr status never showed " + dataNode + " alive within " + STARTUP
        + "; last answer (exit " + status.exitCode() + "):\n" + status.output() + "\nnamenode.log:\n"
        + log("namenode"));
  }
}
