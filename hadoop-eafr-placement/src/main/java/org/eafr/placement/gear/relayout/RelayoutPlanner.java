package org.eafr.placement.gear.relayout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.Positions;

/**
 * Relayout: brings blocks stored before a geared layout was chosen (or put off their homes by the Balancer, the
 * Mover or re-replication) onto the layout's homes, moving as few bytes as it can while every server stays within its
 * layout share (Rabbit's equal-work layout, Amur et al. Sec. 3.1 Eq. 1-3: server i holds b_i = B / i, the p
 * primaries B / p; recovery groups Sec. 3.5; Accordion Sec. 3.4 for a layout that names fixed homes).
 *
 * <p>Goals: afterwards every block has a replica in gear 0 and the rest in its recovery group, so every gear-down
 * finds each block a live replica; no server ends above (1 + slack) times its share of the bytes laid out, plus one
 * block; as few bytes move as the layout allows. Constraints: a block keeps its number of replicas, each move copies
 * to the target before the source's replica is dropped ({@link BlockMove#dropSource}), and the plan is the same for
 * the same blocks in the same order (no randomness, no clock).
 *
 * <p>Algorithm, one block at a time (a streaming planner, so a NameNode plans a namespace walk batch by batch and
 * persists {@link #state} between them):
 * <ol>
 *   <li>The layout's {@link HomeChoices} give the block's alternatives (equal-work: one per recovery group), each a
 *       slot per replica with the servers that may fill it.</li>
 *   <li>For each alternative, a maximum matching of holders to slots, first with every holder (its unmatched slots
 *       are what the block must move at least: the <em>block bound</em>, the fewest over the alternatives), then with
 *       only the holders that have room: a holder whose bytes kept so far are within (1 + slack) of its share of
 *       the bytes laid out so far (or of the bytes expected in all, when the caller knows them), plus one
 *       block.</li>
 *   <li>The alternative that keeps the most replicas with room wins (ties: the one given the fewest bytes so far,
 *       then the first). Its matched holders keep their replicas.</li>
 *   <li>Each slot left is filled by a server of the slot that does not hold the block, the one with the most room
 *       first (ties: lowest position), copied from a holder that was not kept, which is dropped after. A target's
 *       room is its cap less the bytes it keeps or receives and the bytes it holds in blocks not planned yet: in the
 *       later blocks of the batch being planned ({@link #plan(List)}), or all it holds less what was planned so far
 *       when the caller knows its bytes held (a NameNode does from the DataNodes' use): a target filled up to its
 *       cap would make its own later replicas move.
 *       Of the pairs, the first is taken among the targets with room for the block that leaves the block on two
 *       racks and whose source HDFS takes as the excess copy ({@code useDelHint}: the source's rack holds another
 *       replica, or the target is alone on its rack); else one that keeps the racks, else one HDFS drops; then the
 *       same among the targets without room. Otherwise HDFS would drop a replica of its own choice, or copy the
 *       block to another rack, and the block would leave its homes again (a relayout source HDFS would not drop as
 *       the hint is still the one the NameNode's excess choice deletes while the move is in flight).</li>
 * </ol>
 * The <em>lower bound</em> is the largest of three bounds that hold for any relayout that ends with every block on one
 * of its alternatives and every server within its share: the block bound summed over blocks; the <em>share
 * bound</em>, the bytes each server held above its share at the start (it must send at least those away); and the
 * <em>combined bound</em>, the block bound plus, for the one server where it is most, what it must send away beyond
 * the bytes of its blocks whose fewest-move plans may move its replica (a block moving any other replica of that
 * server's makes one move more than its block bound).
 *
 * <p>Worked example ({@code RelayoutPlannerTest}): 6 servers s0..s5 on one rack, equal-work with p = 2, g = 1, r = 2
 * (primaries s0, s1 with share 1/2 each; one recovery group s2..s5 with shares 20/57, 15/57, 12/57, 10/57, that is
 * 1/3, 1/4, 1/5, 1/6 scaled to add up to 1), slack 0.1, four blocks of 100 bytes held on {s0, s1}, {s2, s3},
 * {s0, s4} and {s1, s2}, planned in that order.
 * <ul>
 *   <li>a: s0 fills the primary slot; no holder fits the gear-group slot, so s1 moves to s2, the gear-group server
 *       with the most room (its cap 20/57 x 1.1 x 100 + 100 = 138.6 bytes, the highest).</li>
 *   <li>b: s2 now keeps 100 bytes and has no room for another 100 (cap 20/57 x 1.1 x 200 + 100 = 177.2), so s3
 *       fills the gear-group slot and s2 moves to s1, the primary with the most room.</li>
 *   <li>c and d stay where they are (s0 and s4; s1 and s2, whose caps have grown with the bytes laid out).</li>
 * </ul>
 * Planned: 2 moves, 200 bytes. Block bound 200 (a and b each have one slot no holder fits), share bound 0 (no server
 * held more than its cap at 400 bytes laid out): lower bound 200, ratio 1.0.
 *
 * <p>Why a batch at a time ({@code RelayoutPlannerTest}, a NameNode run of 15 blocks on 12 servers): planned block by
 * block, a move puts a primary replica on s3, the primary of the move's rack, and the next block, held on s3 and
 * another home, then finds s3 at its cap and moves two replicas where its bound counts one (1.133x); planned with
 * the batch, s3's room counts that block, the move goes to another primary and the plan meets the bound (1.000x).
 *
 * <p>Cost: O(alternatives x replicas^3) per block for the matchings (the combined bound's tries one per holder, for a
 * block off its homes) and O(N log N) for the target choice over a slot's servers; state O(N).
 */
