package org.eafr.placement.gear.shift;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.ExpansionChain;

/**
 * A seeded in-memory HDFS cluster behind every port of a {@link GearShift}: DataNodes with power, liveness,
 * registration, block reports and admin state; a block map; BMCs whose commands fail, hang or are unreachable; moves
 * that fail or hang. It checks, as each command lands, that a power-off hits only a DataNode IN_MAINTENANCE whose
 * blocks each keep a replica on another DataNode that is on, alive and in service, and that no DataNode is taken out
 * of maintenance while it is dead for any reason but a fault (its host off or still booting); violations are collected for the schedule to report.
 */
final class SimulatedCluster implements ShiftCluster, PowerPort, MaintenancePort, MovePort {
  final ExpansionChain chain;
  private final Random random;
  private final Map<String, Node> nodes = new LinkedHashMap<>();
  private final TreeMap<String, Set<String>> blocks = new TreeMap<>();
  private final TreeMap<String, Set<String>> pipelines = new TreeMap<>();
  private final Map<String, Integer> pipelineEnds = new HashMap<>();
  private final Map<Long, Command> commands = new HashMap<>();
  private final List<String> violations = new ArrayList<>();
  private final List<String> moved = new ArrayList<>();
  private final Set<String> uncontrolled = new HashSet<>();
  /** DataNodes whose entering maintenance never ends (a transfer out of them never drains). */
  private final Set<String> neverInMaintenance = new HashSet<>();
  private long nextTicket = 1;
  int tick;
  double powerFails;
  double powerHangs;
  double moveFails;
  double moveHangs;
  /** Whether the block map is complete (false: the NameNode restarted and not every DataNode has reported). */
  boolean settled = true;
  /** Ticks until a command's reply lands; -1 for 0 to 2 at random. */
  int replyDelay = -1;
  /** The tick this NameNode became active (started, or made active by a failover). */
  long activeSince;
  /**
   * HDFS's dead interval in ticks: longer than the 0 to 2 ticks a running DataNode takes to register with a NameNode
   * just made active ({@link #nameNodeRestarted(int)}).
   */
  long deadInterval = DEAD_INTERVAL;
  static final long DEAD_INTERVAL = 5;

  SimulatedCluster(ExpansionChain chain, Random random) {
    this.chain = chain;
    this.random = random;
    for (String id : ActiveSet.all(chain).ids()) {
      nodes.put(id, new Node());
    }
  }

  List<String> violations() {
    return violations;
  }

  void addBlock(String id, List<String> holders) {
    blocks.put(id, new LinkedHashSet<>(holders));
  }

  void startWrite(String id, List<String> pipeline, int ticks) {
    pipelines.put(id, new LinkedHashSet<>(pipeline));
    pipelineEnds.put(id, tick + ticks);
  }

  Set<String> blockIds() {
    return blocks.keySet();
  }

  Set<String> holders(String blockId) {
    return blocks.getOrDefault(blockId, Set.of());
  }

  /** On, running and registered: a replica there can be read. */
  boolean live(String id) {
    Node n = nodes.get(id);
    return n.powerOn && n.alive && n.registered;
  }

  /** Running and heartbeating (neither dead nor stale), whether or not the NameNode has registered it yet. */
  boolean heartbeating(String id) {
    Node n = nodes.get(id);
    return n.alive && n.staleUntil <= tick;
  }

  boolean liveInService(String id) {
    return live(id) && nodes.get(id).admin == AdminState.NORMAL;
  }

  /** The blocks with no replica on a live DataNode. */
  Set<String> unavailable() {
    Set<String> gone = new LinkedHashSet<>();
    for (Map.Entry<String, Set<String>> block : blocks.entrySet()) {
      if (block.getValue().stream().noneMatch(this::live)) {
        gone.add(block.getKey());
      }
    }
    return gone;
  }

  boolean poweredOn(String id) {
    return nodes.get(id).powerOn;
  }

  /** The moves that landed, e.g. "tick 7: blk_w s2 -> s5". */
  List<String> moved() {
    return moved;
  }

  /** The power commands sent so far. */
  int powerCommands() {
    return (int) commands.values().stream().filter(c -> c.move == null).count();
  }

