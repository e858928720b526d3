package org.eafr.placement.gear.layout;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntUnaryOperator;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.NestedGears;
import org.eafr.placement.gear.Positions;
import org.eafr.placement.settings.EafrSettings;

/**
 * Rabbit's equal-work layout with gear groups and recovery groups (Amur et al., Sec. 3.1 Eq. 1-3 and Sec. 3.5).
 *
 * <p>Goals: with n servers of the expansion chain on, every one can serve an equal share of a full read (server i
 * holds b_i = B / i &gt;= B / n); only the p primaries must stay on for every block to be available; a failed primary
 * wakes only its recovery group; gears switch whole gear groups of g servers, with no data movement.
 *
 * <p>Structure (chain positions 0-based): positions 0 .. p-1 are the primaries; then G gear groups of g servers, gear
 * group i (1-based) at positions p + (i-1) g .. p + i g - 1. The server of gear group i in column c (position
 * p + (i-1) g + c) belongs to recovery group c, and primary j maps to recovery group j mod g (so p must be a multiple
 * of g). Each server of gear group i holds B / (p + g i) blocks ({@link EqualWorkShares}). Servers past the last gear
 * group hold nothing and form one last gear (every server on). Gear k keeps on the primaries and gear groups 1..k.
 *
 * <p>Placement of a new block with r replicas (O(r log N)):
 * <ol>
 *   <li>The recovery groups take blocks in turn (block k goes to group k mod g).</li>
 *   <li>Its r - 1 non-primary homes are dealt by the group's {@link PfairSchedule} with weights w_i (the group's
 *       servers' shares): after K blocks each server of the group has been dealt within one block of K w_i, so every
 *       non-primary holds its b_i within one block at every moment, not only on average. The deal is correlated
 *       across a block's replicas by one rule, the <em>low tier</em>: the first T gear groups of the recovery group,
 *       the most whose weights add up to W_T = w_1 + .. + w_T &lt;= 1, and a block takes at most one of them (the
 *       schedule's most urgent server that keeps that rule; a skipped server keeps its turn, as in step 4). Why: at
 *       gear k (n = p + g k servers on) the blocks whose every non-primary is off must be served by the primaries,
 *       which hold B / p each, so equal work needs them to be at most a fraction p / n of the blocks. A block's lowest
 *       non-primary is in gear group i &lt;= T for a fraction w_i of the blocks (no block has two there), so for
 *       k &lt;= T the blocks with every non-primary off are a fraction 1 - W_k, and 1 - W_k &lt;= p / (p + g k)
 *       holds for every k (equality at k = 0; by induction, since w_k &gt;= g / (p + g k) and
 *       p / (p + g (k-1)) - g / (p + g k) &lt;= p / (p + g k)). Above the low tier it is measured, not proven
 *       (EqualWorkLayoutPropertyTest: within p / n of a group's blocks plus one at every gear and every prefix, 1,000
 *       layouts). Dealt independently per replica instead, all r - 1 non-primaries of a block were too often high in
 *       the chain: with r = 4 on the `rabbit` scenario's 300 servers (p = 15, g = 5), 37.3% of the blocks had none
 *       on at 45 servers (p / n = 33.3%), which capped the degree of power proportionality at 0.871 for any read
 *       balancer; with the low tier 6.1%. The rule changes nothing for r = 2 (one non-primary).</li>
 *   <li>Its primary home is then chosen by the group's {@link PrimaryDeal} from the lowest gear group among those
 *       non-primaries, so that every primary of the group gets the same mix (Sec. 3.5: each gear group holds about
 *       the same data from each primary): at every gear, the blocks only a primary can serve are about equal for the
 *       group's primaries (within 7 blocks in PrimaryDealPropertyTest, on one rack), and each primary holds B / p
 *       within a few blocks. Primaries on another rack than every non-primary are preferred. Dealt by capacity (the
       six-argument constructor, eafr.gear.capacity-aware), each primary takes blocks in proportion to its storage
       capacity instead, so primaries of different sizes fill alike.</li>
 *   <li>Racks, when the cluster has two or more: when every non-primary home is on the primary's rack, the
 *       lowest-priority one gives way to the group's most urgent server on another rack (counted by
 *       {@link #rackSwaps()}). The server that gave way keeps its turn and is first in line at the next block, so its
 *       lag recovers at once. Rack diversity is the hard rule, equal work the goal it bends for: swaps are rare with a
 *       rack-interleaved chain ({@link ExpansionChain#rackInterleaved}) and r &gt;= 3 (every non-primary on the
 *       primary's rack), frequent with r = 2.</li>
 *   <li>A home that is off or excluded is replaced by a server that is on (availability offloading, Sec. 3.3): a
 *       primary in turn (by capacity; otherwise the next on server after a rotating cursor), else a server on past them
 *       in turn, that does not hold the block, on another rack when the
 *       holders so far share one. The placement keeps the home, so the {@link org.eafr.placement.gear.OffloadLedger} owes the
 *       move.</li>
 *   <li>Full homes, when the request carries a block size and a {@link org.eafr.placement.gear.StorageRoom}: a home
 *       without room for the block is skipped, as HDFS's default placement skips a DataNode without space. The
 *       replica's home becomes the first server after it in chain order that has room (and is not a holder or another
 *       replica's home, on a new rack when the holders so far share one), within its tier: another primary for a
 *       primary replica, so that gear 0 still holds the block; the next non-primary up the chain (wrapping to the
 *       first gear group) for a non-primary, so that it lands in the nearest gear above. Only when the tier is out of room does it look at the whole chain.
 *       The placement records the skipped home ({@link BlockPlacement#displacedHome}) and {@link #displacedReplicas}
 *       counts them; no move back is owed, the skipped server has no room. Step 5 then applies to the new home. So a
 *       block gets its r replicas whenever r servers have room, and its primary replica stays in gear 0 while any
 *       primary has room.</li>
 * </ol>
 * Equal work is kept in what the schedules deal (every server is dealt its b_i within one block, full or not) and
 * traded in what servers hold: a full server holds less than b_i and the servers after it take its overflow, so in a
 * gear that keeps them on the busiest server may serve more than B / n; a primary's overflow never leaves gear 0
 * while gear 0 has room, so every gear still holds every block. Weighting b_i by capacity instead
 * would keep each server's fill even, but then a small server holds less than B / n, and the layout would no longer
 * be equal-work at any gear; skipping full homes changes nothing until a server fills. Cost: a displaced replica
 * scans the servers after its home for room, O(servers it passes); without a {@code StorageRoom} (the NameNode's
 * chooseTarget, where HDFS checks space) no home is ever displaced and placement stays O(r log N).
 * A block with fewer replicas than the layout's r takes its non-primaries from a schedule with the weights scaled
 * down; replicas beyond the layout's r go to on servers as in step 5 (their home is where they land).
 *
 * <p>Worked example (Table 1 of Sec. 3.5, p = 100, r = 2): gear groups of g = 1, 5, 10, 20, 50, 100 servers need
 * recovery groups of 173, 36, 19, 10, 5, 3 servers ({@link EqualWorkShares#gearGroupsNeeded}); see
 * {@link #table1RecoveryGroupSize} for the paper's printed values.
 *
 * <p>Worked example of the low tier (p = 2, g = 1, r = 3 on 19 servers of one rack, so 17 gear groups with w_i =
 * 1 / (2 + i) and the last the remainder): w_1..w_4 = 1/3, 1/4, 1/5, 1/6 add up to W_4 = 0.95 and w_5 = 1/7 would
 * make 1.093, so T = 4. Of 600 blocks, 200, 150, 121, 100 have their lowest non-primary in gear group 1, 2, 3, 4
 * (600 w_i within one) and 29 above (600 (1 - W_4) = 30); with gear k = 1..4 on (n = 3..6 servers) the blocks whose
 * every non-primary is off are 400, 250, 129, 29, against 600 p / n = 400, 300, 240, 200.
 *
 * <p>Worked example of full homes (p = 2, g = 1, r = 2 on one rack of servers s0..s5): the first block's homes are
 * s0 (the first primary in turn) and s2 (the first gear group, the largest b_i). With s0 and s2 full it goes to s1
 * and s3, which become its homes, and the placement records s0 and s2 as displaced; with both primaries full the
 * primary replica goes to s3 (s1 is full and s2 is the other replica's home), leaving gear 0 only because gear 0 has
 * no room.
 *
 * <p>Thread-safe: the structure is immutable; each recovery group's schedule is guarded by the group's lock, so IPC
 * threads placing blocks of different groups do not wait for each other.
 */