public final class RelayoutPlanner {
  private final GearedLayout layout;
  private final HomeChoices choices;
  private final double slack;
  private final long expectedBytes;
  /** Whether every holder that fits a slot stays, whatever the shares ({@link #checking}). */
  private boolean checking;
  private final long[] assigned;
  private final long[] held;
  /** Per server, bytes it holds in the blocks of the batch being planned that come after the current one. */
  private final long[] heldLater;
  /** Per server, the bytes it holds in all the blocks the planner will see, when the caller knows them; else 0. */
  private final long[] expectedHeld;
  /** Per server, bytes of the blocks whose fewest moves may take its replica off it (the combined bound). */
  private long[] movableHeld;
  private long[] alternativeBytes = new long[0];
  private long laidOut;
  private long largest;
  private long planned;
  private long blockBound;
  private long blocks;
  private long movedReplicas;

  public RelayoutPlanner(GearedLayout layout, double slack) {
    this(layout, HomeChoices.of(layout), slack, 0);
  }

  /**
   * @param expectedBytes the bytes of all the blocks the planner will see, one copy each, when the caller knows them
   *     (a NameNode does from its DataNodes' use); 0 when not. Each server's share is then of them from the first
   *     block on, so the first blocks keep their holders as freely as the last (a share of only the bytes laid out so
   *     far is tight while little is: on a few blocks it moves replicas that a later block would have made room for)
   */
  public RelayoutPlanner(GearedLayout layout, HomeChoices choices, double slack, long expectedBytes) {
    this(layout, choices, slack, expectedBytes, new long[0]);
  }

  /**
   * @param expectedHeld per server (chain position), the bytes it holds in the blocks the planner will see, when the
   *     caller knows them (a NameNode does from each DataNode's block pool use); empty when not. A move's target then
   *     keeps room for the replicas it holds in blocks not planned yet, in later batches too ({@link #roomAfter})
   */
  public RelayoutPlanner(GearedLayout layout, HomeChoices choices, double slack, long expectedBytes,
      long[] expectedHeld) {
    this.layout = Objects.requireNonNull(layout, "layout");
    this.choices = Objects.requireNonNull(choices, "choices");
    this.slack = RelayoutSettings.SHARE_SLACK.check(slack);
    if (expectedBytes < 0) {
      throw new IllegalArgumentException("expected bytes " + expectedBytes + " is not allowed: expected >= 0");
    }
    this.expectedBytes = expectedBytes;
    this.assigned = new long[layout.chain().size()];
    this.held = new long[layout.chain().size()];
    this.heldLater = new long[layout.chain().size()];
    this.expectedHeld = new long[layout.chain().size()];
    this.movableHeld = new long[layout.chain().size()];
    if (expectedHeld.length != 0 && expectedHeld.length != this.expectedHeld.length) {
      throw new IllegalArgumentException("expected bytes held for " + expectedHeld.length + " servers is not allowed:"
          + " expected " + this.expectedHeld.length + ", one per server of the chain, or none");
    }
    System.arraycopy(expectedHeld, 0, this.expectedHeld, 0, expectedHeld.length);
  }