  // ---- faults ----

  /** A running DataNode dies (its host stays on) for {@code ticks}; false when none runs. */
  boolean crashAwake(int ticks) {
    List<String> running = new ArrayList<>();
    nodes.forEach((id, n) -> {
      if (n.powerOn && n.alive) {
        running.add(id);
      }
    });
    if (running.isEmpty()) {
      return false;
    }
    Node n = nodes.get(running.get(random.nextInt(running.size())));
    n.alive = false;
    n.brokenUntil = tick + ticks;
    return true;
  }

  /** DataNode {@code id} dies (its host stays on) for {@code ticks}. */
  void crash(String id, int ticks) {
    Node n = nodes.get(id);
    n.alive = false;
    n.brokenUntil = tick + ticks;
  }

  /**
   * A running DataNode in service stops heartbeating for {@code ticks} (stale, still alive as HDFS counts it), then
   * heartbeats again; the first such one from position {@code tick} on, so no random number is drawn. False when none
   * runs in service.
   */
  boolean goStale(int ticks) {
    List<String> ids = ActiveSet.all(chain).ids();
    for (int i = 0; i < ids.size(); i++) {
      String id = ids.get((tick + i) % ids.size());
      Node n = nodes.get(id);
      if (n.alive && n.admin == AdminState.NORMAL && n.staleUntil <= tick) {
        n.staleUntil = tick + ticks;
        return true;
      }
    }
    return false;
  }

  /** DataNode {@code id} stops heartbeating for {@code ticks}. */
  void stale(String id, int ticks) {
    nodes.get(id).staleUntil = tick + ticks;
  }

  /** Host {@code id} is in no power inventory: no command reaches it, and it stays on. */
  void uncontrolled(String id) {
    uncontrolled.add(id);
  }

  /** DataNode {@code id} stays ENTERING_MAINTENANCE once it enters maintenance (its transfers never drain). */
  void neverInMaintenance(String id) {
    neverInMaintenance.add(id);
  }

  /** DataNode {@code id}, ENTERING_MAINTENANCE, has {@code blocks} blocks left ({@link #maintenanceBlocksLeft}). */
  void blocksLeft(String id, long blocks) {
    nodes.get(id).blocksLeft = blocks;
  }

  /** DataNode {@code id}'s transfers drain again: it enters maintenance as any other. */
  void drains(String id) {
    neverInMaintenance.remove(id);
  }

  /** HDFS starts decommissioning DataNode {@code id} (its blocks are copied away; it stays alive). */
  void decommission(String id) {
    nodes.get(id).admin = AdminState.DECOMMISSIONING;
  }

  /** An operator puts DataNode {@code id} into HDFS maintenance (not the gears: outside their overlay). */
  void operatorMaintenance(String id) {
    Node n = nodes.get(id);
    n.admin = n.alive ? AdminState.ENTERING_MAINTENANCE : AdminState.IN_MAINTENANCE;
  }

  /** A switched-off host breaks: powered on, its DataNode will not start for {@code ticks}. */
  boolean crashAsleep(int ticks) {
    List<Node> off = new ArrayList<>();
    nodes.values().forEach(n -> {
      if (!n.powerOn && !n.forGood) {
        off.add(n);
      }
    });
    if (off.isEmpty()) {
      return false;
    }
    off.get(random.nextInt(off.size())).brokenUntil = tick + ticks;
    return true;
  }

  void bmcDown(int ticks) {
    List<Node> all = new ArrayList<>(nodes.values());
    all.get(random.nextInt(all.size())).bmcDownUntil = tick + ticks;
  }

  /**
   * The NameNode restarts: it forgets registrations (running DataNodes register again and report next tick; dead
   * ones stay unknown), what it saw in maintenance, and its maintenance overlay.
   */
  void nameNodeRestarted() {
    nameNodeRestarted(0);
  }