public final class EqualWorkLayout extends NestedGears {
  private static final int[] NOT_DISPLACED = new int[0];

  private final ExpansionChain chain;
  private final EqualWorkShares shares;
  private final int primaries;
  private final int groupSize;
  private final int gridEnd;
  /** Servers that may hold data: N, or fewer for a read floor (a displaced non-primary stays below it). */
  private final int spread;
  /** Whether the primaries take blocks in proportion to their capacities (see {@link #byCapacity()}). */
  private final boolean byCapacity;
  /** The storage reserve the usable bytes by capacity leave free. */
  private final long reserveBytes;
  /** b / B of each primary (1 / p each unless dealt by capacity). */
  private final double[] primaryShares;
  private final RecoveryGroup[] groups;
  private final ActiveSet[] recoverySets;
  /** Each recovery group with the primaries it serves: every home of a block dealt to the group is in it. */
  private final ActiveSet[] columns;
  private final AtomicLong blocks = new AtomicLong();
  private final AtomicInteger offloadCursor = new AtomicInteger();
  private final AtomicInteger pastCursor = new AtomicInteger();
  private final AtomicLong rackSwaps = new AtomicLong();
  private final AtomicLong displacedReplicas = new AtomicLong();

  /**
   * @param primaries p, a multiple of {@code groupSize}
   * @param groupSize g, the servers of one gear group (and the number of recovery groups)
   * @param replicas r, the replicas per block the layout is built for (at least 2)
   */
  public EqualWorkLayout(ExpansionChain chain, int primaries, int groupSize, int replicas) {
    this(chain, primaries, groupSize, replicas, chain.size());
  }

