package org.eafr.namenode.runtime;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Paths;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.util.Time;
import org.eafr.namenode.cluster.ColdHosts;
import org.eafr.namenode.cluster.PendingActions;
import org.eafr.namenode.cluster.ReadAttribution;
import org.eafr.namenode.cluster.RecentReads;
import org.eafr.namenode.cluster.ServerRoles;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.config.NamenodeSettings;
import org.eafr.namenode.config.RolesFile;
import org.eafr.namenode.energy.EnergyMonitor;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.namenode.gear.GearSettings;
import org.eafr.namenode.power.SleepRequests;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.eafr.namenode.relayout.RelayoutService;
import org.eafr.namenode.replication.MonitorStats;
import org.eafr.namenode.replication.RoundPlanner;
import org.eafr.namenode.transfer.TransferTracker;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.destination.CandidateSample;
import org.eafr.placement.destination.DestinationSelector;
import org.eafr.placement.destination.FinishTimes;
import org.eafr.placement.destination.SampledDestination;
import org.eafr.placement.destination.TransferSpeedEstimator;
import org.eafr.placement.popularity.ReadStatistics;
import org.eafr.placement.read.ReaderSelector;
import org.eafr.placement.recovery.RecoveryPlanner;
import org.eafr.placement.replication.ExcessReplicaSelector;

/**
 * The composition root of the EAFR state one NameNode shares between its parts: Hadoop builds the placement policy,
 * the network topology, the audit logger, the hosts provider and the plugin by reflection, each from the NameNode's
 * Configuration only, so they meet here, keyed by the NameNode's name directories, nameservice and HA NameNode id.
 * The constructor builds every shared part and hands each its collaborators; nothing below this package reaches up to
 * it. A reconfigured placement policy finds the same state (speeds, cursors, counts).
 *
 * <p>This registry is the module's only static state. Building it validates every setting, the roles file and the
 * power inventory (with its credentials and tools): a bad value throws naming the key (or the file, entry and field),
 * and the NameNode part that asked for it refuses to start.
 */
public final class EafrRuntime {
  private static final ConcurrentMap<String, EafrRuntime> BY_NAMENODE = new ConcurrentHashMap<>();

  private final NamenodeSettings settings;
  private final ServerRoles roles;
  private final TransferSpeedEstimator speeds;
  private final StorageReserve reserve;
  private final Random random;
  private final SampledDestination destinations;
  private final RecoveryPlanner recovery;
  private final ExcessReplicaSelector excess;
  private final ReaderSelector readers = new ReaderSelector();
  private final ReadStatistics reads;
  private final RecentReads recentReads;
  private final ReadAttribution attribution;
  private final PendingActions pending = new PendingActions();
  private final MonitorStats monitorStats = new MonitorStats();
  private final TransferTracker transfers;
  private final SleepRequests sleepRequests = new SleepRequests();
  private final ColdHosts coldHosts = new ColdHosts();
  private final GearRuntime gears;
  private final ServerTranslator translator;
  private volatile RoundPlanner monitor;
  private volatile EnergyMonitor energy;
  private volatile RelayoutService relayout;
  /** eafr.reads.warm-up.ms in force: set at start, changed by {@code hdfs eafr settings reload}. */
  private final AtomicLong readsWarmUpMillis;

  EafrRuntime(NamenodeSettings settings, GearSettings gearSettings) {
    this.settings = settings;
    this.gears = new GearRuntime(gearSettings, settings.core());
    this.roles = new ServerRoles(settings.rolesFile().isEmpty() ? RolesFile.ALL_HOT
        : RolesFile.read(Paths.get(settings.rolesFile())), settings.core().minHotReplicas());
    this.speeds = new TransferSpeedEstimator(settings.core().ewmaAlpha(), settings.core().ewmaWindowMillis(),
        Time::monotonicNow, TransferSpeedEstimator.DEFAULT_UNMEASURED_SPEED);
    this.random = new Random(settings.randomSeed()); // one seeded stream for the sample and the Eq. 12 draw
    this.reserve = new StorageReserve(settings.core().storageReserveBytes());
    this.transfers = new TransferTracker(settings.transferMaxTracked(), settings.transferMinSampleBytes(),
        settings.transferTimeoutMillis(), speeds::recordTransfer,
        settings.core().finishRatio() > 0 ? settings.core().ewmaWindowMillis() : 0);
    this.destinations = destinationsDrawingFrom(random);
    this.recovery = RecoveryPlanner.from(settings.core(), FinishTimes.from(settings.core(), speeds, transfers));
    this.excess = new ExcessReplicaSelector(settings.core().minHotReplicas());
    this.reads = ReadStatistics.from(settings.core());
    this.recentReads = new RecentReads(settings.recentReadsHalfLifeMillis(), Time::monotonicNow);
    this.attribution = new ReadAttribution(reads, recentReads);
    this.translator = new ServerTranslator(roles, recentReads, settings);
    this.readsWarmUpMillis = new AtomicLong(settings.readsWarmUpMillis());
  }

