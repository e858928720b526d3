package org.eafr.placement.gear.accordion;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.NestedGears;
import org.eafr.placement.gear.Positions;
import org.eafr.placement.settings.EafrSettings;
import org.eafr.placement.settings.InvalidSettingException;

/**
 * Accordion's placement (Le, Hikida and Yokota, Sec. 3.2): the servers form groups, the lowest the smallest, and gear
 * k keeps groups 0..k on. Primary data is spread over every server equally; the data stored in each group is replicated
 * into the next lower group, from the highest down; the lowest group protects its data by chained declustering (each
 * server's data also on its neighbour). So a low gear already holds a copy of everything, and data written in a low
 * gear lacks only the copies that belong to the sleeping groups (Sec. 3.4: only that remainder is reflected).
 *
 * <p>Homes of a block whose primary is server x of group k (chain positions; group j starts at s_j and has n_j
 * servers): the replica of group j-1 is the server at s_{j-1} + (i mod n_{j-1}), where i is the index in group j of the
 * block's server there, down to group 0; then the group-0 server's chained neighbour, s_0 + ((i_0 + 1) mod n_0). With r
 * replicas the layout keeps, in this order: the primary, the group-0 copy (availability in the lowest gear), its
 * neighbour (reliability in the lowest gear), then the copies of groups 1..k-1 from the lowest up; more replicas go to
 * the next servers of the chain above the lowest group: after the primary, or for a primary in group 0 after its image
 * in group 1, s_1 + (x mod n_1). So the lowest group holds the chained pair of every block and no more (unless every
 * server above it is a home already): a lowest group of r servers would otherwise hold all r copies of its primaries'
 * blocks, and a failure there in gear 0 would leave them no server on to be re-replicated to. Primaries are dealt to
 * servers in turn, so each holds the same primary data.
 *
 * <p>Writes in a gear that leaves homes asleep: a home that is on gets its replica; the replicas of sleeping homes are
 * missing (not written elsewhere: the low gear already holds the block's group-0 copies) and the placement names them,
 * so the {@link org.eafr.placement.gear.OffloadLedger} owes exactly them at gear-up ({@link Reflection} batches them).
 * If fewer than two replicas reached servers that are on, the next on servers take copies (offloaded, to be moved
 * home later) so that a block written in a low gear is never on one server only.
 *
 * <p>Worked example (the paper's Fig. 1: four nodes, low gear = nodes 2 and 3, high gear adds nodes 1 and 4; chain
 * positions 0, 1 = nodes 2, 3 and 2, 3 = nodes 1, 4; r = 3): a block with primary on node 1 has homes node 1, node 2
 * (group 0 copy) and node 3 (node 2's chained neighbour); one with primary on node 2 has node 2, node 3, and then node
 * 1 (its image in group 1, position 2 + (0 mod 2)); one with primary on node 3 has node 3, node 2 and node 4 (position
 * 2 + (1 mod 2)). Written in the low gear, the first two lack only their copy on node 1, the third its copy on node 4:
 * the reflection at gear-up is one block copy each.
 *
 * <p>Immutable apart from the primary turn (atomic); thread-safe.
 */
public final class AccordionLayout extends NestedGears {
  private final ExpansionChain chain;
  private final int[] groupStart;
  private final int[] groupSize;
  private final int replicas;
  private final int[][] homesByPrimary;
  private final ActiveSet[] recoverySets;
  private final ActiveSet[] homeMates;
  private final double[] shares;
  private final AtomicLong turn = new AtomicLong();
  private final AtomicInteger cursor = new AtomicInteger();

  /**
   * @param groupSizes the servers of each group, lowest first; they must add up to the chain's size, and the lowest
   *     needs at least two servers (chained declustering)
   * @param replicas r, at least 2
   */
  public AccordionLayout(ExpansionChain chain, int[] groupSizes, int replicas) {
    super(chain, gearSets(chain, groupSizes));
    this.chain = chain;
    int total = Arrays.stream(groupSizes).sum();
    if (groupSizes.length == 0 || total != chain.size() || groupSizes[0] < 2 || replicas < 2
        || Arrays.stream(groupSizes).anyMatch(n -> n < 1) || replicas > chain.size()) {
      throw new IllegalArgumentException("groups " + Arrays.toString(groupSizes) + " with r = " + replicas
          + " are not allowed on " + chain.size() + " servers: expected groups of at least one server adding up to "
          + chain.size() + ", a lowest group of at least 2 and 2 <= r <= " + chain.size());
    }
    this.groupSize = groupSizes.clone();
    this.groupStart = new int[groupSizes.length];
    for (int k = 1; k < groupSizes.length; k++) {
      groupStart[k] = groupStart[k - 1] + groupSizes[k - 1];
    }
    this.replicas = replicas;
    this.homesByPrimary = new int[chain.size()][];
    this.shares = new double[chain.size()];
    for (int x = 0; x < chain.size(); x++) {
      homesByPrimary[x] = computeHomes(x);
      for (int home : homesByPrimary[x]) {
        shares[home] += 1.0 / chain.size();
      }
    }
    this.recoverySets = new ActiveSet[chain.size()];
    for (int f = 0; f < chain.size(); f++) {
      recoverySets[f] = computeRecoverySet(f);
    }
    this.homeMates = computeHomeMates();
  }