  /**
   * A layout whose data spreads over the first {@code spread} servers of the chain only: their gear groups' weights
   * are scaled up to hold the r - 1 non-primary copies ({@link EqualWorkShares#of}, as on a cluster of {@code spread}
   * servers, so each still holds at least B / i: equal work at every gear), and the servers past them hold nothing
   * and form the last gear. EAFR on gears uses it for its read floor ({@link org.eafr.placement.gear.eafr.ReadFloor}).
   *
   * @param spread servers that hold data, in (p, N]
   */
  public EqualWorkLayout(ExpansionChain chain, int primaries, int groupSize, int replicas, int spread) {
    this(chain, primaries, groupSize, replicas, spread, false);
  }

  /**
   * The same, with {@code byCapacity} dealing each recovery group's blocks to its primaries in proportion to their
   * storage capacities ({@link ExpansionChain#capacity}): shares by bytes on disks of different sizes, so a primary
   * of 250 GB next to one of 750 GB holds a third of its blocks, and both fill alike. A primary without a known
   * capacity (0) makes the deal equal again. The non-primaries keep b_i = B / i: weighting them by capacity would
   * leave a small server below B / n, no longer equal work (see the class comment); on a chain ordered
   * {@link ExpansionChain#largestFirst} the largest b_i fall on the largest servers anyway.
   *
   * <p>Worked example (the unit test checks it): p = 2 primaries of 750 and 250 GB, g = 1, take 3 and 1 of every 4
   * blocks, shares 0.75 and 0.25 of one copy, where the equal deal gives 0.5 each and overflows the 250 GB primary
   * once one copy passes 500 GB.
   */
  public EqualWorkLayout(ExpansionChain chain, int primaries, int groupSize, int replicas, int spread,
      boolean byCapacity) {
    this(chain, primaries, groupSize, replicas, spread, byCapacity, 0);
  }

  /**
   * The same, by capacity with each server's usable bytes its capacity less {@code reserveBytes} (the storage reserve
   * HDFS and the simulator keep free). By capacity the layout also shares by room and deals by bytes:
   * <ul>
   *   <li>the gear groups' weights, when the cluster has fewer gear groups than the spread needs, go past the
   *       equal-work minimum B / n by room ({@link EqualWorkShares#byRoom}), so the servers just past the primaries,
   *       which the scaled B / n shares fill first, hold no more than the others;</li>
   *   <li>a primary or non-primary whose dealt bytes are ahead of its share of the bytes dealt so far by more than the
   *       largest block yet is passed over (it keeps its turn), so a server holds its share of the bytes within two
   *       blocks, where a deal by block counts leaves it the sum of its blocks' sizes (with sizes of 100 KB to 2 GB,
   *       3,400 blocks of a 740 GB server differ from their mean by 3% of it, one standard deviation).</li>
   * </ul>
   * {@link CapacityPrimaries#copyHeld} then says how much data the layout holds with every home below its room.
   */
  public EqualWorkLayout(ExpansionChain chain, int primaries, int groupSize, int replicas, int spread,
      boolean byCapacity, long reserveBytes) {
    this(chain, primaries, groupSize, replicas, spread, byCapacity && EqualWorkShape.capacitiesKnown(chain, primaries)
        ? CapacityPrimaries.usable(chain, reserveBytes) : null, reserveBytes);
  }

