package org.eafr.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code DemoSetup STATE_DIR REPO_DIR SUSHY_VENV [--settings FILE] [--set KEY=VALUE]...}: checks the settings, plans the
 * hosts and ports, and writes the whole demo's configuration under STATE_DIR (scripts/demo.sh runs it before any
 * daemon). A bad setting prints one line naming the key, the value and what is allowed, writes nothing and exits 2.
 */
public final class DemoSetup {
  private DemoSetup() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 1 && args[0].equals("--help")) {
      System.out.println("The demo's settings (--set KEY=VALUE or a --settings file of KEY=VALUE lines; any other KEY"
          + " goes into the cluster's hdfs-site.xml):");
      DemoSettings.help().forEach(System.out::println);
      return;
    }
    if (args.length >= 1 && args[0].equals("--check")) {
      check(List.of(args).subList(1, args.length));
      return;
    }
    if (args.length < 3) {
      System.err.println("usage: DemoSetup STATE_DIR REPO_DIR SUSHY_VENV [--settings FILE] [--set KEY=VALUE]...");
      System.exit(2);
    }
    DemoState state = new DemoState(Paths.get(args[0]));
    Path root = Paths.get(args[1]).toAbsolutePath();
    Path sushyVenv = Paths.get(args[2]);
    DemoSettings settings = settings(List.of(args).subList(3, args.length));
    write(state, root, sushyVenv, settings);
  }

  /** {@code --check [--settings FILE] [--set KEY=VALUE]...}: only the settings; exits 2 naming a bad one. */
  private static void check(List<String> args) throws IOException {
    settings(args);
  }

  private static DemoSettings settings(List<String> args) throws IOException {
    Path overrides = null;
    List<String> sets = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i).equals("--settings") && i + 1 < args.size()) {
        overrides = Paths.get(args.get(++i));
      } else if (args.get(i).equals("--set") && i + 1 < args.size()) {
        sets.add(args.get(++i));
      } else {
        System.err.println("demo: unknown argument '" + args.get(i) + "'");
        System.exit(2);
      }
    }
    try {
      if (overrides != null && !Files.isReadable(overrides)) {
        throw new IllegalArgumentException("--settings " + overrides + " is not a readable file");
      }
      return DemoSettings.load(overrides, sets);
    } catch (IllegalArgumentException e) {
      System.err.println("demo: " + e.getMessage());
      System.exit(2);
      return null;
    }
  }

  private static void write(DemoState state, Path root, Path sushyVenv, DemoSettings settings) throws Exception {
    // Below Linux's ephemeral range (32768-60999): a port found free here must not be taken meanwhile by some
    // process's outgoing connection, or the daemon given it would die of "Address already in use".
    Ports ports = new Ports(20000 + ThreadLocalRandom.current().nextInt(12000));
    Properties plan = new Properties();
    plan.setProperty("nn.rpc", String.valueOf(ports.tcp()));
    plan.setProperty("nn.http", String.valueOf(ports.tcp()));
    DemoHosts hosts = DemoHosts.plan(settings, ports);
    plan.setProperty("notifier.port", String.valueOf(ports.tcp()));
    plan.setProperty("wol.port", String.valueOf(ports.udp()));
    plan.setProperty("root", root.toString());
    plan.setProperty("sushy.venv", sushyVenv.toString());
    plan.setProperty("gear.primaries", settings.get("demo.gear.primaries"));
    plan.setProperty("gear.group-size", settings.get("demo.gear.group-size"));
    plan.setProperty("heap", settings.get("demo.heap"));
    state.save(plan, hosts);
    Files.write(state.dir().resolve("settings.txt"), settings.describe());
    new ClusterConfig(state, hosts, settings, plan, root).write();
    new BmcFiles(state, hosts, plan, root, sushyVenv).write();
    for (DemoHosts.Host host : hosts.hosts()) {
      System.out.printf("%s %s %s chain %d gear-group %d %s%n", host.name(), host.id(), host.rack(),
          host.chainPosition(), host.gearGroup(), host.driver().inventoryName());
    }
  }
}
