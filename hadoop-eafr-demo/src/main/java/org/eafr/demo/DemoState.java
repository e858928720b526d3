package org.eafr.demo;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Where the demo keeps its files (one state directory, {@code target/demo} by default) and the plan every process of
 * the demo reads back: {@code demo.properties} (the NameNode's ports, the listeners' ports, the repository) and
 * {@code hosts.tsv} (one host per line).
 */
public final class DemoState {
  private final Path dir;

  public DemoState(Path dir) {
    this.dir = dir.toAbsolutePath();
  }

  public Path dir() {
    return dir;
  }

  public Path conf() {
    return dir.resolve("conf");
  }

  public Path dataNodeConf(DemoHosts.Host host) {
    return dir.resolve("dn" + host.index()).resolve("conf");
  }

  public Path bmc(DemoHosts.Host host) {
    return dir.resolve("bmc").resolve("dn" + host.index());
  }

  public Path logs() {
    return dir.resolve("logs");
  }

  /** One line per power event a simulated BMC passed to its host: {@code MILLIS DRIVER HOST on|off [detail]}. */
  public Path powerEvents() {
    return dir.resolve("bmc").resolve("events.log");
  }

  /** The shell's host switch: {@code demo-host.sh STATE INDEX start|stop|...}. */
  public static Path hostScript(Path root) {
    return root.resolve("scripts").resolve("lib").resolve("demo-host.sh");
  }

  public void save(Properties plan, DemoHosts hosts) throws IOException {
    Files.createDirectories(dir);
    try (Writer out = Files.newBufferedWriter(dir.resolve("demo.properties"), StandardCharsets.UTF_8)) {
      plan.store(out, "written by org.eafr.demo.DemoSetup");
    }
    List<String> lines = new ArrayList<>();
    lines.add("# index name rack xferPort ipcPort httpPort chainPosition gearGroup driver bmcPort");
    for (DemoHosts.Host h : hosts.hosts()) {
      lines.add(String.join("\t", String.valueOf(h.index()), h.name(), h.rack(), String.valueOf(h.xferPort()),
          String.valueOf(h.ipcPort()), String.valueOf(h.httpPort()), String.valueOf(h.chainPosition()),
          String.valueOf(h.gearGroup()), h.driver().name(), String.valueOf(h.bmcPort())));
    }
    Files.write(dir.resolve("hosts.tsv"), lines, StandardCharsets.UTF_8);
  }

  public Properties plan() throws IOException {
    Properties plan = new Properties();
    Path file = dir.resolve("demo.properties");
    if (!Files.exists(file)) {
      throw new IOException("no demo in " + dir + ": run scripts/demo.sh run first");
    }
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      plan.load(in);
    }
    return plan;
  }

  public DemoHosts hosts() throws IOException {
    Properties plan = plan();
    List<DemoHosts.Host> hosts = new ArrayList<>();
    for (String line : Files.readAllLines(dir.resolve("hosts.tsv"), StandardCharsets.UTF_8)) {
      if (line.startsWith("#") || line.isBlank()) {
        continue;
      }
      String[] f = line.split("\t");
      hosts.add(new DemoHosts.Host(Integer.parseInt(f[0]), f[1], f[2], Integer.parseInt(f[3]),
          Integer.parseInt(f[4]), Integer.parseInt(f[5]), Integer.parseInt(f[6]), Integer.parseInt(f[7]),
          DemoHosts.Driver.valueOf(f[8]), Integer.parseInt(f[9])));
    }
    return new DemoHosts(hosts, Integer.parseInt(plan.getProperty("gear.primaries")),
        Integer.parseInt(plan.getProperty("gear.group-size")));
  }
}