  private EqualWorkLayout(ExpansionChain chain, int primaries, int groupSize, int replicas, int spread, long[] usable,
      long reserveBytes) {
    this(chain, primaries, groupSize, EqualWorkShape.shares(chain, primaries, groupSize, replicas, spread, usable),
        spread, usable, reserveBytes);
  }

  private EqualWorkLayout(ExpansionChain chain, int primaries, int groupSize, EqualWorkShares shares, int spread,
      long[] usable, long reserveBytes) {
    super(chain, EqualWorkShape.gearSets(chain, primaries, groupSize, shares));
    this.chain = chain;
    this.byCapacity = usable != null;
    this.reserveBytes = reserveBytes;
    this.primaryShares = EqualWorkShape.primaryShares(primaries, groupSize, usable);
    this.spread = spread;
    this.primaries = primaries;
    this.groupSize = groupSize;
    this.shares = shares;
    this.gridEnd = primaries + shares.gearGroups() * groupSize;
    this.groups = new RecoveryGroup[groupSize];
    this.recoverySets = new ActiveSet[groupSize];
    this.columns = new ActiveSet[groupSize];
    for (int c = 0; c < groupSize; c++) {
      groups[c] = new RecoveryGroup(c);
      recoverySets[c] = ActiveSet.of(chain, groups[c].servers);
      columns[c] = recoverySets[c].union(ActiveSet.of(chain, groups[c].primaryPositions));
    }
  }

  /**
   * The layout from {@code settings} (eafr.gear.primaries, eafr.gear.group-size, eafr.gear.replicas,
   * eafr.gear.capacity-aware); p = 0 there means {@link #defaultPrimaries}.
   */
  public static EqualWorkLayout from(EafrSettings settings, ExpansionChain chain) {
    return from(settings, chain, chain.size());
  }

  /**
   * The same on a chain extended after it was fixed with {@code sizedFor} servers: the default p is computed from
   * {@code sizedFor}, so appending servers keeps the primaries, the recovery groups and every gear the chain had
   * (positions 0 .. sizedFor - 1 keep their gear group and recovery group); the appended servers fill the next gear
   * groups, and the gear-group weights are scaled again for the longer chain ({@link EqualWorkShares#of}).
   *
   * <p>Worked example (the unit test checks it): p = 4, g = 2, r = 3 on 12 servers has gears 0..4 (4, 6, 8, 10, 12
   * servers on) and a first gear-group weight 2 / (1/3 + 1/4 + 1/5 + 1/6) / 3 = 0.702; extended to 16 it has gears
   * 0..6, the same first five sets, and a first weight 2 / (0.95 + 1/7 + 1/8) / 3 = 0.547.
   */
  public static EqualWorkLayout from(EafrSettings settings, ExpansionChain chain, int sizedFor) {
    int groupSize = settings.get(EafrSettings.GEAR_GROUP_SIZE);
    int replicas = settings.get(EafrSettings.GEAR_REPLICAS);
    int primaries = settings.get(EafrSettings.GEAR_PRIMARIES);
    return new EqualWorkLayout(chain, primaries > 0 ? primaries : defaultPrimaries(Math.min(sizedFor, chain.size()),
        replicas, groupSize), groupSize, replicas, chain.size(), settings.get(EafrSettings.GEAR_CAPACITY_AWARE) == 1,
        settings.storageReserveBytes());
  }

  /**
   * The p whose spread fills a cluster of N servers, N / e^(r-1) (Eq. 3 solved for p; SpringFS's p = N / e^2 for
   * r = 3), rounded down to a multiple of g and at least g.
   */
  public static int defaultPrimaries(int servers, int replicas, int groupSize) {
    int p = (int) Math.floor(servers / Math.exp(replicas - 1) / groupSize) * groupSize;
    return Math.max(groupSize, p);
  }

  /**
   * Table 1 of Rabbit as printed: G + 1 for the G of {@link EqualWorkShares#gearGroupsNeeded} with r = 2, for each of
   * its six rows (174, 37, 20, 11, 6, 4 for g = 1, 5, 10, 20, 50, 100 with p = 100). The text does not say what the
   * extra server is; the closed form it prints, ((p + g) e - p) / g, is off by a fraction for g = 1 and g = 10.
   * Our recovery groups have G servers, which already hold every non-primary replica of their primaries.
   */
  public static int table1RecoveryGroupSize(int primaries, int groupSize) {
    return EqualWorkShares.gearGroupsNeeded(primaries, groupSize, 2) + 1;
  }

  @Override
  public String name() {
    return "equal-work";
  }

  public EqualWorkShares shares() {
    return shares;
  }

  public int primaries() {
    return primaries;
  }

  public int groupSize() {
    return groupSize;
  }

