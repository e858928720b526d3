package org.eafr.namenode.gear;

import java.time.Clock;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;
import org.eafr.namenode.grid.GridGate;
import org.eafr.namenode.power.PowerManager;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.LayoutProblem;
import org.eafr.placement.gear.StoredBlocks;
import org.eafr.placement.gear.policy.GearedParts;
import org.eafr.placement.gear.policy.GearedPolicySpec;
import org.eafr.placement.gear.policy.LayoutContext;
import org.eafr.placement.gear.policy.OwedMoves;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.eafr.placement.gear.shift.ShiftState;
import org.eafr.placement.settings.EafrSettings;

/**
 * The gear state one NameNode shares between its parts: the placement policy asks it for the layout and the servers
 * on; the gear service (on the active NameNode) shifts gears and persists the state; the admin handler and the
 * metrics read it. The layout is rebuilt whenever the persisted chain changes, so a reconfigured placement policy, a
 * restarted NameNode and a new active NameNode all place blocks with the same chain.
 */
public final class GearRuntime {
  private final GearSettings settings;
  private final EafrSettings core;
  private volatile GearRecord state = GearRecord.UNSET;
  private volatile GearedParts parts;
  /** The chain's servers not asleep in {@link #state}, for the policy's read ordering; null without parts. */
  private volatile ActiveSet awake;
  private volatile String layoutProblem;
  /** Files written with a replica away from home, not yet recorded in the namespace (drained by the service). */
  private final Queue<String> owedPaths = new ConcurrentLinkedQueue<>();
  /** The same for a policy whose owed moves go home by passive migration (drained by {@link PassiveMigrations}). */
  private final Queue<String> passiveOwedPaths = new ConcurrentLinkedQueue<>();
  /** Reflection moves in flight: a source's copy of a block its move's target holds is the one to delete. */
  private final Set<ReflectionMove> reflectionMoves = ConcurrentHashMap.newKeySet();
  private final RelayoutDrops relayoutDrops = new RelayoutDrops();
  private final GearCounters counters = new GearCounters();
  private volatile PowerManager power;
  private volatile GearService service;
  private volatile GearAutopilot autopilot;
  private final GridGate grid;

  public GearRuntime(GearSettings settings, EafrSettings core) {
    this.settings = settings;
    this.core = core;
    this.grid = new GridGate(settings.grid(), settings.gridSource());
  }

  /** The grid signal and the scheduler deciding when reflection runs. */
  public GridGate grid() {
    return grid;
  }

  public GearSettings settings() {
    return settings;
  }

  /** The core settings the layouts are built with (eafr.gear.*, eafr.storage-reserve.bytes). */
  public EafrSettings core() {
    return core;
  }

  public GearRecord state() {
    return state;
  }

  /**
   * Puts {@code next} in force (after it was persisted, or as read from the namespace). A chain the settings cannot
   * build a layout on leaves no layout, and {@link #layoutProblem} says why.
   */
  public synchronized void state(GearRecord next) {
    if (!next.chain().equals(state.chain()) || next.primaries() != state.primaries()) {
      parts = null;
      layoutProblem = null;
      if (next.hasChain()) {
        try {
          parts = buildParts(next.chain(), next.sizedFor(), next.primaries());
        } catch (IllegalArgumentException impossible) {
          layoutProblem = impossible.getMessage();
        }
      }
    }
    GearedParts built = parts;
    GearRecord inForce = built == null ? next : topWhenAllAwake(next, built.layout().maximumGear());
    awake = built == null ? null : serversOn(built.layout(), id -> !inForce.sleeping().contains(id));
    state = inForce;
  }

  /**
   * {@code stored} (read from the namespace) as {@link #state(GearRecord)} puts it in force on the layout built now:
   * the top gear rule below, on the same chain.
   */
  GearRecord asInForce(GearRecord stored) {
    GearedParts built = parts;
    return built == null || !stored.chain().equals(state.chain()) ? stored
        : topWhenAllAwake(stored, built.layout().maximumGear());
  }

  /**
   * A steady state with no DataNode asleep whose gear the layout does not have is the layout's top gear: after
   * {@code eafr.layout} changed, at the top gear, to a policy with fewer gears, the persisted gear is the old layout's
   * top.
   */
  private static GearRecord topWhenAllAwake(GearRecord next, int top) {
    if (next.phase() != ShiftPhase.STEADY || !next.sleeping().isEmpty() || next.gear() <= top) {
      return next;
    }
    return next.withShift(ShiftState.steady(top));
  }

  /**
   * Why the settings in force cannot build a layout on the chain (or on the DataNodes a chain would be fixed from):
   * the keys, their values and what is allowed. Every gear command is refused with it; {@code status} shows it.
   */
  public Optional<String> layoutProblem() {
    return Optional.ofNullable(layoutProblem);
  }

