package org.eafr.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.eafr.namenode.config.NamenodeSettings;
import org.eafr.placement.gear.eafr.ReadFloor;
import org.eafr.placement.gear.layout.EqualWorkShares;
import org.eafr.placement.gear.policy.GearedPolicies;

/**
 * The Hadoop configuration of the demo cluster: {@code core-site.xml} and {@code hdfs-site.xml} of the NameNode (and
 * clients), one {@code hdfs-site.xml} per DataNode, the JSON hosts file and the roles file, written by {@link SiteFiles}
 * as for {@code scripts/local-cluster.sh}. The NameNode's hdfs-site starts from {@code conf/hdfs-site.eafr.xml} exactly
 * as an operator merges it, then sets the gears, the power manager and test-speed knobs, then the user's overrides
 * ({@code --set} keys that are not {@code demo.*}).
 */
final class ClusterConfig {
  private final DemoState state;
  private final DemoHosts hosts;
  private final DemoSettings settings;
  private final Properties plan;
  private final Path root;
  private final int burst;

  ClusterConfig(DemoState state, DemoHosts hosts, DemoSettings settings, Properties plan, Path root)
      throws IOException {
    this.state = state;
    this.hosts = hosts;
    this.settings = settings;
    this.plan = plan;
    this.root = root;
    this.burst = ReplayPlan.of(settings).largestBurst(settings.integer("demo.clients"));
  }