  /** Whether the primaries take blocks in proportion to their capacities (eafr.gear.capacity-aware on a chain that knows them). */
  public boolean byCapacity() {
    return byCapacity;
  }

  /** The storage reserve each server's usable bytes leave free when the layout is by capacity. */
  public long reserveBytes() {
    return reserveBytes;
  }

  /** G, the gear groups that hold data. */
  public int gearGroups() {
    return shares.gearGroups();
  }

  /** Blocks whose non-primary gave way to another rack (see the class comment). */
  public long rackSwaps() {
    return rackSwaps.get();
  }

  /** Replicas whose target home had no room and went to another server (see the class comment). */
  public long displacedReplicas() {
    return displacedReplicas.get();
  }

  @Override
  public int gearOf(int position) {
    chain.id(position);
    if (position < primaries) {
      return 0;
    }
    return position < gridEnd ? (position - primaries) / groupSize + 1 : maximumGear();
  }

  /** The recovery group (0 .. g-1) of a primary or gear-group server; -1 for a server past the last gear group. */
  public int recoveryGroupOf(int position) {
    chain.id(position);
    if (position < primaries) {
      return position % groupSize;
    }
    return position < gridEnd ? (position - primaries) % groupSize : -1;
  }

  @Override
  public ActiveSet recoveryGroup(int failed) {
    chain.id(failed);
    return failed < primaries ? recoverySets[failed % groupSize] : ActiveSet.none(chain);
  }

  /**
   * A block's homes are its primary and r - 1 servers of that primary's recovery group (Sec. 3.5), so a home's mates
   * are its recovery group, and for a non-primary also the primaries the group serves (a block has one primary). A
   * server past the last gear group is no block's home: its mates are every other server. (A home displaced for room,
   * with a {@link org.eafr.placement.gear.StorageRoom}, may leave the group; the NameNode places without one.)
   */
  @Override
  public ActiveSet homeMates(int position) {
    int group = recoveryGroupOf(position);
    if (group < 0) {
      return ActiveSet.all(chain).without(position);
    }
    return position < primaries ? recoverySets[group] : columns[group].without(position);
  }

  @Override
  public double share(int position) {
    chain.id(position);
    if (position < primaries) {
      return byCapacity ? primaryShares[position] : shares.primaryShare();
    }
    return position < gridEnd ? shares.secondaryShare(gearOf(position)) : 0;
  }

  @Override
  public BlockPlacement place(BlockRequest request, ActiveSet on) {
    int[] homes = new int[request.replication()];
    int dealt = groups[(int) Math.floorMod(blocks.getAndIncrement(), (long) groupSize)].deal(homes,
        byCapacity ? request.bytes() : 0);
    int[] holders = new int[homes.length];
    int[] displaced = NOT_DISPLACED;
    int placed = 0;
    for (int i = 0; i < homes.length; i++) {
      int home = i < dealt ? homes[i] : -1;
      if (home >= 0 && !request.fits(home)) {
        displaced = displaced.length > 0 ? displaced : noneDisplaced(homes.length);
        displaced[i] = home;
        home = displacedHome(request, home, homes, dealt, holders, placed);
        homes[i] = home;
        displacedReplicas.incrementAndGet();
      }
      boolean atHome = home >= 0 && on.contains(home) && !request.excludes(home)
          && !Positions.contains(holders, placed, home);
      int holder = atHome ? home : offloadTarget(request, on, holders, placed, homes, dealt);
      if (holder < 0) {
        return BlockPlacement.stoppedAt(chain, holders, homes, placed, unreachedWithRoom(request, homes, i, dealt),
            displaced);
      }
      homes[i] = home >= 0 ? home : holder;
      holders[placed++] = holder;
    }
    return new BlockPlacement(chain, Arrays.copyOf(holders, placed), Arrays.copyOf(homes, placed), NOT_DISPLACED,
        displaced);
  }

  /** The dealt homes from replica {@code from} on that have room: what the placement owes once they wake. */
  private static int[] unreachedWithRoom(BlockRequest request, int[] homes, int from, int dealt) {
    int[] unreached = Arrays.copyOfRange(homes, Math.min(from, dealt), dealt);
    for (int k = 0; k < unreached.length; k++) {
      unreached[k] = unreached[k] >= 0 && request.fits(unreached[k]) ? unreached[k] : -1;
    }
    return unreached;
  }

  private static int[] noneDisplaced(int replicas) {
    int[] displaced = new int[replicas];
    Arrays.fill(displaced, -1);
    return displaced;
  }