  /**
   * Checks that a layout builds on {@code chain} before the chain is fixed; records the problem when it does not (and
   * throws IllegalArgumentException with it), clears it when it does.
   */
  synchronized void checkLayout(List<GearRecord.ChainEntry> chain) {
    layoutProblem = problem(() -> buildParts(chain, chain.size(), 0)).orElse(null);
    if (layoutProblem != null) {
      throw new IllegalArgumentException(layoutProblem);
    }
  }

  /** Why no layout builds on {@code chain} with defaults sized for {@code sizedFor} servers; empty when one does. */
  Optional<String> problemOn(List<GearRecord.ChainEntry> chain, int sizedFor) {
    return problem(() -> buildParts(chain, sizedFor, state.primaries()));
  }

  /**
   * Why the fixed chain's layout cannot grow to {@code p} primaries: a layout not sized by eafr.gear.primaries, or one
   * the settings cannot build with that p (named in the operator's words); empty when it can.
   */
  public Optional<String> growthProblem(int p) {
    if (!sizedByPrimaries()) {
      return Optional.of(GearSettings.LAYOUT_KEY + " = " + settings.layout() + " is not sized by "
          + EafrSettings.GEAR_PRIMARIES.key() + "; only the equal-work layouts grow their primaries");
    }
    GearRecord now = state;
    if (!now.hasChain()) {
      return Optional.of("no expansion chain yet");
    }
    return problem(() -> buildParts(now.chain(), now.sizedFor(), p));
  }

  /** Whether the layout in force is sized by eafr.gear.primaries (the equal-work layouts). */
  public boolean sizedByPrimaries() {
    return settings.policy().map(policy -> policy.shapeKeys().contains(EafrSettings.GEAR_PRIMARIES)).orElse(false);
  }

  private static Optional<String> problem(Runnable build) {
    try {
      build.run();
      return Optional.empty();
    } catch (IllegalArgumentException impossible) {
      return Optional.of(impossible.getMessage());
    }
  }

  /** The layout the settings build on {@code chain} as if it were fixed now; an impossible one throws saying why. */
  GearedLayout layoutOn(List<GearRecord.ChainEntry> chain) {
    return buildParts(chain, chain.size(), 0).layout();
  }

  /** The layout of the fixed chain, or empty while placement is not geared (random layout, or no chain yet). */
  public Optional<GearedLayout> layout() {
    return parts().map(GearedParts::layout);
  }

  /**
   * The geared policy's parts on the fixed chain (layout, read ordering, write placement, lowest gear), or empty while
   * placement is not geared.
   */
  public Optional<GearedParts> parts() {
    return settings.geared() ? Optional.ofNullable(parts) : Optional.empty();
  }

  /** The chain's servers not asleep in the gear state in force; empty while placement is not geared. */
  public Optional<ActiveSet> awake() {
    return settings.geared() ? Optional.ofNullable(awake) : Optional.empty();
  }

  /** The chain entries {@code servers} would form: one server of each rack in turn (Rabbit's expansion chain). */
  public static List<GearRecord.ChainEntry> chainOf(List<Server> servers) {
    return chainOf(servers, false);
  }

  /**
   * The same, each entry with its server's storage capacity; with {@code largestFirst} the largest servers come first
   * ({@link ExpansionChain#largestFirst}, a stable sort: equal disks keep the rack-interleaved order), so the lowest
   * gears hold the most bytes.
   */
  public static List<GearRecord.ChainEntry> chainOf(List<Server> servers, boolean largestFirst) {
    List<Server> sorted = new ArrayList<>(servers);
    sorted.sort((a, b) -> a.rack().equals(b.rack()) ? a.id().compareTo(b.id()) : a.rack().compareTo(b.rack()));
    ExpansionChain chain = ExpansionChain.rackInterleaved(sorted);
    if (largestFirst) {
      chain = chain.largestFirst();
    }
    List<GearRecord.ChainEntry> entries = new ArrayList<>();
    for (int i = 0; i < chain.size(); i++) {
      entries.add(new GearRecord.ChainEntry(chain.id(i), chain.rackName(i), "", chain.capacity(i)));
    }
    return entries;
  }

  /** The chain {@code servers} form under the settings in force: largest first with eafr.gear.capacity-aware. */
  List<GearRecord.ChainEntry> chainFor(List<Server> servers) {
    return chainOf(servers, core.get(EafrSettings.GEAR_CAPACITY_AWARE) == 1);
  }