  /**
   * The same, the running DataNodes registering only {@code ticks} ticks later (a NameNode just started or made
   * active has not heard from them yet: unregistered, as the ones dead since before it started).
   */
  void nameNodeRestarted(int ticks) {
    activeSince = tick;
    for (Node n : nodes.values()) {
      n.registered = n.alive && ticks == 0;
      n.registerAt = tick + ticks;
      n.reported = false;
      n.reportAt = tick + 1;
      n.seenAliveInMaintenance = false;
      n.admin = AdminState.NORMAL;
      n.overlay = false;
    }
  }

  /** A standby that saw every registration takes over: it became active now. */
  void failedOver() {
    activeSince = tick;
  }

  /**
   * DataNode {@code id} dies for good (its host stays on): it never runs, registers or heartbeats again, and
   * {@link #healAll} does not bring it back.
   */
  void dieForGood(String id) {
    Node n = nodes.get(id);
    n.alive = false;
    n.brokenUntil = Integer.MAX_VALUE;
    n.forGood = true;
  }

  /** Whether DataNode {@code id} died for good ({@link #dieForGood}). */
  boolean deadForGood(String id) {
    return nodes.get(id).forGood;
  }

  /** Everything heals: no more faults of any kind from now on. */
  void healAll() {
    powerFails = 0;
    powerHangs = 0;
    moveFails = 0;
    moveHangs = 0;
    for (Node n : nodes.values()) {
      n.brokenUntil = n.forGood ? n.brokenUntil : Math.min(n.brokenUntil, tick);
      n.bmcDownUntil = Math.min(n.bmcDownUntil, tick);
      n.staleUntil = Math.min(n.staleUntil, tick);
    }
  }

  // ---- time ----

  /** One tick of the world: replies land, DataNodes boot and report, maintenance and moves progress. */
  void tick() {
    tick++;
    nodes.forEach((id, n) -> {
      if (n.powerOn && !n.alive && n.brokenUntil <= tick && n.bootAt <= tick) {
        n.alive = true;
        n.registered = true;
        n.reported = false;
        n.reportAt = tick + 1;
        if (n.overlay && n.admin == AdminState.NORMAL) {
          n.admin = AdminState.ENTERING_MAINTENANCE;
        }
      }
      if (n.alive && !n.registered && n.registerAt <= tick) {
        n.registered = true;
        n.reportAt = tick + 1;
        if (n.overlay && n.admin == AdminState.NORMAL) {
          n.admin = AdminState.ENTERING_MAINTENANCE;
        }
      }
      if (n.alive && n.registered && !n.reported && n.reportAt <= tick) {
        n.reported = true;
      }
      progressMaintenance(id, n);
    });
    commands.values().forEach(this::land);
    pipelineEnds.entrySet().removeIf(this::finishWrite);
  }

  private void progressMaintenance(String id, Node n) {
    if (n.admin == AdminState.ENTERING_MAINTENANCE && n.registered) {
      if (n.alive && (!n.reported || neverInMaintenance.contains(id))) {
        return;
      }
      if (n.alive) {
        keepOneReplicaElsewhere(id);
      }
      n.admin = AdminState.IN_MAINTENANCE;
    }
    if (n.admin == AdminState.IN_MAINTENANCE && n.alive && n.reported) {
      n.seenAliveInMaintenance = true;
    }
  }

  /** HDFS's maintenance.replication.min = 1: a block of {@code id} with no other live replica in service is copied. */
  private void keepOneReplicaElsewhere(String id) {
    for (Map.Entry<String, Set<String>> block : blocks.entrySet()) {
      Set<String> holders = block.getValue();
      if (holders.contains(id) && holders.stream().noneMatch(h -> !h.equals(id) && liveInService(h))) {
        nodes.keySet().stream().filter(t -> !holders.contains(t) && liveInService(t)).findFirst()
            .ifPresent(holders::add);
      }
    }
  }

  private boolean finishWrite(Map.Entry<String, Integer> write) {
    if (write.getValue() > tick) {
      return false;
    }
    Set<String> pipeline = pipelines.remove(write.getKey());
    pipeline.removeIf(h -> !live(h));
    if (!pipeline.isEmpty()) {
      blocks.put(write.getKey(), pipeline);
    }
    return true;
  }

  // ---- ShiftCluster ----

  @Override
  public long maintenanceBlocksLeft(String id) {
    Node n = nodes.get(id);
    return n.admin == AdminState.ENTERING_MAINTENANCE ? n.blocksLeft : 0;
  }

