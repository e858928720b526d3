package org.eafr.placement.recovery;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.destination.FinishTimes;
import org.eafr.placement.popularity.FileTemperature;
import org.eafr.placement.settings.EafrSettings;

/**
 * Load-aware replica maintenance for a failed server (EAFR, Lin and Shen, Sec. 3.6, Alg. 4): for each file the failed
 * server held, a source ({@link RecoverySourceSelector}: a hot or standby holder with the most spare service capacity,
 * a cold holder only when there is none) and a destination chosen round robin over a pool, so the incoming copies, and
 * the incast traffic they cause, spread evenly.
 *
 * <p>Destination pool: hot servers for HOT and NORMAL files, standby servers for COLD files, and hot servers for a
 * COLD file when no standby server has room (standby servers fill up and turn cold by design, Eq. 8, and a lost
 * replica must still be re-created); never a cold server (it would have to be woken) and never a failed one. The paper names only hot and cold files; a NORMAL file is still read,
 * so it goes with the hot files, and only cold files go to standby servers.
 *
 * <p>A pool server is skipped (and the cursor moves past it) when it already holds the file, is the failed server
 * (which the view may not have marked yet), or, counting the copies planned for it earlier in the same call, has less
 * than tau_s free or no room for the file ({@link StorageReserve#canHold}, Alg. 4 line 11 and Eq. 8). After one full
 * cycle without a fit the file is reported as having no destination, instead of the paper's endless loop.
 *
 * <p>The planner keeps one round-robin cursor per pool (hot, standby) rather than the paper's single counter, so each
 * pool stays balanced when hot and cold files interleave. The cursors persist across files and across calls, and
 * {@link #nextDestination} advances the same cursors as {@link #plan}. Cursor updates are atomic: the planner may be
 * shared by threads (the NameNode calls it from its redundancy monitor).
 *
 * <p>Worked example (tau_s = 10 B, files of 10 B, pool H1, H2, H3 all HOT with 100 B free; S1 STANDBY phi 10, S2
 * STANDBY phi 3, C1 COLD phi 8, C2 COLD phi 12; F failed) for the hot files of F, with a fresh planner:
 * f1 on F, S2, S1: S1 -&gt; H1; f2 on F, S2: S2 -&gt; H2; f3 on F, C1: C1 (woken) -&gt; H3; f4 on F, C1, S2: S2 -&gt;
 * H1 (a standby holder beats a cold one with more spare capacity); f5 on F, C1, C2: C2 (woken) -&gt; H2.
 *
 * <p>Links of different speeds ({@code eafr.destination.finish-ratio} r &gt;= 1, {@link FinishTimes}): the round
 * robin of {@link #nextDestination} (the NameNode's, one block at a time) skips a pool server whose copy is expected
 * to finish later than r times the soonest among the servers the file could go to, so recovery spreads evenly over
 * the servers whose links keep up, not onto a slow link that would hold the whole recovery back. With r = 0 it is
 * Alg. 4's round robin. Worked example (r = 1.5, copies of 10 B, H1 and H2 at 10 B/s, H3 at 2.5 B/s, each copy
 * queued where it went): H1 (finish 1 s; H3 4 s is cut), H2 (1 s against H1's 2 s), H1, H2, then H3 (4 s, within
 * 1.5 x 3 s).
 *
 * <p>O(m (r + w)) for m files, r replicas each and a pool of w servers.
 */
public final class RecoveryPlanner {
  private final StorageReserve reserve;
  private final FinishTimes finishTimes;
  private final RecoverySourceSelector sources = new RecoverySourceSelector();
  private final RoundRobinCursor hotCursor = new RoundRobinCursor();
  private final RoundRobinCursor standbyCursor = new RoundRobinCursor();

  public RecoveryPlanner(StorageReserve reserve) {
    this(reserve, FinishTimes.OFF);
  }

  /** @param finishTimes when on, servers whose copy would finish late are skipped (see the class comment) */
  public RecoveryPlanner(StorageReserve reserve, FinishTimes finishTimes) {
    this.reserve = Objects.requireNonNull(reserve, "reserve");
    this.finishTimes = Objects.requireNonNull(finishTimes, "finishTimes");
  }

  /** A planner keeping eafr.storage-reserve.bytes free on every destination. */
  public static RecoveryPlanner from(EafrSettings settings) {
    return new RecoveryPlanner(new StorageReserve(settings.storageReserveBytes()));
  }

  /** A planner keeping eafr.storage-reserve.bytes free, skipping late servers by eafr.destination.finish-ratio. */
  public static RecoveryPlanner from(EafrSettings settings, FinishTimes finishTimes) {
    return new RecoveryPlanner(new StorageReserve(settings.storageReserveBytes()), finishTimes);
  }

  /**
   * A source and a destination for every file the failed server held, or the reason there is none.
   *
   * @param failedServerId the failed server; every lost file must list it among its replica servers
   * @param lostReplicas the files it held, each once, in the order to recover them
   * @param view the cluster now; it is not changed, storage taken by this plan is tracked locally
   */
  public RecoveryPlan plan(String failedServerId, List<LostReplica> lostReplicas, ClusterView view) {
    requireHeldOnce(failedServerId, lostReplicas);
    PlanInProgress plan = new PlanInProgress(failedServerId, Objects.requireNonNull(view, "view"));
    for (LostReplica lost : lostReplicas) {
      plan.recover(lost);
    }
    return plan.result();
  }

