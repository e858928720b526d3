package org.eafr.placement.destination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.eafr.placement.destination.TestServers.GB;
import static org.eafr.placement.destination.TestServers.MB;
import static org.eafr.placement.destination.TestServers.RESERVE;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.eafr.placement.cluster.Server;

class DestinationSelectorPropertyTest {

  @Property(tries = 1000, seed = "4242")
  void choiceIsAnUnexcludedPoolMemberWithRoom_andProbabilitiesArePositiveSumToOneAndFollowEq11(
      @ForAll @IntRange(min = 0, max = 60) int poolSize, @ForAll long poolSeed,
      @ForAll @DoubleRange(min = 0.0, max = 1.0) double beta, @ForAll long drawSeed) {
    Random shape = new Random(poolSeed);
    List<Server> pool = randomPool(shape, poolSize);
    PlacementRequest request = randomRequest(shape, pool);
    Map<String, Double> speeds = randomSpeeds(shape, pool);
    DestinationSelector selector =
        new DestinationSelector(beta, RESERVE, (s, d) -> speeds.get(d), new Random(drawSeed));

    Optional<Server> chosen = selector.choose(request, pool);
    double[] p = selector.probabilities(request, pool);

    long candidates = pool.stream().filter(s -> isCandidate(s, request)).count();
    assertThat(chosen.isPresent()).isEqualTo(candidates > 0);
    chosen.ifPresent(server -> {
      assertThat(pool).anySatisfy(member -> assertThat(member).isSameAs(server));
      assertThat(request.excludes(server.id())).isFalse();
      assertThat(RESERVE.canHold(server, request.sizeBytes())).isTrue();
    });
    assertThat(p).hasSize((int) candidates);
    if (candidates > 0) {
      assertThat(sum(p)).isCloseTo(1.0, within(1e-9));
      assertThat(Arrays.stream(p).min().getAsDouble()).isPositive();
      assertThat(p).containsExactly(referenceProbabilities(request, pool, speeds, beta), within(1e-12));
    }
  }

  /** Eq. 10-11 the slow, obvious way: boxed stable sorts by comparator, harmonic weights summed afresh. */
  private static double[] referenceProbabilities(PlacementRequest request, List<Server> pool,
      Map<String, Double> speeds, double beta) {
    List<Server> candidates = new ArrayList<>();
    pool.stream().filter(s -> isCandidate(s, request)).forEach(candidates::add);
    List<Server> bySpeed = new ArrayList<>(candidates);
    bySpeed.sort(Comparator.comparing((Server s) -> speeds.get(s.id())).reversed());
    List<Server> byCapacity = new ArrayList<>(candidates);
    byCapacity.sort(Comparator.comparingInt(Server::remainingServiceCapacity).reversed());
    double harmonic = 0;
    for (int k = 1; k <= candidates.size(); k++) {
      harmonic += 1.0 / k;
    }
    double[] p = new double[candidates.size()];
    for (int i = 0; i < p.length; i++) {
      Server candidate = candidates.get(i);
      double speedWeight = tiedWeight(bySpeed, s -> (float) (double) speeds.get(s.id()) == (float) (double)
          speeds.get(candidate.id()), harmonic);
      double capacityWeight = tiedWeight(byCapacity,
          s -> s.remainingServiceCapacity() == candidate.remainingServiceCapacity(), harmonic);
      p[i] = beta * speedWeight + (1 - beta) * capacityWeight;
    }
    return p;
  }

  /** The mean harmonic weight of the ranks held by the servers that tie with the candidate. */
  private static double tiedWeight(List<Server> ranked, java.util.function.Predicate<Server> tiesWithCandidate,
      double harmonic) {
    double sum = 0;
    int tied = 0;
    for (int rank = 1; rank <= ranked.size(); rank++) {
      if (tiesWithCandidate.test(ranked.get(rank - 1))) {
        sum += 1.0 / rank / harmonic;
        tied++;
      }
    }
    return sum / tied;
  }

  /** Room is StorageReserve's definition (Eq. 8); what is checked here is that the filter applies it. */
  private static boolean isCandidate(Server server, PlacementRequest request) {
    return !request.excludes(server.id()) && RESERVE.canHold(server, request.sizeBytes());
  }

  /** Few distinct capacities and reads, so that ties in phi are common; disks from empty to full. */
  private static List<Server> randomPool(Random random, int size) {
    List<Server> pool = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      long capacity = (1 + random.nextInt(100)) * GB;
      pool.add(Server.builder("s" + i).serviceCapacity(1 + random.nextInt(6)).concurrentReads(random.nextInt(8))
          .storageCapacity(capacity).storageUsed((long) (random.nextDouble() * capacity)).build());
    }
    return pool;
  }

  /** Excludes about a fifth of the pool (the holders), copies up to 20 GB from some server. */
  private static PlacementRequest randomRequest(Random random, List<Server> pool) {
    Set<String> excluded = new LinkedHashSet<>();
    for (Server server : pool) {
      if (random.nextInt(5) == 0) {
        excluded.add(server.id());
      }
    }
    return new PlacementRequest("f", (long) (random.nextDouble() * 20 * GB), "src", excluded);
  }

  /** Speeds from a small set including 0, so that ties in speed are common. */
  private static Map<String, Double> randomSpeeds(Random random, List<Server> pool) {
    Map<String, Double> speeds = new HashMap<>();
    for (Server server : pool) {
      speeds.put(server.id(), random.nextInt(4) * 25.0 * MB);
    }
    return speeds;
  }

  private static double sum(double[] values) {
    double sum = 0;
    for (double value : values) {
      sum += value;
    }
    return sum;
  }
}
