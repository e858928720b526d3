package org.eafr.placement.gear.eafr;

import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.layout.EqualWorkShares;
import org.eafr.placement.settings.EafrSettings;

/**
 * EAFR on gears' read floor (the project's own rule; no paper has it): the first n_L servers of the expansion chain
 * hold every block's r replicas and never sleep, so a read always finds its r replicas awake, as in HDFS.
 *
 * <p>Why (docs/evaluation-eafr-geared.md): a job's M map tasks read their file at once; with a
 * replicas of it awake, c read slots per server and service time t, the i-th read (0-based, Alg. 3 keeping the queues
 * even) waits for floor(i / (a c)) earlier rounds, so the burst's mean latency is
 * <pre>  L(M, a) = t (1 + (1/M) sum_{i=0..M-1} floor(i / (a c)))                        ({@link #burstMeanMillis})</pre>
 * about t (1 + M / (2 a c)): inversely proportional to the awake replicas. The equal-work layout (Rabbit Eq. 1) keeps
 * one replica of every block in gear 0 and deals the other r - 1 over positions p .. p e^(r-1) with b_i = B / i, so n
 * servers on give a(n) = 1 + ln(n / p) awake replicas per block on average ({@link #awakeReplicas}): with p = N / e^2
 * (r = 3) every replica is awake only when the whole cluster is on. No gear choice can then give HDFS's a = r and
 * sleep servers too: the layout must put the r replicas on fewer servers, and those must stay on. The floor does
 * both: the layout spreads over n_L = ceil(f_L N) servers ({@code EqualWorkLayout}'s spread; each still holds at least
 * B / i, so it is equal-work at every gear), the gear controller never runs a gear below the one that keeps them on,
 * and EAFR may move or delete a replica on them only while the file keeps r others there. The gears above carry load
 * as before; EAFR's hot extras still go into the lowest gears and its cold replicas into the gear above.
 *
 * <p>Its cost is the floor's power: at least n_L servers on, (n_L P_idle + (N - n_L) P_off) / (N P_idle) of an
 * all-on cluster's idle draw ({@link #idleEnergyShare}).
 *
 * <p>Worked example (the simulator's gears setup: N = 300, p = 40, g = 1, r = 3, c = 15, t = 5 ms; f_L = 0.2): n_L =
 * 60, the floor gear is 20 (gear groups 1..20 on past the 40 primaries), and a block keeps r = 3 replicas there. A
 * 1,000-task burst reads in L(1000, 1) = 169.175 ms with one replica awake and L(1000, 3) = 58.075 ms with three
 * (the simulator measured 175 and 57 ms for the bursts of FB-2010 with one and three replicas awake). Without the
 * floor, 60 servers on give a(60) = 1 + ln(1.5) = 1.4055 awake replicas per block on average. The floor's idle draw
 * at P_idle = 93.7 W and P_off = 10 W is 0.2854 of an all-on cluster's. The floor must hold r copies of the data:
 * on the gears catalog (3 TB, 250-750 GB servers) f_L = 0.15 (45 servers) overflows and leaves replicas above it.
 *
 * <p>Immutable and thread-safe.
 */
public final class ReadFloor {
  private static final ReadFloor OFF = new ReadFloor(0);

  private final int servers;

  private ReadFloor(int servers) {
    this.servers = servers;
  }

  /** No floor: the layout spreads over every server and only gear 0 must stay on (one replica of each block). */
  public static ReadFloor off() {
    return OFF;
  }

  /**
   * The floor of share {@code share} of {@code chainSize} servers for a layout of p primaries, gear groups of g and r
   * replicas: n_L = ceil(f_L N), raised to p plus whole gear groups, at least the fewest groups the equal-work shares
   * build on ({@link EqualWorkShares#fewestGroups}: at least r - 1, and more when the first could not hold its share)
   * and at most N; {@link #off} when the share is 0. Example: N = 9, p = 3, g = 1, r = 3, f_L = 0.5 gives 6 servers.
   */
  public static ReadFloor of(double share, int chainSize, int primaries, int groupSize, int replicas) {
    if (!(share >= 0 && share <= 1)) {
      throw new IllegalArgumentException("read floor share " + share + " is not allowed: expected [0, 1]");
    }
    if (share == 0) {
      return OFF;
    }
    int wanted = Math.max((int) Math.ceil(share * chainSize),
        primaries + EqualWorkShares.fewestGroups(primaries, groupSize, replicas) * groupSize);
    int groups = (int) Math.ceil((double) (wanted - primaries) / groupSize);
    return new ReadFloor(Math.min(chainSize, primaries + groups * groupSize));
  }

  /** The floor of {@code settings} (eafr.gear.eafr.read-floor) for that layout. */
  public static ReadFloor from(EafrSettings settings, int chainSize, int primaries, int groupSize, int replicas) {
    return of(settings.get(EafrSettings.GEAR_EAFR_READ_FLOOR), chainSize, primaries, groupSize, replicas);
  }

  public boolean isOn() {
    return servers > 0;
  }

  /** n_L, the servers that hold every block's replicas; 0 when off. */
  public int servers() {
    return servers;
  }

  /** The servers the layout spreads over: n_L, or the whole chain when off. */
  public int spread(int chainSize) {
    return isOn() ? Math.min(servers, chainSize) : chainSize;
  }

  /** The lowest gear of {@code layout} that keeps the floor's servers on; 0 when off. */
  public int gear(GearedLayout layout) {
    if (!isOn()) {
      return 0;
    }
    for (int g = 0; g < layout.maximumGear(); g++) {
      if (layout.serversOn(g).size() >= servers) {
        return g;
      }
    }
    return layout.maximumGear();
  }

  /** Replicas a file must keep on the floor gear's servers: r with the floor, 1 (availability) without. */
  public int replicasKept(int replicas) {
    return isOn() ? replicas : 1;
  }

  /** L(M, a): the mean latency of a burst of M reads over a awake replicas of c slots, service t (see above). */
  public static double burstMeanMillis(int reads, int awake, int slots, double serviceMillis) {
    if (reads < 1 || awake < 1 || slots < 1 || !(serviceMillis > 0)) {
      throw new IllegalArgumentException("reads " + reads + ", awake replicas " + awake + ", slots " + slots
          + " and service " + serviceMillis + " ms are not allowed: expected each >= 1 (service > 0)");
    }
    long perRound = (long) awake * slots;
    long full = reads / perRound;
    // rounds 0 .. full-1 hold perRound reads each; the last, partial round holds the rest
    double waits = perRound * (full * (full - 1) / 2.0) + (reads - full * perRound) * (double) full;
    return serviceMillis * (1 + waits / reads);
  }

  /** a(n) = 1 + ln(n / p): the equal-work layout's awake replicas per block with n servers on, p &lt;= n. */
  public static double awakeReplicas(int on, int primaries) {
    if (primaries < 1 || on < primaries) {
      throw new IllegalArgumentException("n = " + on + " servers on and p = " + primaries
          + " are not allowed: expected 1 <= p <= n");
    }
    return 1 + Math.log((double) on / primaries);
  }

  /** (n_L P_idle + (N - n_L) P_off) / (N P_idle): the floor's idle draw against every server on. */
  public double idleEnergyShare(int chainSize, double idleWatts, double offWatts) {
    int on = spread(chainSize);
    return (on * idleWatts + (chainSize - on) * offWatts) / (chainSize * idleWatts);
  }
}