  /**
   * The home of a replica whose target home {@code full} has no room: the first server after it, in chain order and
   * within its tier (the primaries for a primary, so that gear 0 still holds the block; the rest of the spread for a
   * non-primary, so that the replica lands in the nearest gear above), that can take the block, on a new rack when
   * the holders so far share one; the whole chain when the tier has no room; -1 when no server has room.
   */
  private int displacedHome(BlockRequest request, int full, int[] homes, int dealt, int[] holders, int placed) {
    boolean primary = full < primaries;
    int found = firstWithRoom(request, full, primary ? 0 : primaries, primary ? primaries : spread, homes,
        dealt, holders, placed);
    return found >= 0 ? found : firstWithRoom(request, full, 0, chain.size(), homes, dealt, holders, placed);
  }

  private int firstWithRoom(BlockRequest request, int after, int from, int to, int[] homes, int dealt, int[] holders,
      int placed) {
    int sharedRack = sharedRack(holders, placed);
    int fallback = -1;
    for (int step = 1; step <= to - from; step++) {
      int p = from + Math.floorMod(after - from + step, to - from);
      if (canTake(request, p, holders, placed, homes, dealt)) {
        if (sharedRack < 0 || chain.rack(p) != sharedRack) {
          return p;
        }
        fallback = fallback < 0 ? p : fallback;
      }
    }
    return fallback;
  }

  /**
   * Where a replica whose home is off goes (by capacity, where the primaries keep headroom): a primary that is on, in
   * turn from a rotating cursor, else the next server
   * on past the primaries after a second rotating cursor; one that can take the block (not excluded, not a holder, not another
   * replica's home, with room), on a new rack when the holders so far share one; -1 when no on server can take it.
   * Why the primaries first: they never sleep, so a replica offloaded there keeps no later gear-down waiting for its
   * move home; in turn, so that no primary takes the writes of all. (A cursor
   * counting through every chain position sent each position past the last server on to the first server on: in gear
   * 0 of 54 primaries on 300 servers, 247 of every 300 offloads went to position 0, until it filled.)
   */
  private int offloadTarget(BlockRequest request, ActiveSet on, int[] holders, int placed, int[] homes, int dealt) {
    if (!byCapacity) {
      return nextOnTarget(request, on, holders, placed, homes, dealt);
    }
    int sharedRack = sharedRack(holders, placed);
    int start = Math.floorMod(offloadCursor.getAndIncrement(), primaries);
    int fallback = -1;
    for (int step = 0; step < primaries; step++) {
      int p = (start + step) % primaries;
      if (on.contains(p) && canTake(request, p, holders, placed, homes, dealt)) {
        if (sharedRack < 0 || chain.rack(p) != sharedRack) {
          return p;
        }
        fallback = fallback < 0 ? p : fallback;
      }
    }
    int first = nextPast(on, primaries + Math.floorMod(pastCursor.getAndIncrement(), chain.size() - primaries));
    int found = firstTaker(request, holders, placed, homes, dealt, first, p -> nextPast(on, p));
    boolean newRack = found >= 0 && (sharedRack < 0 || chain.rack(found) != sharedRack);
    return newRack || fallback < 0 ? found : fallback;
  }

  /**
   * Without capacities: the next on server after the last one an offload went to that can take the block, on a new
   * rack when the holders so far share one, so the offloads go round the servers on in turn. The cursor is a server
   * on, not a chain position: counted over positions, every position past the last server on would send its offload
   * to the first server on, an incast into a few servers in a low gear ({@code EqualWorkOffloadSpreadTest}). Two
   * writers reading the cursor at once may pick the same server; that only repeats one turn. Their primaries are not
   * sized with headroom for offloads (p = N / e^2 overflows past 39% fill in the fill scenario), so offloads there
   * would take the primary replicas' room and push more of them out of gear 0.
   */
  private int nextOnTarget(BlockRequest request, ActiveSet on, int[] holders, int placed, int[] homes, int dealt) {
    int first = nextOn(on, Math.floorMod(offloadCursor.get() + 1, chain.size()));
    int found = firstTaker(request, holders, placed, homes, dealt, first, p -> nextOn(on, p));
    if (found >= 0) {
      offloadCursor.set(found);
    }
    return found;
  }

  /**
   * The first server from {@code first} on, stepping by {@code next} (the next candidate at or after a position) once
   * round, that can take the block, on a new rack when the holders so far share one (else the first that can take
   * it); -1 when none can.
   */
  private int firstTaker(BlockRequest request, int[] holders, int placed, int[] homes, int dealt, int first,
      IntUnaryOperator next) {
    int sharedRack = sharedRack(holders, placed);
    int fallback = -1;
    for (int p = first; p >= 0; p = next.applyAsInt(p + 1)) {
      if (canTake(request, p, holders, placed, homes, dealt)) {
        if (sharedRack < 0 || chain.rack(p) != sharedRack) {
          return p;
        }
        fallback = fallback < 0 ? p : fallback;
      }
      if (next.applyAsInt(p + 1) == first) {
        break;
      }
    }
    return fallback;
  }