  /** Gear k keeps groups 0..k on: the first s_k + n_k servers. */
  private static ActiveSet[] gearSets(ExpansionChain chain, int[] groupSizes) {
    ActiveSet[] gears = new ActiveSet[groupSizes.length];
    int end = 0;
    for (int k = 0; k < groupSizes.length; k++) {
      end += Math.max(0, groupSizes[k]);
      gears[k] = ActiveSet.firstN(chain, Math.min(end, chain.size()));
    }
    return gears;
  }

  /**
   * The layout from {@code settings}: eafr.gear.accordion.lowest-group servers in the lowest group (0 means
   * {@link #defaultLowestGroup}), groups growing by eafr.gear.accordion.growth ({@link #geometricGroups}), r =
   * eafr.gear.replicas. A lowest group larger than the chain throws naming the key and what is allowed.
   */
  public static AccordionLayout from(EafrSettings settings, ExpansionChain chain) {
    return from(settings, chain, chain.size());
  }

  /**
   * The same on a chain extended after it was fixed with {@code sizedFor} servers: the default lowest group is
   * computed from {@code sizedFor}, so appending servers keeps every group but the last as it was (the groups grow
   * geometrically from the lowest; the last takes the rest, or new groups follow it), and with them every home of
   * every primary already in the chain. Worked example: a lowest group of 3 growing by 2 is 3, 6, 3 on 12 servers
   * and 3, 6, 7 on 16; 3, 6, 12, 1 on 22.
   */
  public static AccordionLayout from(EafrSettings settings, ExpansionChain chain, int sizedFor) {
    int configured = settings.get(EafrSettings.GEAR_ACCORDION_LOWEST_GROUP);
    int lowest = configured > 0 ? configured : defaultLowestGroup(Math.min(sizedFor, chain.size()));
    if (lowest > chain.size()) {
      throw new InvalidSettingException(EafrSettings.GEAR_ACCORDION_LOWEST_GROUP.key(), String.valueOf(configured),
          "0 (N / 5) or 2.." + chain.size() + ": the expansion chain has " + chain.size() + " servers");
    }
    return new AccordionLayout(chain, geometricGroups(chain.size(), lowest,
        settings.get(EafrSettings.GEAR_ACCORDION_GROWTH)), settings.get(EafrSettings.GEAR_REPLICAS));
  }

  /**
   * N / 5 servers, at least 3 (all of a chain of 2 or 3): the simulator's 60 of 300, 3 of 12 or 16. The lowest group
   * holds the chained pair of every block; with a third server, a failure there in gear 0 leaves each of the failed
   * server's blocks a copy and a server without one on, so it can be re-replicated without waking anyone. A lowest
   * group of 2 holds both copies of every block on its two servers: after one failure the other holds everything.
   */
  public static int defaultLowestGroup(int servers) {
    return Math.min(servers, Math.max(3, (int) Math.round(servers / 5.0)));
  }

  /** The servers of each group, lowest first (a copy). */
  public int[] groupSizes() {
    return groupSize.clone();
  }

  /** Groups that grow by {@code factor} from {@code lowest} servers, the last taking the rest (e.g. 2, 6, 12 of 20). */
  public static int[] geometricGroups(int servers, int lowest, double factor) {
    List<Integer> sizes = new ArrayList<>();
    int used = 0;
    for (double size = lowest; used + Math.round(size) < servers; size *= factor) {
      sizes.add((int) Math.round(size));
      used += (int) Math.round(size);
    }
    sizes.add(servers - used);
    return sizes.stream().mapToInt(Integer::intValue).toArray();
  }

  @Override
  public String name() {
    return "accordion";
  }

  @Override
  public int gearOf(int position) {
    chain.id(position);
    int k = groupSize.length - 1;
    while (groupStart[k] > position) {
      k--;
    }
    return k;
  }

