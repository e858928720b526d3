package org.eafr.placement.gear.springfs;

import java.util.Arrays;
import java.util.Objects;
import java.util.Random;
import java.util.function.IntPredicate;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.Positions;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.gear.read.RecentLoad;
import org.eafr.placement.settings.EafrSettings;

/**
 * SpringFS's layout with bounded write offloading (Xu et al., Sec. 3): Rabbit's equal-work layout whose primary
 * replicas go to the first m servers of the chain (the offload set), not only the p primaries.
 *
 * <ol>
 *   <li>The equal-work layout deals the block's homes: a primary and r - 1 non-primaries.</li>
 *   <li>Primary replica: on the writer when the writer is in the offload set and on (machine locality); otherwise on
 *       the less loaded of two servers drawn at random from the offload set's servers that are on ({@link RecentLoad},
 *       the power of two choices: O(1), not a scan of the set). A primary replica on a server at or past p is
 *       offloaded: its home is the dealt primary, and it is cleanup work before its holder may sleep. On a primary it
 *       is at home. By capacity ({@link EqualWorkLayout#byCapacity}), a draw that falls on a primary puts the
 *       replica on the dealt primary if that is on and has room: the deal is by bytes, so the primaries hold their
 *       shares of the bytes, where the draws balance block counts and let primaries fill past their shares (271
 *       homes displaced at 50% fill, 0 dealt).</li>
 *   <li>A non-primary whose home is in the offload set past the primaries (p &lt;= home &lt; m) is redirected to the
 *       less loaded of two on servers drawn outside the offload set, and that is its home (SpringFS's layout: the
 *       offload set stores only primary replicas, nothing is owed).</li>
 *   <li>A non-primary whose home sleeps is written, the same way, to an on server outside the offload set (availability
 *       offloading, Sec. 3, Fig. 5), keeping its home: it is owed to the home when the home is re-integrated (passive
 *       migration, {@link PassiveMigration}).</li>
 *   <li>Every holder has room for the block ({@link BlockRequest#fits}): a server without room is passed over, as
 *       HDFS passes over a full DataNode, and a writer without room does not take the primary.</li>
 *   <li>By capacity, a server past the primaries takes an offloaded replica (a primary replica in the offload set, a
 *       non-primary whose home sleeps) only while it keeps a spare share of its usable bytes free besides the block
 *       ({@code eafr.gear.capacity-headroom}, 5%), the room its own dealt replicas need as files are rewritten: the
 *       first server past the primaries is dealt the largest share (B / (p + 1), 91% of its disk at 75% fill) and is
 *       on in every gear above 0, so availability offloads held there until passive migration moves them home would
 *       take the room of its own replicas. A non-primary then goes to another server past m that keeps its spare,
 *       else to a primary (which keeps no spare: p is sized with the headroom); only when none keeps it, to one with
 *       room for the block alone.</li>
 * </ol>
 * Every write is recorded in the load tracker the read balancer shares ({@link org.eafr.placement.gear.read
 * .ReadOffloadBalancer}), so reads move away from write-heavy low-numbered servers.
 *
 * <p>m is set for each resizing interval with {@link #offloadSet(int)} ({@link OffloadSetSize}). Gears, recovery groups
 * and shares are the equal-work layout's.
 *
 * <p>Worked example (chain of 30, p = 4, m = 8, r = 3): every primary replica lands on servers 0-7; a block dealt homes
 * (2, 6, 15) keeps 15, and its non-primary dealt to 6 (inside the offload set) goes to a server at 8 or past; its
 * primary lands on 2 or elsewhere in 0-7 (then offloaded, home 2). Shrinking to 8 or more servers needs no cleanup.
 *
 * <p>Thread-safe: the equal-work layout and the load tracker are; the random source is used under this object's lock.
 */
public final class SpringFsLayout implements GearedLayout {
  private static final int DRAWS = 8;

  private final EqualWorkLayout base;
  private final RecentLoad load;
  private final Random random;
  private final ActiveSet all;
  /** By capacity, the bytes each server past the primaries keeps free of offloaded primary replicas (else 0). */
  private final long[] spare;
  private volatile int offloadSet;

  public SpringFsLayout(EqualWorkLayout base, RecentLoad load, Random random) {
    this(base, load, random, EafrSettings.GEAR_CAPACITY_HEADROOM.defaultValue());
  }

  /**
   * The layout whose servers past the primaries, by capacity, keep {@code headroom} of their usable bytes free of
   * offloaded primary replicas.
   */
  public SpringFsLayout(EqualWorkLayout base, RecentLoad load, Random random, double headroom) {
    this.base = Objects.requireNonNull(base, "base");
    this.load = Objects.requireNonNull(load, "load");
    this.random = Objects.requireNonNull(random, "random");
    this.all = ActiveSet.all(base.chain());
    this.offloadSet = base.primaries();
    this.spare = new long[base.chain().size()];
    for (int position = base.primaries(); base.byCapacity() && position < spare.length; position++) {
      spare[position] = (long) (headroom * Math.max(0, base.chain().capacity(position) - base.reserveBytes()));
    }
  }

  /** Sets m for the coming interval; m is clamped to [p, N]. */
  public void offloadSet(int size) {
    offloadSet = Math.max(base.primaries(), Math.min(base.chain().size(), size));
  }

  /** m, the servers that take primary replicas. */
  public int offloadSet() {
    return offloadSet;
  }

  /** p, the equal-work layout's primaries: m is never below it. */
  public int primaries() {
    return base.primaries();
  }

  /** The load tracker every write is recorded in; SpringFS's read offloading reads it. */
  public RecentLoad load() {
    return load;
  }

  @Override
  public String name() {
    return "springfs";
  }