  /** The next on server at or after {@code from}, wrapping around the chain once; -1 when none is on. */
  private int nextOn(ActiveSet on, int from) {
    int p = from < chain.size() ? on.next(from) : -1;
    return p >= 0 ? p : on.next(0);
  }

  /** The next on server past the primaries at or after {@code from}, wrapping to the first once; -1 when none. */
  private int nextPast(ActiveSet on, int from) {
    int p = from < chain.size() ? on.next(from) : -1;
    return p >= 0 ? p : on.next(primaries);
  }

  private static boolean canTake(BlockRequest request, int p, int[] holders, int placed, int[] homes, int dealt) {
    return !request.excludes(p) && !Positions.contains(holders, placed, p) && !Positions.contains(homes, dealt, p)
        && request.fits(p);
  }

  /** The rack every holder so far is on, or -1 when they span two racks, there are none, or the chain has one rack. */
  private int sharedRack(int[] holders, int placed) {
    return placed > 0 && chain.rackCount() > 1 && sameRack(holders, placed) ? chain.rack(holders[0]) : -1;
  }

  private boolean sameRack(int[] positions, int count) {
    for (int i = 1; i < count; i++) {
      if (chain.rack(positions[i]) != chain.rack(positions[0])) {
        return false;
      }
    }
    return true;
  }


  /** One recovery group: its primaries, its gear-group servers, and the schedules that deal their replicas. */
  private final class RecoveryGroup {
    private final int[] primaryPositions;
    private final int[] servers;
    private final PrimaryDeal primaryDeal;
    private final Map<Integer, PfairSchedule> schedules = new HashMap<>();
    private final Map<Integer, Integer> lowTiers = new HashMap<>();
    /** Bytes dealt to each gear-group server (by capacity only), the non-primary replicas' bytes, the largest block. */
    private final long[] serverBytes;
    private double replicaBytes;
    private long largestBlock;

    RecoveryGroup(int column) {
      primaryPositions = new int[primaries / groupSize];
      for (int j = 0; j < primaryPositions.length; j++) {
        primaryPositions[j] = column + j * groupSize;
      }
      servers = new int[shares.gearGroups()];
      for (int i = 0; i < servers.length; i++) {
        servers[i] = primaries + i * groupSize + column;
      }
      primaryDeal = new PrimaryDeal(primaryPositions.length, servers.length + 1, byCapacity ? capacities() : null);
      serverBytes = new long[servers.length];
    }

    private double[] capacities() {
      double[] capacities = new double[primaryPositions.length];
      for (int j = 0; j < capacities.length; j++) {
        capacities[j] = primaryShares[primaryPositions[j]];
      }
      return capacities;
    }

    /**
     * Fills homes[0] with the primary and homes[1..] with non-primaries for a block of {@code bytes} (0: dealt by
     * count only); returns how many homes it dealt.
     */
    synchronized int deal(int[] homes, long bytes) {
      int nonPrimaries = Math.min(homes.length - 1, shares.replicas() - 1);
      if (nonPrimaries == 0) {
        int primary = primaryDeal.choose(servers.length, j -> true);
        primaryDeal.take(primary, servers.length, bytes);
        homes[0] = primaryPositions[primary];
        return 1;
      }
      PfairSchedule schedule = schedule(nonPrimaries);
      int lowTier = lowTier(nonPrimaries);
      schedule.beginSlot();
      int[] skipped = null; // allocated at the first skip only: most blocks skip no server
      int skips = 0;
      for (int k = 1; k <= nonPrimaries; k++) {
        int index = schedule.poll();
        while (index >= 0 && (!allowed(index, homes, k - 1, lowTier) || bytesAhead(index))) {
          skipped = skipped != null ? skipped : new int[servers.length];
          skipped[skips++] = index;
          index = schedule.poll();
        }
        if (index < 0) {
          int pick = firstAllowed(skipped, skips, homes, k - 1, lowTier);
          index = skipped[pick];
          skipped[pick] = skipped[--skips];
        }
        homes[k] = servers[index];
        if (bytes > 0) {
          serverBytes[index] += bytes;
        }
      }
      for (int k = 0; k < skips; k++) {
        schedule.putBack(skipped[k]);
      }
      int primary = primaryDeal.choose(lowestGroup(homes, nonPrimaries), j -> offRack(primaryPositions[j], homes,
          nonPrimaries));
      homes[0] = primaryPositions[primary];
      if (!offRack(homes[0], homes, nonPrimaries)) {
        swapForRack(schedule, homes, nonPrimaries, chain.rack(homes[0]), lowTier);
      }
      for (int k = 1; k <= nonPrimaries; k++) {
        schedule.take(indexOf(homes[k]));
      }
      schedule.endSlot();
      primaryDeal.take(primary, lowestGroup(homes, nonPrimaries), bytes);
      replicaBytes += (double) bytes * nonPrimaries;
      largestBlock = Math.max(largestBlock, bytes);
      return nonPrimaries + 1;
    }