  void write() throws IOException {
    Path conf = state.conf();
    Files.createDirectories(conf);
    SiteFiles.write(coreSite(), conf.resolve("core-site.xml"));
    Configuration nameNode = nameNodeSite();
    SiteFiles.write(nameNode, conf.resolve("hdfs-site.xml"));
    Files.writeString(conf.resolve("log4j.properties"), log4j());
    List<Integer> transferPorts = new ArrayList<>();
    hosts.hosts().forEach(host -> transferPorts.add(host.xferPort()));
    Files.write(conf.resolve("dfs.hosts.json"), SiteFiles.hostsFile(transferPorts));
    Files.write(conf.resolve("eafr-roles"), roles());
    for (DemoHosts.Host host : hosts.hosts()) {
      Path dir = state.dataNodeConf(host);
      Files.createDirectories(dir);
      Files.createDirectories(dir.getParent().resolve("data"));
      Files.copy(conf.resolve("core-site.xml"), dir.resolve("core-site.xml"),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      Files.copy(conf.resolve("log4j.properties"), dir.resolve("log4j.properties"),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      SiteFiles.write(dataNodeSite(nameNode, host), dir.resolve("hdfs-site.xml"));
    }
  }

  private Configuration coreSite() {
    Map<String, String> racks = new LinkedHashMap<>();
    hosts.hosts().forEach(host -> racks.put(host.name(), host.rack()));
    return SiteFiles.coreSite(Integer.parseInt(plan.getProperty("nn.rpc")), state.dir().resolve("tmp"), racks);
  }

  private Configuration nameNodeSite() {
    Configuration site = SiteFiles.eafrNameNodeSite(root);
    Path conf = state.conf();
    site.set("dfs.hosts", conf.resolve("dfs.hosts.json").toString());
    site.set("eafr.roles.file", conf.resolve("eafr-roles").toString());
    // All DataNodes share one disk here: a reserve could turn every one cold at once.
    site.set("eafr.storage-reserve.bytes", "0");
    site.set("eafr.layout", settings.policy());
    site.set("eafr.gear.primaries", settings.get("demo.gear.primaries"));
    site.set("eafr.gear.group-size", settings.get("demo.gear.group-size"));
    site.set("eafr.gear.replicas", "3");
    site.set("eafr.gear.expected-datanodes", settings.get("demo.datanodes"));
    site.set("eafr.gear.step.ms", "1000");
    // Reflection moves the night's writes home after a gear-up; at 32 moves a step it took minutes on a loaded
    // machine, and the next shift waits for it.
    site.set("eafr.gear.reflection.blocks-per-step", "256");
    // Relayout (the thrash test's relayout round) walks the demo's several hundred files in quick steps of 128 files
    // (a NameNode restart falls between batches), 4 moves per DataNode. Its few hundred 1 MiB blocks make one block
    // several per cent of a DataNode's share, so the default share slack of 0.1 would move replicas a namespace of
    // thousands keeps in place.
    site.set("eafr.relayout.step.ms", "250");
    site.set("eafr.relayout.batch-files", "128");
    site.set("eafr.relayout.moves.per-datanode", "4");
    site.set("eafr.relayout.share-slack", "0.5");
    site.set("eafr.power.inventory.file", conf.resolve("power-inventory.json").toString());
    site.set("hadoop.security.credential.provider.path", BmcFiles.credentialProviderUri(state));
    site.set("eafr.power.redfish.truststore", BmcFiles.truststore(state).toString());
    site.set("eafr.power.redfish.truststore.type", "PKCS12");
    site.set("eafr.power.redfish.truststore.password.alias", BmcFiles.TRUSTSTORE_ALIAS);
    // Simulated BMCs answer at once; keep the manager's spacing and polls short so shifts fit a 10-minute replay.
    site.set("eafr.power.min-command-interval.ms", "500");
    site.set("eafr.power.poll.initial.ms", "500");
    site.set("eafr.power.poll.max.ms", "2000");
    site.set("eafr.power.state-timeout.ms", "120000");
    // A demo host "boots" in a DataNode start of 7-11 s; a resend each second keeps a lost magic packet's cost small
    // beside that (a resend to a host already starting is a no-op, as on a real NIC).
    site.set("eafr.power.wol.resend-interval.ms", "1000");
    // Test speed: 1 MiB blocks, 1 s heartbeats, a DataNode dead after 2 x 3 s + 10 x 1 s = 16 s (the WoL host is
    // seen off once its DataNode is dead).
    SiteFiles.quickCluster(site);
    site.set("dfs.replication", "3");
    site.set("dfs.namenode.heartbeat.recheck-interval", "3000");
    site.set("dfs.namenode.replication.max-streams", "20");
    // HDFS's load check refuses a DataNode with more than twice the average xceivers: on 9 idle DataNodes sharing one
    // machine, one write in flight is "twice the average", and a primary refused so loses the block's primary replica
    // (gear 0 is then refused). The layout already spreads the work evenly (docs/demo.md).
    site.set("dfs.namenode.redundancy.considerLoad", "false");
    SiteFiles.nameNode(site, Integer.parseInt(plan.getProperty("nn.rpc")),
        Integer.parseInt(plan.getProperty("nn.http")), state.dir().resolve("nn"));
    autoGears(site, settings.longValue("demo.duration.s"));
    policySettings(site);
    for (Map.Entry<String, String> override : settings.hadoopOverrides().entrySet()) {
      site.set(override.getKey(), override.getValue());
    }
    return site;
  }

  /**
   * The roles file: with gears every DataNode is hot (the gears, not EAFR's standby role, decide which sleep); with the
   * random layout the hosts after the primaries, the WoL and the Redfish hosts in the chain (the last IPMI hosts,
   * dn6-dn8 by default) are standby.
   */
  List<String> roles() {
    if (settings.geared()) {
      return List.of("# every DataNode hot: the gears, not EAFR's standby role, decide which DataNodes sleep",
          "unlisted hot");
    }
    StringBuilder standby = new StringBuilder("standby");
    for (DemoHosts.Host host : coldHosts()) {
      standby.append(' ').append(host.id());
    }
    return List.of("# the random layout: the standby servers turn cold at once (storage reserve) and sleep",
        standby.toString(), "unlisted hot");
  }

  private List<DemoHosts.Host> coldHosts() {
    int awake = hosts.primaries() + settings.integer("demo.wol-hosts") + settings.integer("demo.redfish-hosts");
    return hosts.hosts().stream().filter(host -> host.chainPosition() >= awake).toList();
  }

  /**
   * What each policy needs on 9 DataNodes. Accordion: a lowest group of p servers (the equal-work layout's gear 0)
   * and growth 1, so groups of 3, 3, 3 give gears 0-2 (growth 2 would give 3 and 6: one step). eafr-geared: a read
   * floor only when the replay's bursts would queue without one ({@link #readFloorFor}; then the smallest the layout
   * can build, {@link #readFloorShare}: 6 of 9 servers, and the controller never runs below gear 3); the default
   * replay's bursts of at most 3 reads need none, so its gears are 0..6 as rabbit's. Random: the standby hosts ({@link #roles}) turn
   * cold at the monitor's first round (a storage reserve of 1 PiB, Eq. 8: every disk "nearly full") and their hosts
   * are switched off through the power manager (docs/cold-sleep.md); the monitor runs every 10 s.
   */
  private void policySettings(Configuration site) {
    String policy = settings.policy();
    if (policy.equals(GearedPolicies.ACCORDION.name())) {
      site.set("eafr.gear.accordion.lowest-group", settings.get("demo.gear.primaries"));
      site.set("eafr.gear.accordion.growth", "1.0");
    } else if (policy.equals(GearedPolicies.EAFR_GEARED.name())) {
      int slots = NamenodeSettings.SERVICE_CAPACITY.read(settings.hadoopOverrides()::get);
      site.set("eafr.gear.eafr.read-floor", readFloorFor(burst, slots) ? readFloorShare(
          settings.integer("demo.datanodes"), settings.integer("demo.gear.primaries"),
          settings.integer("demo.gear.group-size")) : "0.0");
    } else if (!settings.geared()) {
      site.set("eafr.storage-reserve.bytes", String.valueOf(1L << 50));
      site.set("eafr.cold.power-off", "true");
      site.set("eafr.cold.step.ms", "1000");
      site.set("eafr.interval.ms", "10000");
    }
  }

  /**
   * Whether a read floor shortens this load's reads, so that an operator would pay for its servers: the floor keeps
   * all r = 3 replicas of a file awake, and a burst of M reads of one file over a awake replicas of c read slots each
   * takes L(M, a) ({@link ReadFloor#burstMeanMillis}), which falls with a only when the burst fills one replica's
   * slots: L(M, 1) = L(M, 3) = t for M &lt;= c. Example: the default replay's largest burst is 4 reads
   * ({@link ReplayPlan#largestBurst}: a job's at most 3 map tasks, two jobs drawing one file at one instant, 4 client
   * threads) against c = 64 slots: no floor, so eafr-geared gears down to gear 0 as the other geared policies do. The simulator's gears scenario (bursts of up to 1,000 map tasks, c = 15)
   * needs one: L(1000, 1) = 169.2 ms against L(1000, 3) = 58.1 ms at t = 5 ms.
   */
  static boolean readFloorFor(int burst, int slots) {
    return ReadFloor.burstMeanMillis(burst, 1, slots, 1.0) > ReadFloor.burstMeanMillis(burst, 3, slots, 1.0);
  }

  /**
   * The share of the smallest read floor the layout can build: n_L servers, at least p + (r - 1) g, whose gear groups
   * past the primaries hold the equal-work shares ({@link EqualWorkShares} refuses fewer: on 9 DataNodes with p = 3,
   * g = 1, r = 3, two groups would need each block twice in the first, so n_L = 6). Written as (n_L - 1/2) / N, which
   * {@code ReadFloor.of} rounds up to n_L.
   */
  static String readFloorShare(int dataNodes, int primaries, int groupSize) {
    int servers = primaries + 2 * groupSize;
    while (servers < dataNodes && !buildable(primaries, groupSize, (servers - primaries) / groupSize)) {
      servers += groupSize;
    }
    return String.format(Locale.ROOT, "%.6f", (servers - 0.5) / dataNodes);
  }

  private static boolean buildable(int primaries, int groupSize, int groups) {
    try {
      EqualWorkShares.of(primaries, groupSize, 3, groups);
      return true;
    } catch (IllegalArgumentException tooFew) {
      return false;
    }
  }

  /**
   * The gear controller sized to this demo (docs/demo.md, "Auto mode"): the trace's busiest night minutes ask about
   * 3.6 opens/s and 1.4 MB/s of replicas written, its peak 6-7.6 opens/s and 2.5-3 MB/s (20 s windows). One
   * DataNode counted as 2 opens/s or 0.7 MB/s keeps the night within gear 0 (3 DataNodes x u = 0.8 carry 2.4; the
   * night needs at most 2.0) and sends the peak up (2.9-4.3 needed: gear 1 to 3). Compressed time: the load is
   * sampled every 20 s (12 trace minutes) and a gear-down waits 40 s after the last shift. The NameNode starts in
   * manual mode: the replay hands the gears to the controller ({@code hdfs eafr gear auto}) before it writes its files.
   * These are the values for the 600 s replay; a shorter or longer {@code demo.duration.s} compresses the trace more
   * or less, so the capacities scale by 600 / duration and the interval and dwell by duration / 600 (a 240 s replay:
   * 5 opens/s, 1750000 B/s, 8 s, 16 s).
   */
  static void autoGears(Configuration site, long durationSeconds) {
    double speed = 600.0 / durationSeconds;
    site.set("eafr.gear.server.opens-per-second", String.valueOf(Math.round(2 * speed)));
    site.set("eafr.gear.server.write-bytes-per-second", String.valueOf(Math.round(700_000 * speed)));
    site.set("eafr.gear.auto.interval.ms", String.valueOf(Math.round(20_000 / speed)));
    site.set("eafr.gear.min-dwell.ms", String.valueOf(Math.round(40_000 / speed)));
  }

  private Configuration dataNodeSite(Configuration nameNode, DemoHosts.Host host) {
    Configuration site = SiteFiles.dataNodeSite(nameNode, host.name(), new int[] {host.xferPort(), host.ipcPort(),
        host.httpPort()}, state.dir().resolve("dn" + host.index()).resolve("data"));
    if (host.driver() == DemoHosts.Driver.WOL) {
      // Only software on the host can put a WoL host to sleep: the in-band power agent (docs/datanode.md). Its two
      // commands go to the host switch, which records the sleep; the agent itself stops the DataNode.
      String script = DemoState.hostScript(root) + " " + state.dir() + " " + host.index();
      site.set("dfs.datanode.plugins", "org.eafr.datanode.power.PowerAgentPlugin");
      site.set("eafr.datanode.power-agent.enabled", "true");
      site.set("eafr.datanode.power-agent.poll.ms", "1000");
      site.set("eafr.datanode.power-agent.wol-arm.command", script + " arm wol");
      site.set("eafr.datanode.power-agent.host.command", script + " suspend wol");
    }
    return site;
  }

  private static String log4j() {
    return SiteFiles.log4j("org.eafr.demo.DemoSetup", List.of(
        "log4j.logger.org.apache.hadoop.hdfs.StateChange=WARN",
        "log4j.logger.org.apache.hadoop.hdfs.server.datanode.DataNode.clienttrace=WARN",
        "# The replay's HDFS client logs (retries to other replicas and the like) to logs/replay.log, not the terminal.",
        "log4j.appender.replay=org.apache.log4j.FileAppender",
        "log4j.appender.replay.File=${hadoop.log.dir}/replay.log",
        "log4j.appender.replay.layout=org.apache.log4j.PatternLayout",
        "log4j.appender.replay.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n"));
  }
}