  /**
   * A planner that checks what a relayout left: it keeps every holder that fits a slot, whatever the shares, so it
   * moves only the replicas of blocks that are on none of their alternatives (put off their homes since, by the
   * Balancer, a restart's excess deletion or re-replication).
   */
  public static RelayoutPlanner checking(GearedLayout layout) {
    RelayoutPlanner planner = new RelayoutPlanner(layout, 0.0);
    planner.checking = true;
    return planner;
  }

  /** A planner that goes on from {@code state} (as {@link #state} saved it, on the same layout's chain). */
  public static RelayoutPlanner resume(GearedLayout layout, double slack, State state) {
    return resume(layout, slack, state, false);
  }

  /** The same for a {@link #checking} planner when {@code checking}. */
  public static RelayoutPlanner resume(GearedLayout layout, double slack, State state, boolean checking) {
    int n = layout.chain().size();
    long[] expectedHeld = state.expectedHeld.length == n ? state.expectedHeld : new long[0];
    RelayoutPlanner planner = new RelayoutPlanner(layout, HomeChoices.of(layout), slack, state.counters[6],
        expectedHeld);
    planner.checking = checking;
    if (state.assigned.length != n || state.held.length != n) {
      throw new IllegalArgumentException("a relayout state for " + state.assigned.length + " servers cannot resume on"
          + " a chain of " + n + ": start relayout again");
    }
    System.arraycopy(state.assigned, 0, planner.assigned, 0, n);
    System.arraycopy(state.held, 0, planner.held, 0, n);
    planner.alternativeBytes = state.alternativeBytes.clone();
    if (state.movableHeld.length == n) {
      planner.movableHeld = state.movableHeld.clone();
    }
    planner.laidOut = state.counters[0];
    planner.largest = state.counters[1];
    planner.planned = state.counters[2];
    planner.blockBound = state.counters[3];
    planner.blocks = state.counters[4];
    planner.movedReplicas = state.counters[5];
    return planner;
  }

  /** The moves that bring {@code block} onto its homes (none when it is there), in replica order. */
  public List<BlockMove> plan(RelayoutBlock block) {
    return plan(List.of(block)).get(0);
  }

  /**
   * The moves of each block of {@code batch}, in batch order (the same as planning them one by one, but that a
   * target's room counts what its holders keep of the batch's later blocks: see {@link #roomAfterBatch}).
   */
  public List<List<BlockMove>> plan(List<RelayoutBlock> batch) {
    for (RelayoutBlock block : batch) {
      for (int holder : block.holders()) {
        heldLater[holder] += block.bytes();
      }
    }
    List<List<BlockMove>> moves = new ArrayList<>(batch.size());
    for (RelayoutBlock block : batch) {
      moves.add(planOne(block));
    }
    return moves;
  }

  private List<BlockMove> planOne(RelayoutBlock block) {
    int[] holders = block.holders();
    laidOut += block.bytes();
    largest = Math.max(largest, block.bytes());
    blocks++;
    for (int holder : holders) {
      held[holder] += block.bytes();
      heldLater[holder] -= block.bytes();
    }
    if (holders.length == 0) {
      return List.of();
    }
    List<List<ActiveSet>> alternatives = choices.alternatives(block.id(), holders.length, holders);
    boolean[] everyone = new boolean[holders.length];
    Arrays.fill(everyone, true);
    boolean[] withRoom = new boolean[holders.length];
    boolean[] roomLater = new boolean[holders.length];
    for (int j = 0; j < holders.length; j++) {
      withRoom[j] = hasRoom(holders[j], block.bytes());
      roomLater[j] = withRoom[j] && (checking || roomAfter(holders[j]) >= block.bytes());
    }
    int fewestUnmatched = Integer.MAX_VALUE;
    int best = -1;
    int[] bestMatch = null;
    int bestKept = -1;
    for (int a = 0; a < alternatives.size(); a++) {
      List<ActiveSet> slots = alternatives.get(a);
      fewestUnmatched = Math.min(fewestUnmatched, slots.size() - matched(match(slots, holders, everyone)));
      int[] match = match(slots, holders, roomLater, withRoom);
      int kept = matched(match);
      if (kept > bestKept || (kept == bestKept && bytesOf(a) < bytesOf(best))) {
        best = a;
        bestMatch = match;
        bestKept = kept;
      }
    }
    blockBound += block.bytes() * fewestUnmatched;
    countMovable(block, alternatives, fewestUnmatched);
    grow(alternatives.size());
    alternativeBytes[best] += block.bytes();
    return fill(block, alternatives.get(best), bestMatch);
  }

