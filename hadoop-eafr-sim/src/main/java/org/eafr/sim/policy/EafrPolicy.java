package org.eafr.sim.policy;

import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.eafr.placement.baseline.HdfsDefaultPlacement;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.destination.DestinationPolicy;
import org.eafr.placement.destination.CandidateSample;
import org.eafr.placement.destination.DestinationSelector;
import org.eafr.placement.destination.SampledDestination;
import org.eafr.placement.destination.RandomDestination;
import org.eafr.placement.destination.TransferSpeedEstimator;
import org.eafr.placement.popularity.FileTemperature;
import org.eafr.placement.popularity.PopularityClassifier;
import org.eafr.placement.popularity.ReadStatistics;
import org.eafr.placement.read.ReaderSelector;
import org.eafr.placement.recovery.LostReplica;
import org.eafr.placement.recovery.RecoveryPlan;
import org.eafr.placement.recovery.RecoveryPlanner;
import org.eafr.placement.replication.ClassifiedFile;
import org.eafr.placement.replication.ReplicationPlan;
import org.eafr.placement.replication.ReplicationPlanner;
import org.eafr.placement.settings.EafrSettings;
import org.eafr.sim.engine.UnsharedRandom;
import org.eafr.sim.model.SimFile;

/**
 * EAFR (Lin and Shen) and its ablations, wired from the core:
 * <ul>
 *   <li>new files: r replicas on hot servers by {@link HdfsDefaultPlacement} (EAFR keeps new data hot);</li>
 *   <li>reads: counted by {@link ReadStatistics}; served by {@link ReaderSelector} (Alg. 3), or a random replica in
 *       the eafr-random-reads ablation;</li>
 *   <li>every T: {@link PopularityClassifier} (Eq. 2-5) then {@link ReplicationPlanner} (Alg. 1) with destinations from
 *       {@link DestinationSelector} over {@link TransferSpeedEstimator} EWMAs (Eq. 9-12) among d sampled
 *       candidates ({@link SampledDestination}, as in the NameNode), or {@link RandomDestination}
 *       in eafr-no-ewma;</li>
 *   <li>failures: {@link RecoveryPlanner} (Alg. 4), or random source and destination in eafr-random-recovery;</li>
 *   <li>receive-side rate control (Alg. 2) on, except in eafr-no-rate-control.</li>
 * </ul>
 */
public final class EafrPolicy implements Policy {
  /** Which of EAFR's parts are on; each ablation turns one off. */
  public record Parts(boolean ewmaDestinations, boolean rateControl, boolean networkAwareReads,
      boolean loadAwareRecovery) {
    public static final Parts ALL = new Parts(true, true, true, true);
  }

  private final String name;
  private final Parts parts;
  private final EafrSettings settings;
  private final HdfsDefaultPlacement placement;
  private final ReadStatistics reads;
  private final TransferSpeedEstimator speeds;
  private final ReplicationPlanner planner;
  private final ReaderSelector readers = new ReaderSelector();
  private final RandomReplica randomReads;
  private final RecoveryPlanner recovery;
  private final RandomRecovery randomRecovery;
  private final Temperatures temperatures;

  public EafrPolicy(String name, Parts parts, PolicyEnvironment env) {
    this.name = name;
    this.parts = parts;
    this.settings = env.settings().eafr();
    Random random = env.random();
    StorageReserve reserve = new StorageReserve(settings.storageReserveBytes());
    this.placement = new HdfsDefaultPlacement(reserve, new UnsharedRandom(random.nextLong()));
    this.reads = ReadStatistics.from(settings);
    this.temperatures = new Temperatures(PopularityClassifier.from(settings));
    this.speeds = new TransferSpeedEstimator(settings.ewmaAlpha(), settings.ewmaWindowMillis(), env.clockMillis(),
        TransferSpeedEstimator.DEFAULT_UNMEASURED_SPEED);
    DestinationPolicy destinations = destinations(settings, speeds, new UnsharedRandom(random.nextLong()),
        parts.ewmaDestinations());
    this.planner = ReplicationPlanner.from(settings, destinations);
    this.randomReads = new RandomReplica(new UnsharedRandom(random.nextLong()));
    this.recovery = RecoveryPlanner.from(settings);
    this.randomRecovery = new RandomRecovery(new RandomDestination(reserve, new UnsharedRandom(random.nextLong())),
        new UnsharedRandom(random.nextLong()), true);
  }

  /**
   * EAFR's destination choice (Eq. 10-12 over {@code speeds} among d sampled candidates, as in the NameNode), or a
   * random destination when {@code ewma} is off.
   */
  static DestinationPolicy destinations(EafrSettings settings, TransferSpeedEstimator speeds, Random random,
      boolean ewma) {
    StorageReserve reserve = new StorageReserve(settings.storageReserveBytes());
    return ewma ? new SampledDestination(DestinationSelector.from(settings, speeds, random),
        CandidateSample.from(settings, random), reserve) : new RandomDestination(reserve, random);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean powerManaged() {
    return true;
  }

  @Override
  public boolean receiveRateControl() {
    return parts.rateControl();
  }

  @Override
  public int replicasPerNewFile() {
    return settings.minReplicas();
  }

  @Override
  public List<Server> placeNewFile(SimFile file, ClusterView cluster) {
    return placement.choose(null, settings.minReplicas(), file.sizeBytes(), cluster.withRole(ServerRole.HOT));
  }

  @Override
  public Optional<Server> chooseReplica(String readerRack, List<Server> holders) {
    return parts.networkAwareReads() ? readers.select(readerRack, holders) : randomReads.choose(holders);
  }

  @Override
  public void readStarted(SimFile file, String serverId, long nowMillis) {
    reads.recordRead(file.id(), serverId);
  }

  @Override
  public IntervalDecision endOfInterval(List<SimFile> files, ClusterView cluster, long nowMillis) {
    // A file with a copy in flight waits for it to land before the planner looks at it again.
    List<ClassifiedFile> classified = temperatures.classify(files, reads.snapshotAndReset(),
        file -> file.pendingCopies() != 0);
    ReplicationPlan plan = planner.plan(classified, cluster);
    return new IntervalDecision(plan.actions(), plan.standbysTurningCold());
  }

  @Override
  public FileTemperature temperature(int file) {
    return temperatures.of(file);
  }

  @Override
  public RecoveryPlan recover(String failedId, List<LostReplica> lost, ClusterView cluster) {
    return parts.loadAwareRecovery() ? recovery.plan(failedId, lost, cluster)
        : randomRecovery.recover(failedId, lost, cluster);
  }

  @Override
  public void transferFinished(String destinationId, long bytes, long elapsedMillis) {
    speeds.recordTransfer(destinationId, bytes, Math.max(1, elapsedMillis));
  }
}