  /**
   * The next destination for one more replica of {@code file}, for a caller that places one block at a time; it
   * shares the cursors of {@link #plan}. The view must already show earlier placements and the failed server as
   * FAILED (or absent from {@code file}'s holders).
   */
  public Optional<Server> nextDestination(ReplicatedFile file, FileTemperature temperature, ClusterView view) {
    Objects.requireNonNull(file, "file");
    return destination(temperature, view, inTime(file, temperature, view, server -> fits(server, file, 0L)));
  }

  /** {@code fits}, and with finish times on, among the servers that fit, within r times the soonest. */
  private Predicate<Server> inTime(ReplicatedFile file, FileTemperature temperature, ClusterView view,
      Predicate<Server> fits) {
    if (!finishTimes.enabled()) {
      return fits;
    }
    List<Server> fitting = new ArrayList<>();
    for (Server server : pool(temperature, view)) {
      if (fits.test(server)) {
        fitting.add(server);
      }
    }
    if (fitting.isEmpty() && temperature == FileTemperature.COLD) {
      view.withRole(ServerRole.HOT).stream().filter(fits).forEach(fitting::add);
    }
    Set<String> inTime = new HashSet<>();
    finishTimes.inTime(null, file.sizeBytes(), fitting).forEach(server -> inTime.add(server.id()));
    return server -> inTime.contains(server.id());
  }

  /**
   * The next server of the file's pool that {@code fits}; a cold file whose standby pool has none goes round the hot
   * pool instead, so a full standby tier never leaves a file short of replicas.
   */
  private Optional<Server> destination(FileTemperature temperature, ClusterView view, Predicate<Server> fits) {
    Optional<Server> destination = cursor(temperature).next(pool(temperature, view), fits);
    if (destination.isPresent() || temperature != FileTemperature.COLD) {
      return destination;
    }
    return hotCursor.next(view.withRole(ServerRole.HOT), fits);
  }

  /** The source {@link #plan} would use for {@code file}, for a caller that recovers one block at a time. */
  public Optional<Server> source(ReplicatedFile file, String failedServerId, ClusterView view) {
    return sources.select(file, failedServerId, view);
  }

  private boolean fits(Server server, ReplicatedFile file, long pendingBytes) {
    return !file.isOn(server.id()) && reserve.canHold(server.remainingStorage() - pendingBytes, file.sizeBytes());
  }

  private RoundRobinCursor cursor(FileTemperature temperature) {
    return temperature == FileTemperature.COLD ? standbyCursor : hotCursor;
  }

  private static List<Server> pool(FileTemperature temperature, ClusterView view) {
    return view.withRole(temperature == FileTemperature.COLD ? ServerRole.STANDBY : ServerRole.HOT);
  }

  private static void requireHeldOnce(String failedServerId, List<LostReplica> lostReplicas) {
    Objects.requireNonNull(failedServerId, "failedServerId");
    Set<String> seen = new HashSet<>();
    for (LostReplica lost : lostReplicas) {
      ReplicatedFile file = lost.file();
      if (!file.isOn(failedServerId)) {
        throw new IllegalArgumentException("lost replica " + file + " is not allowed: expected the failed server "
            + failedServerId + " among its replica servers");
      }
      if (!seen.add(file.id())) {
        throw new IllegalArgumentException("file " + file.id() + " is not allowed twice in the lost replicas of "
            + failedServerId + ": expected each file once");
      }
    }
  }

  /** The working state of one {@link #plan} call: the results so far and the bytes already sent to each server. */
  private final class PlanInProgress {
    private final String failedServerId;
    private final ClusterView view;
    private final Map<String, Long> pendingBytes = new HashMap<>();
    private final List<RecoveryAssignment> assignments = new ArrayList<>();
    private final List<UnrecoverableFile> unrecoverable = new ArrayList<>();

    PlanInProgress(String failedServerId, ClusterView view) {
      this.failedServerId = failedServerId;
      this.view = view;
    }

    void recover(LostReplica lost) {
      ReplicatedFile file = lost.file();
      Optional<Server> source = sources.select(file, failedServerId, view);
      if (!source.isPresent()) {
        unrecoverable.add(new UnrecoverableFile(file.id(), RecoveryFailure.NO_LIVE_REPLICA));
        return;
      }
      Optional<Server> destination = destination(lost.temperature(), view,
          server -> !server.id().equals(failedServerId) && fits(server, file, pending(server)));
      if (!destination.isPresent()) {
        unrecoverable.add(new UnrecoverableFile(file.id(), RecoveryFailure.NO_DESTINATION_WITH_ROOM));
        return;
      }
      pendingBytes.merge(destination.get().id(), file.sizeBytes(), Long::sum);
      assignments.add(new RecoveryAssignment(file.id(), source.get().id(), destination.get().id(),
          source.get().role() == ServerRole.COLD));
    }

    private long pending(Server server) {
      return pendingBytes.getOrDefault(server.id(), 0L);
    }

    RecoveryPlan result() {
      return new RecoveryPlan(assignments, unrecoverable);
    }
  }
}