  /**
   * Adds the block's bytes to each holder whose replica one of the block's fewest-move plans moves: an alternative
   * with the fewest unmatched slots still matches as many without that holder.
   */
  private void countMovable(RelayoutBlock block, List<List<ActiveSet>> alternatives, int fewestUnmatched) {
    int[] holders = block.holders();
    if (fewestUnmatched == 0 || checking) {
      return;
    }
    for (int j = 0; j < holders.length; j++) {
      boolean[] others = new boolean[holders.length];
      Arrays.fill(others, true);
      others[j] = false;
      for (List<ActiveSet> slots : alternatives) {
        if (slots.size() - matched(match(slots, holders, others)) == fewestUnmatched) {
          movableHeld[holders[j]] += block.bytes();
          break;
        }
      }
    }
  }

  /** Keeps the matched holders and fills every other slot from a holder that was not kept. */
  private List<BlockMove> fill(RelayoutBlock block, List<ActiveSet> slots, int[] match) {
    int[] holders = block.holders();
    boolean[] kept = new boolean[holders.length];
    for (int s = 0; s < slots.size(); s++) {
      if (match[s] >= 0) {
        kept[match[s]] = true;
        assigned[holders[match[s]]] += block.bytes();
      }
    }
    List<BlockMove> moves = new ArrayList<>();
    int[] targets = new int[slots.size()];
    int[] current = holders.clone(); // the block's replicas as the moves so far leave them
    int chosen = 0;
    for (int s = 0; s < slots.size(); s++) {
      if (match[s] >= 0) {
        continue;
      }
      int[] move = pick(slots.get(s), block.bytes(), holders, kept, current, targets, chosen);
      if (move == null) {
        continue;
      }
      int target = move[0];
      int source = move[1];
      kept[source] = true; // its replica is spoken for: it moves to target
      current[source] = target;
      targets[chosen++] = target;
      assigned[target] += block.bytes();
      planned += block.bytes();
      movedReplicas++;
      moves.add(new BlockMove(block.id(), holders[source], target, true));
    }
    return moves;
  }

  /**
   * The target (a server of {@code slot} that neither holds nor receives the block, the one with the most room first)
   * and the source (a holder not kept) of one move, as {target, holder index}: the first pair that keeps the block on
   * two racks ({@link #spansRacks}) and whose source HDFS drops as the excess copy once the target has it
   * ({@link #droppable}); else the first that keeps the racks, else the first HDFS drops; else the roomiest target
   * and a source on its rack if any. Null when the slot has no server to take the block.
   */
  private int[] pick(ActiveSet slot, long bytes, int[] holders, boolean[] kept, int[] current, int[] targets,
      int chosen) {
    List<Integer> candidates = new ArrayList<>();
    for (int p = slot.next(0); p >= 0; p = p + 1 < assigned.length ? slot.next(p + 1) : -1) {
      if (!Positions.contains(holders, holders.length, p) && !Positions.contains(targets, chosen, p)) {
        candidates.add(p);
      }
    }
    if (candidates.isEmpty()) {
      return null;
    }
    candidates.sort((a, b) -> Double.compare(roomAfter(b), roomAfter(a)));
    for (int roomy = 1; roomy >= 0; roomy--) {
      for (int rule = 0; rule < 3; rule++) {
        for (int target : candidates) {
          if (roomy == 1 && roomAfter(target) < bytes) {
            break; // sorted by room: no later candidate has room either
          }
          for (int j = 0; j < holders.length; j++) {
            boolean spread = spansRacks(current, j, target);
            boolean dropped = droppable(current, j, target);
            if (!kept[j] && (rule == 0 ? spread && dropped : rule == 1 ? spread : dropped)) {
              return new int[] {target, j};
            }
          }
        }
      }
    }
    int target = candidates.get(0);
    int source = sourceFor(holders, kept, target);
    return source < 0 ? null : new int[] {target, source};
  }