  @Override
  public DataNodeView dataNode(String id) {
    Node n = nodes.get(id);
    if (n == null || !n.registered) {
      return DataNodeView.UNREGISTERED;
    }
    return new DataNodeView(true, n.alive, n.staleUntil > tick, n.reported, n.admin, n.seenAliveInMaintenance);
  }

  @Override
  public Iterable<ReplicatedFile> blocksOn(String id) {
    TreeMap<String, Set<String>> on = new TreeMap<>();
    blocks.forEach((block, holders) -> {
      if (holders.contains(id)) {
        on.put(block, holders);
      }
    });
    return files(on);
  }

  @Override
  public Iterable<ReplicatedFile> pipelines() {
    return files(pipelines);
  }

  /** The complete blocks none of whose holders is live: what HDFS's queue of low-redundancy blocks lists first. */
  @Override
  public Iterable<ReplicatedFile> blocksWithoutLiveReplica() {
    Map<String, Set<String>> lost = new TreeMap<>();
    blocks.forEach((id, holders) -> {
      if (holders.stream().noneMatch(this::live)) {
        lost.put(id, holders);
      }
    });
    return files(lost);
  }

  @Override
  public boolean settled() {
    return settled;
  }

  @Override
  public long activeSinceMillis() {
    return activeSince;
  }

  @Override
  public long deadIntervalMillis() {
    return deadInterval;
  }

  @Override
  public Optional<ReplicatedFile> block(String blockId) {
    Set<String> holders = blocks.get(blockId);
    return holders == null ? Optional.empty() : Optional.of(new ReplicatedFile(blockId, 1, List.copyOf(holders)));
  }

  /** The blocks as the NameNode's block map lists them: replicas on registered DataNodes only. */
  private List<ReplicatedFile> files(Map<String, Set<String>> map) {
    List<ReplicatedFile> files = new ArrayList<>(map.size());
    map.forEach((id, holders) -> {
      List<String> known = new ArrayList<>();
      for (String h : holders) {
        if (nodes.get(h).registered) {
          known.add(h);
        }
      }
      files.add(new ReplicatedFile(id, 1, known));
    });
    return files;
  }

  // ---- MaintenancePort ----

  @Override
  public void enter(Set<String> ids) {
    for (String id : ids) {
      Node n = nodes.get(id);
      n.overlay = true;
      if (n.registered && n.admin == AdminState.NORMAL) {
        n.admin = n.alive ? AdminState.ENTERING_MAINTENANCE : AdminState.IN_MAINTENANCE;
      }
    }
  }

  @Override
  public void leave(Set<String> ids) {
    for (String id : ids) {
      Node n = nodes.get(id);
      if (n.admin != AdminState.NORMAL && !n.alive && n.brokenUntil <= tick) {
        violations.add("tick " + tick + ": DataNode " + id + " taken out of maintenance while " + (n.powerOn
            ? "its host boots" : "its host is off") + " (HDFS would re-replicate every block it holds)");
      }
      n.overlay = false;
      n.admin = AdminState.NORMAL;
      n.seenAliveInMaintenance = false;
    }
  }

  // ---- PowerPort ----

  @Override
  public boolean controls(String host) {
    return !uncontrolled.contains(host);
  }

  @Override
  public long send(String host, Power wanted) {
    if (uncontrolled.contains(host)) {
      violations.add("tick " + tick + ": power " + wanted + " sent to " + host + ", in no power inventory");
    }
    Node n = nodes.get(host);
    long ticket = nextTicket++;
    if (n.bmcDownUntil > tick) {
      commands.put(ticket, Command.answered(Reply.failed("BMC of " + host + " unreachable")));
      return ticket;
    }
    double roll = random.nextDouble();
    if (roll < powerFails) {
      commands.put(ticket, Command.answered(Reply.failed("power command to " + host + " failed")));
      return ticket;
    }
    boolean hangs = roll < powerFails + powerHangs;
    if (!hangs || random.nextBoolean()) {
      apply(host, n, wanted);
    }
    commands.put(ticket, hangs ? Command.answered(Reply.PENDING) : Command.due(tick + delay()));
    return ticket;
  }