  @Override
  public ActiveSet recoveryGroup(int failed) {
    chain.id(failed);
    return recoverySets[failed];
  }

  @Override
  public double share(int position) {
    chain.id(position);
    return shares[position];
  }

  /**
   * The homes of every primary whose homes include {@code position}, without it: in Fig. 1's example (homes by
   * primary 0: 0, 1, 2; 1: 1, 0, 3; 2: 2, 0, 1; 3: 3, 1, 0), node 2's mates are 0 and 1, and node 0's are 1, 2 and 3.
   */
  @Override
  public ActiveSet homeMates(int position) {
    chain.id(position);
    return homeMates[position];
  }

  private ActiveSet[] computeHomeMates() {
    BitSet[] mates = new BitSet[chain.size()];
    for (int h = 0; h < mates.length; h++) {
      mates[h] = new BitSet(chain.size());
    }
    for (int[] homes : homesByPrimary) {
      for (int h : homes) {
        for (int other : homes) {
          mates[h].set(other);
        }
      }
    }
    ActiveSet[] sets = new ActiveSet[mates.length];
    for (int h = 0; h < mates.length; h++) {
      mates[h].clear(h);
      sets[h] = ActiveSet.of(chain, mates[h]);
    }
    return sets;
  }

  /** The homes of a block whose primary is the server at {@code primary}, in the order replicas are placed. */
  public int[] homesOf(int primary) {
    chain.id(primary);
    return homesByPrimary[primary].clone();
  }

  @Override
  public BlockPlacement place(BlockRequest request, ActiveSet on) {
    return placeAt(homesFor(nextPrimary(), request.replication()), request, on);
  }

  /**
   * The homes of a block already written keep its copies in the lowest group where they are, so that only the copies
   * of the groups above are owed (Sec. 3.4: the remainder is reflected, not the block). Its primary is the first
   * server, from the primaries' turn on, whose homes in group 0 all hold the block; when no server's do (a block placed
   * by other means), the first whose homes hold the most of it. O(N r).
   *
   * <p>Worked example (Fig. 1's four nodes, groups of 2 and 2, r = 3: homes by primary 0: 0, 1, 2; 1: 1, 0, 3; 2: 2,
   * 0, 1; 3: 3, 1, 0): a block written in the low gear on 0 and 1 gets, with the turn at 0, 1, 2, 3, the homes 0, 1, 2
   * / 1, 0, 3 / 2, 0, 1 / 3, 1, 0: one copy owed, to server 2 or 3, whatever the turn; a block on 0 and 2 only (no
   * chained pair) gets 0, 1, 2 with the turn at 0, 2, 0, 1 with it at 1 (1, 0, 3 would keep one of its holders, 2,
   * 0, 1 keeps both), and 0, 1, 2 again with it at 3.
   */
  @Override
  public BlockPlacement placeExisting(BlockRequest request, ActiveSet on, int[] holders) {
    int start = nextPrimary();
    int best = start;
    int bestKept = -1;
    for (int k = 0; k < chain.size(); k++) {
      int primary = (start + k) % chain.size();
      int[] homes = homesFor(primary, request.replication());
      if (lowestGroupHeld(homes, holders)) {
        best = primary;
        break;
      }
      int kept = 0;
      for (int home : homes) {
        kept += Positions.contains(holders, holders.length, home) ? 1 : 0;
      }
      if (kept > bestKept) {
        best = primary;
        bestKept = kept;
      }
    }
    return placeAt(homesFor(best, request.replication()), request, on);
  }

  private int nextPrimary() {
    return (int) Math.floorMod(turn.getAndIncrement(), (long) chain.size());
  }

  private boolean lowestGroupHeld(int[] homes, int[] holders) {
    for (int home : homes) {
      if (home < groupSize[0] && !Positions.contains(holders, holders.length, home)) {
        return false;
      }
    }
    return true;
  }

  /** The placement of a block with {@code homes}: on the homes that are on, stand-ins until two copies are on. */
  private BlockPlacement placeAt(int[] homes, BlockRequest request, ActiveSet on) {
    int[] holders = new int[homes.length];
    int[] placedHomes = new int[homes.length];
    int[] missing = new int[homes.length];
    int placed = 0;
    int missed = 0;
    for (int home : homes) {
      if (on.contains(home) && !request.excludes(home)) {
        placedHomes[placed] = home;
        holders[placed++] = home;
      } else {
        missing[missed++] = home;
      }
    }
    // Never leave a block written in a low gear on a single server: stand-ins take copies until two are on.
    for (int k = 0; placed < Math.min(2, homes.length) && k < missed; k++) {
      int standIn = standIn(request, on, holders, placed, homes);
      if (standIn < 0) {
        break;
      }
      placedHomes[placed] = missing[k];
      holders[placed++] = standIn;
      missing[k] = -1;
    }
    int[] stillMissing = Arrays.stream(Arrays.copyOf(missing, missed)).filter(h -> h >= 0).toArray();
    return new BlockPlacement(chain, Arrays.copyOf(holders, placed), Arrays.copyOf(placedHomes, placed),
        stillMissing);
  }