  /**
   * Whether the block's replicas, once {@code current[source]} has moved to {@code target}, span two racks (or the
   * chain has one rack, or the block one replica): HDFS's own rack rule, which would otherwise copy the block to
   * another rack and drop a replica of its own choice.
   */
  private boolean spansRacks(int[] current, int source, int target) {
    if (layout.chain().rackCount() < 2 || current.length < 2) {
      return true;
    }
    int rack = layout.chain().rack(target);
    for (int i = 0; i < current.length; i++) {
      if (i != source && layout.chain().rack(current[i]) != rack) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether HDFS deletes the replica {@code current[source]} as the excess once {@code target} holds the block: it
   * takes the deletion hint (the source) when that leaves the block on as many racks, that is when the source's rack
   * holds another replica or the target is alone on its rack ({@code BlockPlacementPolicyDefault#useDelHint}), and
   * otherwise picks from the racks that hold two or more, where the source is not.
   */
  private boolean droppable(int[] current, int source, int target) {
    int sourceRack = layout.chain().rack(current[source]);
    int targetRack = layout.chain().rack(target);
    int onSourceRack = targetRack == sourceRack ? 1 : 0;
    int onTargetRack = 1;
    for (int replica : current) {
      onSourceRack += layout.chain().rack(replica) == sourceRack ? 1 : 0;
      onTargetRack += layout.chain().rack(replica) == targetRack ? 1 : 0;
    }
    return onSourceRack >= 2 || onTargetRack == 1;
  }

  /** A holder not kept, on the target's rack first (HDFS then drops it as the excess copy without a rack change). */
  private int sourceFor(int[] holders, boolean[] kept, int target) {
    int any = -1;
    for (int j = 0; j < holders.length; j++) {
      if (!kept[j]) {
        if (target >= 0 && layout.chain().rack(holders[j]) == layout.chain().rack(target)) {
          return j;
        }
        any = any < 0 ? j : any;
      }
    }
    return any;
  }

  /**
   * A target's room: its cap less the bytes the plan keeps or puts there and the bytes it holds in blocks not planned
   * yet (those of the batch's later blocks, or more when its expected bytes held say so). Taking a move on a server
   * whose own later replicas would then find it full costs a second move for one.
   */
  private double roomAfter(int server) {
    long later = Math.max(heldLater[server], expectedHeld[server] - held[server]);
    return capacity(server) - assigned[server] - later;
  }

  private boolean hasRoom(int server, long bytes) {
    return checking || assigned[server] + bytes <= capacity(server);
  }

  /** (1 + slack) times the server's share of the bytes laid out so far (or expected), plus one block. */
  private double capacity(int server) {
    return layout.share(server) * (1 + slack) * Math.max(laidOut, expectedBytes) + largest;
  }

  /**
   * Which replica of a block held on {@code holders}, one more than the layout places, is the excess copy: the first
   * {@code deletable} holder whose loss leaves the others on every slot of one of the block's alternatives, so the
   * block stays on its homes (a relayout move's source once its target holds the block, or a copy a restart left
   * beside the homes); -1 when no deletable holder's loss does. Worked example ({@code RelayoutPlannerTest}, the
   * class example's layout): held on s2, s3 and s0, s2 goes (s0 and s3 fill the primary and gear-group slots); with s2
   * not deletable, s3; s0 never (s2 and s3 leave the primary slot empty).
   */
  public static int excessCopy(HomeChoices choices, String blockId, int[] holders, boolean[] deletable) {
    if (holders.length < 2) {
      return -1;
    }
    List<List<ActiveSet>> alternatives = choices.alternatives(blockId, holders.length - 1, holders);
    for (int j = 0; j < holders.length; j++) {
      if (!deletable[j]) {
        continue;
      }
      boolean[] others = new boolean[holders.length];
      Arrays.fill(others, true);
      others[j] = false;
      for (List<ActiveSet> slots : alternatives) {
        if (matched(match(slots, holders, others)) == slots.size()) {
          return j;
        }
      }
    }
    return -1;
  }

  /** Kuhn's augmenting paths: for each slot the holder index it keeps, or -1. */
  private static int[] match(List<ActiveSet> slots, int[] holders, boolean[] allowed) {
    return match(slots, holders, allowed, allowed);
  }

  /**
   * A maximum matching of the {@code allowed} holders that keeps as many {@code first} ones (a subset) as any: matched
   * among those first, then augmented with the rest (an augmenting path never unmatches a holder). So a block that
   * must move replicas anyway moves those of servers whose own later replicas will need the room.
   */
  private static int[] match(List<ActiveSet> slots, int[] holders, boolean[] first, boolean[] allowed) {
    int[] slotOf = new int[holders.length];
    Arrays.fill(slotOf, -1);
    for (int s = 0; s < slots.size(); s++) {
      augment(s, slots, holders, first, slotOf, new boolean[holders.length]);
    }
    if (first != allowed) {
      for (int s = 0; s < slots.size(); s++) {
        if (!Positions.contains(slotOf, slotOf.length, s)) {
          augment(s, slots, holders, allowed, slotOf, new boolean[holders.length]);
        }
      }
    }
    int[] match = new int[slots.size()];
    Arrays.fill(match, -1);
    for (int j = 0; j < holders.length; j++) {
      if (slotOf[j] >= 0) {
        match[slotOf[j]] = j;
      }
    }
    return match;
  }

  private static boolean augment(int s, List<ActiveSet> slots, int[] holders, boolean[] allowed, int[] slotOf,
      boolean[] seen) {
    for (int j = 0; j < holders.length; j++) {
      if (allowed[j] && !seen[j] && slots.get(s).contains(holders[j])) {
        seen[j] = true;
        if (slotOf[j] < 0 || augment(slotOf[j], slots, holders, allowed, slotOf, seen)) {
          slotOf[j] = s;
          return true;
        }
      }
    }
    return false;
  }

  private static int matched(int[] match) {
    int count = 0;
    for (int j : match) {
      count += j >= 0 ? 1 : 0;
    }
    return count;
  }

  private long bytesOf(int alternative) {
    return alternative >= 0 && alternative < alternativeBytes.length ? alternativeBytes[alternative] : 0;
  }

  private void grow(int alternatives) {
    if (alternativeBytes.length < alternatives) {
      alternativeBytes = Arrays.copyOf(alternativeBytes, alternatives);
    }
  }

  /** What the plan so far moves against the lower bound. */
  public RelayoutReport report() {
    long shareBound = 0;
    long beyond = 0;
    for (int p = 0; p < held.length; p++) {
      long over = (long) Math.max(0, Math.floor(held[p] - capacity(p)));
      shareBound += over;
      beyond = Math.max(beyond, over - movableHeld[p]);
    }
    return new RelayoutReport(blocks, movedReplicas, laidOut, planned, blockBound, shareBound, blockBound + beyond);
  }

  /** What {@link #resume} needs to go on: per-server bytes and the running totals. */
  public State state() {
    return new State(assigned.clone(), held.clone(), alternativeBytes.clone(),
        new long[] {laidOut, largest, planned, blockBound, blocks, movedReplicas, expectedBytes},
        expectedHeld.clone(), movableHeld.clone());
  }

  /** A planner's running state, to persist between batches; plain arrays so any store can write it. */
  public static final class State {
    private final long[] assigned;
    private final long[] held;
    private final long[] alternativeBytes;
    private final long[] counters;
    private final long[] expectedHeld;
    private final long[] movableHeld;

    /** The same without expected bytes held per server. */
    public State(long[] assigned, long[] held, long[] alternativeBytes, long[] counters) {
      this(assigned, held, alternativeBytes, counters, new long[0], new long[0]);
    }

    /**
     * @param assigned per server, bytes the plan keeps or puts there
     * @param held per server, bytes it held before relayout
     * @param alternativeBytes per alternative, bytes given to it (ties between alternatives)
     * @param counters laid-out bytes, largest block, planned bytes, block bound, blocks, moved replicas, expected
     *     bytes
     * @param expectedHeld per server, bytes expected held in all blocks (empty when not known)
     * @param movableHeld per server, bytes of the blocks whose fewest moves may take its replica off it
     */
    public State(long[] assigned, long[] held, long[] alternativeBytes, long[] counters, long[] expectedHeld,
        long[] movableHeld) {
      if (counters.length != 7) {
        throw new IllegalArgumentException(counters.length + " counters is not allowed: expected 7");
      }
      this.assigned = assigned.clone();
      this.held = held.clone();
      this.alternativeBytes = alternativeBytes.clone();
      this.counters = counters.clone();
      this.expectedHeld = expectedHeld.clone();
      this.movableHeld = movableHeld.clone();
    }

    public long[] assigned() {
      return assigned.clone();
    }

    public long[] held() {
      return held.clone();
    }

    public long[] alternativeBytes() {
      return alternativeBytes.clone();
    }

    public long[] counters() {
      return counters.clone();
    }

    public long[] expectedHeld() {
      return expectedHeld.clone();
    }

    public long[] movableHeld() {
      return movableHeld.clone();
    }
  }
}