  private int delay() {
    return replyDelay >= 0 ? replyDelay : random.nextInt(3);
  }

  private void apply(String host, Node n, Power wanted) {
    if (wanted == Power.OFF) {
      checkPowerOff(host, n);
      n.powerOn = false;
      n.alive = false;
    } else if (!n.powerOn) {
      n.powerOn = true;
      n.bootAt = tick + 1 + delay();
    }
  }

  private void checkPowerOff(String host, Node n) {
    if (!n.powerOn) {
      return;
    }
    if (n.admin != AdminState.IN_MAINTENANCE) {
      violations.add("tick " + tick + ": power-off of " + host + " while HDFS shows it " + n.admin);
    }
    blocks.forEach((block, holders) -> {
      if (holders.contains(host) && holders.stream().noneMatch(h -> !h.equals(host) && liveInService(h))) {
        violations.add("tick " + tick + ": power-off of " + host + " leaves block " + block + " (on " + holders
            + ") with no replica on a DataNode alive and in service");
      }
    });
  }

  @Override
  public Reply poll(long ticket) {
    Command command = commands.get(ticket);
    return command == null ? Reply.failed("unknown ticket " + ticket) : command.reply;
  }

  @Override
  public Optional<Power> read(String host) {
    Node n = nodes.get(host);
    return n.bmcDownUntil > tick ? Optional.empty() : Optional.of(n.powerOn ? Power.ON : Power.OFF);
  }

  // ---- MovePort ----

  @Override
  public long start(BlockMove move) {
    long ticket = nextTicket++;
    double roll = random.nextDouble();
    Command command = roll < moveFails ? Command.answered(Reply.failed("move " + move + " failed"))
        : roll < moveFails + moveHangs ? Command.answered(Reply.PENDING) : Command.due(tick + delay());
    command.move = move;
    commands.put(ticket, command);
    return ticket;
  }

  /** A due command lands: a power reply becomes DONE; a move copies, then drops its source if the target holds it. */
  private void land(Command command) {
    if (command.reply != Reply.PENDING || command.dueAt < 0 || command.dueAt > tick) {
      return;
    }
    command.dueAt = -1;
    if (command.move == null) {
      command.reply = Reply.DONE;
      return;
    }
    BlockMove move = command.move;
    String from = chain.id(move.from());
    String to = chain.id(move.to());
    Set<String> holders = blocks.get(move.blockId());
    if (holders == null || !holders.contains(from) || !live(from) || !live(to)) {
      command.reply = Reply.failed("move " + move + " found its source or target gone");
      return;
    }
    holders.add(to);
    moved.add("tick " + tick + ": " + move.blockId() + " " + from + " -> " + to);
    if (move.dropSource()) {
      holders.remove(from);
    }
    command.reply = Reply.DONE;
  }

  /** A DataNode host in the simulated cluster. */
  private static final class Node {
    boolean powerOn = true;
    boolean alive = true;
    boolean registered = true;
    boolean reported = true;
    int reportAt;
    /** A NameNode restart's registration of this running DataNode lands at this tick. */
    int registerAt;
    int bootAt;
    AdminState admin = AdminState.NORMAL;
    /** In the NameNode's maintenance overlay (applied when it registers). */
    boolean overlay;
    boolean seenAliveInMaintenance;
    /** The blocks HDFS still waits on while it enters maintenance (0 unless a test sets it). */
    long blocksLeft;
    int brokenUntil;
    int bmcDownUntil;
    /** No heartbeat before this tick (stale), though alive as HDFS counts it. */
    int staleUntil;
    /** Died for good: no heal brings it back. */
    boolean forGood;
  }

  /** A command's reply so far, when it lands, and the move it carries (null for a power command). */
  private static final class Command {
    Reply reply;
    int dueAt;
    BlockMove move;

    static Command answered(Reply reply) {
      Command c = new Command();
      c.reply = reply;
      c.dueAt = -1;
      return c;
    }

    static Command due(int at) {
      Command c = new Command();
      c.reply = Reply.PENDING;
      c.dueAt = at;
      return c;
    }
  }
}
