package org.eafr.namenode.gear;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.eafr.placement.gear.shift.ShiftState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the expansion chain (Rabbit Sec. 3's order in which servers join gears) in step with the DataNodes HDFS
 * knows: fixes it from the live DataNodes once enough have registered, appends DataNodes registered since, takes
 * those HDFS decommissioned out of the layout at their positions (and back in when they serve again), and learns each
 * DataNode's host name so a NameNode started while it sleeps can still name it to the power inventory.
 */
final class ChainMembership {
  private static final Logger LOG = LoggerFactory.getLogger(GearService.class);

  /** Writes a gear state to the namespace and puts it in force here. */
  interface StatePersister {
    void persist(GearRecord next) throws IOException;
  }

  private final GearRuntime gears;
  private final GearDataNodes nodes;
  private final StatePersister store;
  /** The layout problem last logged (once per change of cause), or null. */
  private String loggedLayoutProblem;

  ChainMembership(GearRuntime gears, GearDataNodes nodes, StatePersister store) {
    this.gears = gears;
    this.nodes = nodes;
    this.store = store;
  }

  /**
   * One step on the active NameNode: fixes the chain once {@code eafr.gear.expected-datanodes} are live, logs a
   * layout problem once per cause, then follows membership and host names between shifts.
   */
  void step() throws IOException {
    if (!gears.state().hasChain() && gears.settings().geared() && gears.settings().expectedDataNodes() > 0
        && nodes.liveDataNodes().size() >= gears.settings().expectedDataNodes()) {
      try {
        fixChain();
      } catch (IllegalArgumentException impossible) {
        // the settings build no layout on these DataNodes: recorded in gears.layoutProblem(), logged just below
      }
    }
    logLayoutProblem();
    followMembership();
    learnHostNames();
  }

  /**
   * Logs why the settings build no layout (gears cannot run) once per change of cause, not every step; and once when
   * the problem is gone (more DataNodes registered before the chain was fixed).
   */
  private void logLayoutProblem() {
    String problem = gears.layoutProblem().orElse(null);
    if (Objects.equals(problem, loggedLayoutProblem)) {
      return;
    }
    if (problem != null) {
      LOG.error("EAFR gears: {}; the gears cannot run (every DataNode stays on and every 'hdfs eafr gear' command is"
          + " refused) until one of these keys is changed in hdfs-site.xml and the NameNode restarted", problem);
    } else {
      LOG.info("EAFR gears: the {} layout builds on the DataNodes now; the gears can run", gears.settings().layout());
    }
    loggedLayoutProblem = problem;
  }

  /**
   * Refuses {@code command} ({@code gear N|up|down|auto}) while the settings build no layout on the expansion chain
   * (or, before the chain is fixed, on the live DataNodes), naming the keys, their values and what is allowed.
   */
  void refuseWithoutLayout(String command) {
    if (gears.settings().geared() && !gears.state().hasChain() && nodes.liveDataNodes().size() >= 2) {
      try {
        gears.checkLayout(liveChain());
      } catch (IllegalArgumentException impossible) {
        // recorded in gears.layoutProblem()
      }
    }
    gears.layoutProblem().ifPresent(problem -> {
      throw new IllegalStateException("'hdfs eafr " + command + "' refused: " + problem + "; change one of these"
          + " keys in hdfs-site.xml and restart the NameNode");
    });
  }

  /**
   * The layout the live DataNodes would form as the chain (fixed in the highest gear), before it is fixed; with fewer
   * than 2 live DataNodes the refusal of {@link #fixChain}.
   */
  GearedLayout layoutBeforeChain() throws IOException {
    List<GearRecord.ChainEntry> chain = liveChain();
    if (chain.size() < 2) {
      fixChain(); // refused, naming how many have registered
    }
    return gears.layoutOn(chain);
  }

  /** Fixes the expansion chain from the live DataNodes and persists it, in the highest gear. */
  void fixChain() throws IOException {
    List<GearRecord.ChainEntry> chain = liveChain();
    if (chain.size() < 2) {
      throw new IllegalStateException("the expansion chain needs at least 2 live DataNodes; " + chain.size()
          + " have registered");
    }
    gears.checkLayout(chain); // the settings may build no layout on these DataNodes: refused, nothing persisted
    GearRecord unset = new GearRecord(chain, ShiftState.steady(0));
    unset = unset.withChain(withHostNames(unset.chain()));
    gears.state(unset);
    int top = gears.layout().orElseThrow().maximumGear();
    store.persist(unset.withShift(ShiftState.steady(top)));
    LOG.info("EAFR gears: expansion chain fixed with {} DataNodes ({} gears): {}", chain.size(), top + 1,
        unset.chain().stream().map(GearRecord.ChainEntry::id).collect(Collectors.toList()));
  }

  /**
   * Between shifts (steady, nothing being woken) keeps the chain in step with HDFS: DataNodes HDFS decommissioned
   * leave the layout (kept at their positions, so no other server's position changes), one that serves again rejoins
   * at its old position, and DataNodes registered since the chain was fixed, alive and in service, are appended.
   * Never during a shift: its leaving and waking sets are the gears' as the shift started.
   */
  private void followMembership() throws IOException {
    GearRecord state = gears.state();
    if (!state.hasChain() || state.phase() != ShiftPhase.STEADY || !state.waking().isEmpty()
        || gears.layout().isEmpty()) {
      return;
    }
    Set<String> retired = new TreeSet<>(state.retired());
    Set<String> inChain = new HashSet<>();
    for (GearRecord.ChainEntry entry : state.chain()) {
      inChain.add(entry.id());
      DatanodeDescriptor dn = nodes.descriptor(entry.id());
      if (dn != null && dn.isDecommissioned()) {
        retired.add(entry.id());
      } else if (dn != null && dn.isAlive() && dn.isInService()) {
        retired.remove(entry.id());
      }
    }
    if (!retired.equals(state.retired())) {
      store.persist(state.withRetired(retired));
      LOG.info("EAFR gears: DataNodes decommissioned by HDFS, out of the layout (never waited for, powered or"
          + " counted): {}", retired);
    }
    List<Server> newcomers = new ArrayList<>();
    for (DatanodeDescriptor dn : nodes.liveDataNodes()) {
      if (dn.isInService() && !inChain.contains(ServerTranslator.idOf(dn))) {
        newcomers.add(server(dn));
      }
    }
    if (!newcomers.isEmpty()) {
      extendChain(gears.state(), newcomers);
    }
  }

  /**
   * Appends {@code newcomers} to the chain, one rack after another: every server keeps its position, gear group and
   * recovery group, so no block moves; the newcomers form the next gear groups (the layout's automatic defaults stay
   * those of the size the chain was fixed with, {@link GearRecord#sizedFor}). The highest gear stays the highest, so
   * the newcomers stay on; in a lower gear they stay on until the next shift down.
   */
  private void extendChain(GearRecord state, List<Server> newcomers) throws IOException {
    List<GearRecord.ChainEntry> tail = withHostNames(gears.chainFor(newcomers));
    List<GearRecord.ChainEntry> longer = new ArrayList<>(state.chain());
    longer.addAll(tail);
    Optional<String> problem = gears.problemOn(longer, state.sizedFor());
    if (problem.isPresent()) {
      if (!problem.get().equals(loggedLayoutProblem)) {
        loggedLayoutProblem = problem.get();
        LOG.error("EAFR gears: {} DataNodes registered after the chain was fixed stay out of it: {}",
            newcomers.size(), problem.get());
      }
      return;
    }
    int top = gears.layout().orElseThrow().maximumGear();
    gears.state(state.extended(tail, state.gear())); // builds the longer chain's layout, to learn its top gear
    int gear = state.shift().grown(top, gears.layout().orElseThrow().maximumGear()).gear(); // the core's rule
    store.persist(state.extended(tail, gear));
    LOG.info("EAFR gears: expansion chain extended by {} DataNodes to {} ({} gears, gear {} in force); no block"
        + " moves: {}", tail.size(), longer.size(), gears.layout().orElseThrow().maximumGear() + 1, gear,
        tail.stream().map(GearRecord.ChainEntry::id).collect(Collectors.toList()));
  }

  /**
   * The DataNodes HDFS knows, and those of the chain, that are outside the layout, each with why: registered after the
   * chain was fixed (joining at the next step between shifts, or refused by the layout), decommissioning,
   * decommissioned, or in the chain but unknown to this NameNode while not asleep. Id to reason, in id order. Not
   * synchronized: {@code hdfs eafr status} never waits for a gear step; it reads the state in force and HDFS's view.
   */
  public Map<String, String> outsideLayout() {
    Map<String, String> outside = new TreeMap<>();
    GearRecord state = gears.state();
    if (!state.hasChain()) {
      return outside;
    }
    Set<String> inChain = new HashSet<>();
    for (GearRecord.ChainEntry entry : state.chain()) {
      inChain.add(entry.id());
      DatanodeDescriptor dn = nodes.descriptor(entry.id());
      if (state.retired().contains(entry.id())) {
        outside.put(entry.id(), "decommissioned: out of the layout; rejoins at its position if it serves again");
      } else if (dn != null && dn.isDecommissionInProgress()) {
        outside.put(entry.id(), "decommissioning: HDFS copies its blocks away; the gears neither wait for nor power"
            + " it");
      } else if (dn == null && !state.sleeping().contains(entry.id())) {
        outside.put(entry.id(), "unknown: in the expansion chain but not registered with this NameNode");
      }
    }
    for (DatanodeDescriptor dn : nodes.dataNodes().getDatanodeListForReport(DatanodeReportType.ALL)) {
      String id = ServerTranslator.idOf(dn);
      if (inChain.contains(id)) {
        continue;
      }
      outside.put(id, !dn.isAlive() ? "new, dead: registered after the chain was fixed; joins once alive and in"
          : !dn.isInService() ? "new, " + dn.getAdminState().name() + ": joins once in service"
          : "new: joins the chain at the next gear step between shifts");
    }
    return outside;
  }

  /** The chain the live DataNodes would form (Rabbit's expansion chain, one rack after another). */
  List<GearRecord.ChainEntry> liveChain() {
    List<Server> servers = new ArrayList<>();
    for (DatanodeDescriptor dn : nodes.liveDataNodes()) {
      servers.add(server(dn));
    }
    return gears.chainFor(servers);
  }

  /** A DataNode as a chain server: its id, rack and storage capacity (what its heartbeats report). */
  private static Server server(DatanodeDescriptor dn) {
    return Server.builder(ServerTranslator.idOf(dn)).rack(dn.getNetworkLocation()).storageCapacity(dn.getCapacity())
        .build();
  }

  /**
   * Persists the host name each registered DataNode of the chain gave (a chain fixed before host names were kept
   * learns them here): a NameNode started while a DataNode sleeps never sees it register, and names it to the power
   * inventory (whose entries name hosts) by this record alone.
   */
  private void learnHostNames() throws IOException {
    GearRecord state = gears.state();
    List<GearRecord.ChainEntry> named = withHostNames(state.chain());
    if (!named.equals(state.chain())) {
      store.persist(state.withChain(named));
    }
  }

  /** {@code chain} with each registered DataNode's host name; an unregistered one keeps the name it had. */
  private List<GearRecord.ChainEntry> withHostNames(List<GearRecord.ChainEntry> chain) {
    List<GearRecord.ChainEntry> named = new ArrayList<>(chain.size());
    for (GearRecord.ChainEntry entry : chain) {
      DatanodeDescriptor dn = nodes.descriptor(entry.id());
      String host = dn == null ? entry.host() : dn.getHostName();
      named.add(host.equals(entry.host()) ? entry : entry.withHost(host));
    }
    return named;
  }
}