  @Override
  public ExpansionChain chain() {
    return base.chain();
  }

  @Override
  public int maximumGear() {
    return base.maximumGear();
  }

  @Override
  public ActiveSet serversOn(int gear) {
    return base.serversOn(gear);
  }

  @Override
  public int gearOf(int position) {
    return base.gearOf(position);
  }

  @Override
  public ActiveSet recoveryGroup(int failed) {
    return base.recoveryGroup(failed);
  }

  @Override
  public double share(int position) {
    return base.share(position);
  }

  @Override
  public BlockPlacement place(BlockRequest request, ActiveSet on) {
    BlockPlacement dealt = base.place(request, all);
    int m = offloadSet;
    int p = base.primaries();
    int[] holders = new int[dealt.size()];
    int[] homes = new int[dealt.size()];
    int[] displaced = new int[dealt.size()];
    int placed = 0;
    for (int i = 0; i < dealt.size(); i++) {
      int home = dealt.home(i);
      int holder;
      if (i == 0) {
        // The primary replica is the first placed (placed is 0), so no holder is excluded yet.
        IntPredicate takesOffload = q -> canTake(request, on, holders, 0, q) && request.fitsWithSpare(q, spare[q]);
        holder = request.writer() >= 0 && request.writer() < m && takesOffload.test(request.writer())
            ? request.writer() : leastLoaded(takesOffload, on, 0, m);
        // Without capacities no server keeps a spare: the draw above was the plain one, and is not drawn again.
        holder = holder >= 0 || !base.byCapacity() ? holder : leastLoaded(request, on, holders, placed, 0, m);
        holder = holder >= 0 ? holder : leastLoaded(request, on, holders, placed, 0, chain().size());
        holder = base.byCapacity() && request.writer() != holder && holder >= 0 && holder < p && home < p
            && canTake(request, on, holders, placed, home) ? home : holder;
        home = holder >= 0 && holder < p ? holder : home;
      } else if (home >= p && home < m) {
        holder = outsideOffloadSet(request, on, holders, placed, m);
        home = holder;
      } else if (canTake(request, on, holders, placed, home)) {
        holder = home;
      } else {
        holder = outsideOffloadSet(request, on, holders, placed, m);
      }
      if (holder < 0) {
        int[] unreached = new int[dealt.size() - i];
        for (int k = i; k < dealt.size(); k++) {
          unreached[k - i] = dealt.home(k);
        }
        return BlockPlacement.stoppedAt(chain(), holders, homes, placed, unreached, displaced);
      }
      displaced[placed] = dealt.displacedHome(i);
      holders[placed] = holder;
      homes[placed++] = home;
      load.record(holder);
    }
    return new BlockPlacement(chain(), Arrays.copyOf(holders, placed), Arrays.copyOf(homes, placed), new int[0],
        dealt.displacedCount() > 0 ? Arrays.copyOf(displaced, placed) : new int[0]);
  }

  /**
   * The less loaded of two on servers drawn at or past m, else of the offload set, among those that keep their spare
   * besides the block (by capacity); else among those with room for the block alone; else -1.
   */
  private int outsideOffloadSet(BlockRequest request, ActiveSet on, int[] holders, int placed, int m) {
    IntPredicate keepsSpare = q -> canTake(request, on, holders, placed, q) && request.fitsWithSpare(q, spare[q]);
    int holder = leastLoaded(keepsSpare, on, m, chain().size());
    holder = holder >= 0 ? holder : leastLoaded(keepsSpare, on, 0, m);
    if (holder >= 0 || !base.byCapacity()) {
      return holder; // without capacities no server keeps a spare: those were the plain draws
    }
    holder = leastLoaded(request, on, holders, placed, m, chain().size());
    return holder >= 0 ? holder : leastLoaded(request, on, holders, placed, 0, m);
  }

  /**
   * The less loaded of two on servers in [from, to) that can take the block, drawn at random (up to a few draws);
   * when the draws find fewer than two, the first that can take it scanning from a random start; -1 when none can.
   */
  private int leastLoaded(BlockRequest request, ActiveSet on, int[] holders, int placed, int from, int to) {
    return leastLoaded(p -> canTake(request, on, holders, placed, p), on, from, to);
  }

  /** The same for the servers {@code takes} accepts. */
  private int leastLoaded(IntPredicate takes, ActiveSet on, int from, int to) {
    if (from >= to) {
      return -1;
    }
    int first = -1;
    int second = -1;
    int start;
    synchronized (this) {
      for (int draw = 0; draw < DRAWS && second < 0; draw++) {
        int p = from + random.nextInt(to - from);
        if (takes.test(p) && p != first) {
          if (first < 0) {
            first = p;
          } else {
            second = p;
          }
        }
      }
      start = from + random.nextInt(to - from);
    }
    if (first >= 0 && second >= 0) {
      return load.load(second) < load.load(first) ? second : first;
    }
    if (first >= 0) {
      return first;
    }
    for (int p = on.next(start); p >= 0 && p < to; p = on.next(p + 1)) {
      if (takes.test(p)) {
        return p;
      }
    }
    for (int p = on.next(from); p >= 0 && p < start; p = on.next(p + 1)) {
      if (takes.test(p)) {
        return p;
      }
    }
    return -1;
  }

  /**
   * On, not excluded, not a holder yet, and with room: a holder without room would be skipped by the caller (the
   * simulator, HDFS), so a placement naming it would leave the ledger owing moves from a server that never got the
   * block.
   */
  private static boolean canTake(BlockRequest request, ActiveSet on, int[] holders, int placed, int position) {
    return on.contains(position) && !request.excludes(position) && !Positions.contains(holders, placed, position)
        && request.fits(position);
  }

}
