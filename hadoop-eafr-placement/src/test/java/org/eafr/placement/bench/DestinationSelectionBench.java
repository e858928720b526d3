package org.eafr.placement.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.destination.DestinationSelector;
import org.eafr.placement.destination.LeastLoadedDestination;
import org.eafr.placement.destination.PlacementRequest;
import org.eafr.placement.destination.RandomDestination;
import org.eafr.placement.destination.TransferSpeedEstimator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time of one destination decision among 1,000 hot servers, filtering included (the request excludes the 3 holders
 * and about 5% of the pool lacks room). Goal for EAFR's {@link DestinationSelector}: under 50 microseconds. It runs
 * once with speeds from a precomputed model and once with a {@link TransferSpeedEstimator} holding a closed window
 * for every server; the random and least-loaded baselines show the cost of filtering alone.
 *
 * <p>Run: {@code java -cp ... org.openjdk.jmh.Main DestinationSelectionBench -f 1 -wi 3 -i 5}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class DestinationSelectionBench {
  private static final int SERVERS = 1_000;
  private static final long GB = 1_000_000_000L;
  private static final long MB = 1_000_000L;
  private static final StorageReserve RESERVE = new StorageReserve(10 * GB);

  private List<Server> pool;
  private PlacementRequest request;
  private DestinationSelector selectorWithModel;
  private DestinationSelector selectorWithEstimator;
  private RandomDestination random;
  private LeastLoadedDestination leastLoaded;

  @Setup
  public void setUp() {
    Random shape = new Random(20_240_611L);
    pool = randomPool(shape);
    Set<String> holders = new LinkedHashSet<>(List.of("s17", "s512", "s900"));
    request = new PlacementRequest("blk_1", 128 * MB, "s17", holders);
    Map<String, Double> speeds = new HashMap<>();
    for (Server server : pool) {
      speeds.put(server.id(), (10 + shape.nextInt(1_000)) * MB * 0.1);
    }
    selectorWithModel = new DestinationSelector(0.5, RESERVE, (s, d) -> speeds.get(d), new Random(1));
    selectorWithEstimator = new DestinationSelector(0.5, RESERVE, measured(speeds), new Random(1));
    random = new RandomDestination(RESERVE, new Random(1));
    leastLoaded = new LeastLoadedDestination(RESERVE);
  }

  @Benchmark
  public Optional<Server> eafrSelectorModelSpeeds() {
    return selectorWithModel.choose(request, pool);
  }

  @Benchmark
  public Optional<Server> eafrSelectorEstimatedSpeeds() {
    return selectorWithEstimator.choose(request, pool);
  }

  @Benchmark
  public Optional<Server> randomBaseline() {
    return random.choose(request, pool);
  }

  @Benchmark
  public Optional<Server> leastLoadedBaseline() {
    return leastLoaded.choose(request, pool);
  }

  /** Capacities 5-30 reads, 0-35 reads in flight, 4 TB disks up to 90% full; every 20th server (random) is full. */
  private static List<Server> randomPool(Random shape) {
    List<Server> servers = new ArrayList<>();
    long capacity = 4_000 * GB;
    for (int i = 0; i < SERVERS; i++) {
      long used = shape.nextInt(20) == 0 ? capacity - 5 * GB : (long) (shape.nextDouble() * 0.9 * capacity);
      servers.add(Server.builder("s" + i).rack("/rack" + i % 40).serviceCapacity(5 + shape.nextInt(26))
          .concurrentReads(shape.nextInt(36)).storageCapacity(capacity).storageUsed(used).build());
    }
    return servers;
  }

  /** An estimator whose one closed window measured every server at its model speed (one 10 s transfer each). */
  private static TransferSpeedEstimator measured(Map<String, Double> speeds) {
    AtomicLong now = new AtomicLong();
    TransferSpeedEstimator estimator = new TransferSpeedEstimator(0.3, 60_000, now::get, 1.0);
    for (Map.Entry<String, Double> speed : speeds.entrySet()) {
      estimator.recordTransfer(speed.getKey(), (long) (speed.getValue() * 10), 10_000);
    }
    now.set(60_000);
    return estimator;
  }
}