  /**
   * The geared policy's parts on the chain {@code entries}, the layout's automatic defaults computed for a chain of
   * {@code sizedFor} servers (its size when it was fixed), so servers appended later change nothing the servers already
   * in it were given; {@code primaries} > 0 is the p the layout was grown to, in place of eafr.gear.primaries. A layout
   * the settings cannot build throws with the problem in the operator's words. SpringFS's random draws are seeded by
   * the chain, so every NameNode draws alike.
   */
  private GearedParts buildParts(List<GearRecord.ChainEntry> entries, int sizedFor, int primaries) {
    List<Server> servers = new ArrayList<>();
    for (GearRecord.ChainEntry entry : entries) {
      servers.add(Server.builder(entry.id()).rack(entry.rack()).storageCapacity(entry.capacityBytes()).build());
    }
    ExpansionChain chain = ExpansionChain.of(servers);
    GearedPolicySpec<?> policy = settings.policy().orElseThrow(() -> new IllegalArgumentException(
        GearSettings.LAYOUT_KEY + " is " + settings.layout() + ": no geared layout"));
    EafrSettings sized = primaries > 0 ? core.toBuilder().set(EafrSettings.GEAR_PRIMARIES, primaries).build() : core;
    try {
      return policy.build(context(sized, chain, sizedFor), StoredBlocks.NONE);
    } catch (IllegalArgumentException impossible) {
      LayoutProblem.buildOrExplain(settings.layout(), sized, chain,
          (keys, ordered) -> policy.layout(context(keys, ordered, sizedFor)), policy.shapeKeys());
      throw impossible;
    }
  }

  private static LayoutContext context(EafrSettings keys, ExpansionChain chain, int sizedFor) {
    return new LayoutContext(keys, chain, sizedFor, Clock.systemUTC(), () -> new Random(chain.toString().hashCode()));
  }

  /** The servers of {@code layout}'s chain that {@code isOn} accepts (alive and in service). */
  public static ActiveSet serversOn(GearedLayout layout, Predicate<String> isOn) {
    ExpansionChain chain = layout.chain();
    BitSet on = new BitSet(chain.size());
    for (int p = 0; p < chain.size(); p++) {
      if (isOn.test(chain.id(p))) {
        on.set(p);
      }
    }
    return ActiveSet.of(chain, on);
  }

  /**
   * Records that {@code path} got a block with a replica away from its home (called from chooseTarget): for the gear
   * service's reflection, or, when the geared policy brings owed replicas home by passive migration (SpringFS), for
   * {@link PassiveMigrations}.
   */
  public void owe(String path) {
    (migratesPassively() ? passiveOwedPaths : owedPaths).add(path);
  }

  /** Whether the geared policy in force brings owed replicas home by passive migration rather than reflection. */
  public boolean migratesPassively() {
    return settings.policy().map(policy -> policy.owedMoves() == OwedMoves.PASSIVE_MIGRATION).orElse(false);
  }

  /** The paths recorded by {@link #owe} for reflection since the last call. */
  public List<String> takeOwedPaths() {
    return drain(owedPaths);
  }

  /** The paths recorded by {@link #owe} for passive migration since the last call. */
  List<String> takePassiveOwedPaths() {
    return drain(passiveOwedPaths);
  }

  private static List<String> drain(Queue<String> queue) {
    List<String> paths = new ArrayList<>();
    for (String path = queue.poll(); path != null; path = queue.poll()) {
      paths.add(path);
    }
    return paths;
  }

  /** Reflection moves in flight; the gear service and the relayout service add and retire them. */
  public Set<ReflectionMove> reflectionMoves() {
    return reflectionMoves;
  }

  /** Relayout's moves in flight, keyed by block: whose replica goes once the target has the block. */
  public RelayoutDrops relayoutDrops() {
    return relayoutDrops;
  }

  /**
   * Whether a reflection move from {@code source} to {@code target} is in flight: when a block's replicas include
   * both, its excess copy is the one on the source (the home has it now). A source alone says nothing about a block:
   * a home may be the source of another block's move, and deleting its copy would undo the move (and loop).
   */
  public boolean isReflectionMove(String source, String target) {
    return !reflectionMoves.isEmpty() && reflectionMoves.contains(new ReflectionMove(source, target));
  }

  /** Whether {@code id} is the source of a reflection move in flight. */
  public boolean isReflectionSource(String id) {
    return reflectionMoves.stream().anyMatch(move -> move.source().equals(id));
  }

  /** Whether {@code id} is the target (a home) of a reflection move in flight: its copy is the one being made. */
  public boolean isReflectionTarget(String id) {
    return reflectionMoves.stream().anyMatch(move -> move.target().equals(id));
  }

  /** The power manager that switches DataNode hosts, or null when none is configured. */
  public PowerManager power() {
    return power;
  }

  public void power(PowerManager manager) {
    this.power = manager;
  }

  /** The gear service of the running NameNode, once its plugin started it; else null. */
  public GearService service() {
    return service;
  }

  public void service(GearService running) {
    this.service = running;
  }

  /** The gear autopilot of the running NameNode (it runs beside the gear service); else null. */
  public GearAutopilot autopilot() {
    return autopilot;
  }

  public void autopilot(GearAutopilot running) {
    this.autopilot = running;
  }

  /**
   * A reader was given a block with no location (from the reader ordering, on the IPC handler thread): counted, and
   * when DataNodes sleep the gear service looks at once for a group to wake. O(1), never blocks.
   */
  public void readFoundNoReplica() {
    counters.readsWithoutReplica.incrementAndGet();
    GearService running = service;
    if (running != null && !state.sleeping().isEmpty()) {
      running.readFoundNoReplica();
    }
  }

  public GearCounters counters() {
    return counters;
  }
}