    /**
     * Whether gear group {@code index}'s server was dealt more bytes than its share of the non-primary replicas'
     * bytes so far, w_i / (r - 1) of them, by more than the largest block yet.
     */
    private boolean bytesAhead(int index) {
      return largestBlock > 0 && serverBytes[index] > shares.weight(index + 1) / (shares.replicas() - 1) * replicaBytes
          + largestBlock;
    }

    /** The first of the skipped servers that keeps the low-tier rule (the last skipped when none does). */
    private int firstAllowed(int[] skipped, int skips, int[] homes, int dealt, int lowTier) {
      for (int s = 0; s < skips; s++) {
        if (allowed(skipped[s], homes, dealt, lowTier)) {
          return s;
        }
      }
      return skips - 1;
    }

    /** Whether a block with this primary and these non-primaries spans two racks, or the chain has one rack. */
    private boolean offRack(int primary, int[] homes, int nonPrimaries) {
      boolean offRack = chain.rackCount() == 1;
      for (int k = 1; k <= nonPrimaries; k++) {
        offRack |= chain.rack(homes[k]) != chain.rack(primary);
      }
      return offRack;
    }

    /** The lowest gear group (0-based index in this recovery group) among homes[1..nonPrimaries]. */
    private int lowestGroup(int[] homes, int nonPrimaries) {
      int lowest = Integer.MAX_VALUE;
      for (int k = 1; k <= nonPrimaries; k++) {
        lowest = Math.min(lowest, indexOf(homes[k]));
      }
      return lowest;
    }

    /** The last dealt non-primary gives way to the group's next server on another rack than {@code rack}. */
    private void swapForRack(PfairSchedule schedule, int[] homes, int nonPrimaries, int rack, int lowTier) {
      int[] polled = new int[servers.length];
      int count = 0;
      int replacement = -1;
      for (int index = schedule.poll(); index >= 0; index = schedule.poll()) {
        if (chain.rack(servers[index]) != rack && allowed(index, homes, nonPrimaries - 1, lowTier)) {
          replacement = index;
          break;
        }
        polled[count++] = index;
      }
      for (int k = 0; k < count; k++) {
        schedule.putBack(polled[k]);
      }
      if (replacement >= 0) {
        schedule.putBack(indexOf(homes[nonPrimaries]));
        homes[nonPrimaries] = servers[replacement];
        rackSwaps.incrementAndGet();
      }
    }

    /** Whether gear group {@code index} may join homes[1..dealt]: at most one non-primary of a block is low-tier. */
    private boolean allowed(int index, int[] homes, int dealt, int lowTier) {
      return index >= lowTier || lowestGroup(homes, dealt) >= lowTier;
    }

    /**
     * The low tier: the first gear groups of the group whose weights (for {@code nonPrimaries} replicas) add up to at
     * most 1, so that a block may take at most one of them (see the class comment).
     */
    private int lowTier(int nonPrimaries) {
      return lowTiers.computeIfAbsent(nonPrimaries, m -> {
        double[] weights = weights(m);
        double sum = 0;
        int tier = 0;
        while (tier < weights.length && sum + weights[tier] <= 1 + 1e-12) {
          sum += weights[tier++];
        }
        return tier;
      });
    }

    private int indexOf(int position) {
      return (position - primaries) / groupSize;
    }

    private PfairSchedule schedule(int nonPrimaries) {
      return schedules.computeIfAbsent(nonPrimaries, m -> new PfairSchedule(weights(m), m));
    }

    /** The gear groups' weights for blocks of m non-primaries: the shares' weights scaled to add up to m. */
    private double[] weights(int m) {
      double[] weights = shares.weights();
      for (int i = 0; i < weights.length; i++) {
        weights[i] *= (double) m / (shares.replicas() - 1);
      }
      return weights;
    }
  }
}