  private int[] homesFor(int primary, int count) {
    int[] base = homesByPrimary[primary];
    return count <= base.length ? Arrays.copyOf(base, count) : extend(primary, base, count);
  }

  /** The next on server after a rotating cursor that holds nothing of the block and is none of its homes. */
  private int standIn(BlockRequest request, ActiveSet on, int[] holders, int placed, int[] homes) {
    int first = on.next(Math.floorMod(cursor.getAndIncrement(), chain.size()));
    first = first >= 0 ? first : on.next(0);
    for (int p = first, seen = 0; p >= 0 && seen < chain.size(); seen++) {
      if (!request.excludes(p) && !Positions.contains(holders, placed, p)
          && !Positions.contains(homes, homes.length, p)) {
        return p;
      }
      p = on.next(p + 1);
      p = p >= 0 ? p : on.next(0);
      if (p == first) {
        break;
      }
    }
    return -1;
  }

  /** The layout's homes of a primary at {@code x}, truncated or extended to r (see the class comment). */
  private int[] computeHomes(int x) {
    int k = gearOf(x);
    int[] down = new int[k + 1]; // down[j] = the block's server in group j, for j = 0..k
    down[k] = x;
    for (int j = k; j > 0; j--) {
      down[j - 1] = groupStart[j - 1] + (down[j] - groupStart[j]) % groupSize[j - 1];
    }
    int neighbour = groupStart[0] + (down[0] - groupStart[0] + 1) % groupSize[0];
    List<Integer> order = new ArrayList<>();
    order.add(x);
    if (k > 0) {
      order.add(down[0]);
    }
    order.add(neighbour);
    for (int j = 1; j < k; j++) {
      order.add(down[j]);
    }
    int[] all = order.stream().mapToInt(Integer::intValue).distinct().toArray();
    int[] homes = Arrays.copyOf(all, Math.min(replicas, all.length));
    return homes.length < replicas ? extend(x, homes, replicas) : homes;
  }

  /**
   * {@code homes} (of the primary at {@code x}) extended to {@code count} servers: the next servers of the chain
   * outside the lowest group, from x + 1, or for a primary in the lowest group from its image in group 1, s_1 + (x mod
   * n_1), so that the lowest group's primaries spread their extra copies over group 1; the lowest group's other
   * servers only when every server above it is a home already. The lowest group keeps the chained pair only: with a
   * third copy there, a lowest group of r servers would hold every copy of its primaries' blocks, and a failure in
   * gear 0 would leave those blocks no server on to be copied to.
   */
  private int[] extend(int x, int[] homes, int count) {
    int[] extended = Arrays.copyOf(homes, count);
    int filled = homes.length;
    int start = gearOf(x) > 0 || groupSize.length == 1 ? x + 1 : groupStart[1] + x % groupSize[1];
    for (int pass = 0; pass < 2; pass++) {
      for (int step = 0; step < chain.size() && filled < count; step++) {
        int p = (start + step) % chain.size();
        if ((pass == 1 || p >= groupSize[0]) && !Positions.contains(extended, filled, p)) {
          extended[filled++] = p;
        }
      }
    }
    return Arrays.copyOf(extended, filled);
  }

  /**
   * The servers outside group 0 to wake when {@code f} fails: the homes of every block that has a home on f and no
   * other home in group 0 (empty whenever chained declustering keeps a second group-0 copy, i.e. r &gt;= 3).
   */
  private ActiveSet computeRecoverySet(int f) {
    List<Integer> wake = new ArrayList<>();
    for (int[] homes : homesByPrimary) {
      if (!Positions.contains(homes, homes.length, f)) {
        continue;
      }
      boolean otherLowCopy = false;
      for (int home : homes) {
        otherLowCopy |= home != f && gearOf(home) == 0;
      }
      if (!otherLowCopy) {
        for (int home : homes) {
          if (home != f && gearOf(home) > 0 && !wake.contains(home)) {
            wake.add(home);
          }
        }
      }
    }
    return ActiveSet.of(chain, wake.stream().mapToInt(Integer::intValue).toArray());
  }

}