  /** The state of the NameNode configured by {@code conf}, built (and validated) on first use. */
  public static EafrRuntime of(Configuration conf) {
    return BY_NAMENODE.computeIfAbsent(key(conf), k -> {
      SettingsDefaults.checkKeys(conf.getValByRegex("^eafr\\."));
      PowerDrivers.checkConfigured(conf); // a bad power inventory stops the NameNode as a bad setting does
      return new EafrRuntime(NamenodeSettings.from(conf::get), GearSettings.from(conf::get));
    });
  }

  /** Forgets the state of the NameNode configured by {@code conf}, e.g. before building it anew with other settings. */
  public static void release(Configuration conf) {
    BY_NAMENODE.remove(key(conf));
  }

  private static String key(Configuration conf) {
    return conf.get(DFSConfigKeys.DFS_NAMENODE_NAME_DIR_KEY, "") + "|" + conf.get(DFSConfigKeys.DFS_NAMESERVICE_ID, "")
        + "|" + conf.get(DFSConfigKeys.DFS_HA_NAMENODE_ID_KEY, "");
  }

  public NamenodeSettings settings() {
    return settings;
  }

  /**
   * eafr.reads.warm-up.ms in force, which the reader ordering reads at each wake and {@code hdfs eafr settings
   * reload} sets; {@link #settings} keeps the value read at start.
   */
  public AtomicLong readsWarmUpMillis() {
    return readsWarmUpMillis;
  }

  public ServerRoles roles() {
    return roles;
  }

  /** DataNodes as the core's servers, with this NameNode's roles, recent reads and service capacity. */
  public ServerTranslator translator() {
    return translator;
  }

  public TransferSpeedEstimator speeds() {
    return speeds;
  }

  /**
   * EAFR's destination choice as the NameNode makes it: Eq. 10-12 over d eligible servers drawn at random
   * ({@code eafr.destination.sample-size}), for new blocks (the placement policy) and the monitor's ADD and MIGRATE
   * targets alike.
   */
  public SampledDestination destinations() {
    return destinations;
  }

  /**
   * The same destination choice drawing from a copy of its random stream as it stands now: a dry run ({@code hdfs eafr
   * plan}) chooses what the next real choices would (when no write draws in between), and leaves the stream alone.
   */
  public SampledDestination destinationsPreview() {
    return destinationsDrawingFrom(copyOf(random));
  }

  private SampledDestination destinationsDrawingFrom(Random draws) {
    return new SampledDestination(DestinationSelector.from(settings.core(), speeds, transfers, draws),
        CandidateSample.from(settings.core(), draws), reserve);
  }

  /** A Random in the same state as {@code random} (its serialized form is its state), which then draws on its own. */
  private static Random copyOf(Random random) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
        out.writeObject(random);
      }
      try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
        return (Random) in.readObject();
      }
    } catch (IOException | ClassNotFoundException e) {
      throw new IllegalStateException("could not copy the destination choice's random stream", e);
    }
  }

  /** tau_s: which servers have room for a replica (Eq. 8). */
  public StorageReserve reserve() {
    return reserve;
  }

  public RecoveryPlanner recovery() {
    return recovery;
  }

  public ExcessReplicaSelector excess() {
    return excess;
  }

  public ReaderSelector readers() {
    return readers;
  }

  public ReadStatistics reads() {
    return reads;
  }

  public RecentReads recentReads() {
    return recentReads;
  }

  public ReadAttribution attribution() {
    return attribution;
  }

  public PendingActions pending() {
    return pending;
  }

  /** The copies the NameNode scheduled, timed for the transfer-speed EWMA {@link #speeds()}. */
  public TransferTracker transfers() {
    return transfers;
  }

  /**
   * Wake-on-LAN hosts' power-offs waiting for their DataNodes' in-band power agents: the power manager records them
   * ({@code PowerDrivers.startManager(conf, hosts, runtime.sleepRequests(), threads)}), the admin handler answers the
   * agents.
   */
  public SleepRequests sleepRequests() {
    return sleepRequests;
  }

  /** EAFR's cold servers whose hosts sleep for real ({@code eafr.cold.power-off}): energy, status, reads. */
  public ColdHosts coldHosts() {
    return coldHosts;
  }

  /** The gear state: layout, gear, sleeping groups, what they owe (placement, the gear service, admin, metrics). */
  public GearRuntime gears() {
    return gears;
  }

  public MonitorStats monitorStats() {
    return monitorStats;
  }

  /** The replication monitor of the running NameNode (its dry run), once its plugin has started; else null. */
  public RoundPlanner monitor() {
    return monitor;
  }

  public void monitor(RoundPlanner running) {
    this.monitor = running;
  }

  /** The relayout service of the running NameNode, once its plugin started it; else null. */
  public RelayoutService relayout() {
    return relayout;
  }

  public void relayout(RelayoutService running) {
    this.relayout = running;
  }

  /** The energy estimate of the running NameNode, once its plugin has started; else null. */
  public EnergyMonitor energy() {
    return energy;
  }

  public void energy(EnergyMonitor running) {
    this.energy = running;
  }
}
