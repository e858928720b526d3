package org.eafr.namenode.cold;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.BlocksWithoutLiveReplica;
import org.eafr.namenode.cluster.ColdHosts;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.config.ColdSleepSettings;
import org.eafr.namenode.power.InventoryEntry;
import org.eafr.namenode.power.PowerManager;
import org.eafr.namenode.power.PowerResult;
import org.eafr.namenode.power.PowerState;
import org.eafr.namenode.power.Requester;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * EAFR's cold servers (Sec. 3.2.1, Eq. 8) sleeping for real with the random layout: a DataNode the replication
 * monitor turned cold goes into HDFS maintenance as before; once HDFS shows it IN_MAINTENANCE this service asks the
 * power manager to switch its host off, which runs the one power-off guard (active NameNode, IN_MAINTENANCE seen
 * alive, each of its blocks keeps a live replica on a DataNode that stays on) before any command; a refusal is kept
 * with its reason for {@code hdfs eafr status} and asked again after {@link #RETRY_MILLIS}. A sleeping host is switched
 * on again
 * <ul>
 *   <li>for its consistency check every {@code eafr.cold.consistency-check.interval.ms} (the paper's weekly wake: its
 *       block report lets HDFS bring its replicas up to date);</li>
 *   <li>when a block HDFS must re-replicate has no live replica and a replica on it (a read that found no location
 *       has this looked at at once; a recovery HDFS queued is found the same way). A NameNode that holds none of a
 *       sleeper's replicas (restarted while it slept, or a standby that took over) wakes every such sleeper for a
 *       block with no replica known at all.</li>
 * </ul>
 * A woken DataNode leaves maintenance only once it has registered and sent its block report (taking a dead DataNode
 * out of maintenance would re-replicate its blocks), stays in service {@code eafr.cold.awake.ms}, then goes back into maintenance when it is
 * still a nearly full standby (Eq. 8), and to sleep through the guard again. The sleepers are persisted in the
 * namespace ({@link ColdSleepStore}); only the active NameNode acts, and a NameNode that becomes active reads them
 * first. Every step costs O(DataNodes), plus, while some host sleeps and HDFS has low-redundancy blocks, a bounded
 * scan of its queue ({@link #MAX_BLOCKS_SCANNED}) under the namesystem read lock.
 */
public final class ColdSleep implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ColdSleep.class);
  /** A refused power-off is asked again this long after (the guard's facts may change: a copy lands). */
  static final long RETRY_MILLIS = 60_000;
  static final int MAX_BLOCKS_SCANNED = 10_000;
  static final long SCAN_INTERVAL_MILLIS = 10_000;

  private final NameNode nameNode;
  private final EafrRuntime runtime;
  private final ColdSleepSettings settings;
  private final ColdSleepStore store;
  private final ColdHosts hosts;
  private final Clock clock;
  private final BooleanSupplier replicasSettled;
  /** Per DataNode id: where it is in sleeping and waking. */
  private final Map<String, Sleeper> sleepers = new TreeMap<>();
  private boolean loadedAsActive;
  private long lastScan;
  private long lastReadAsked = Long.MIN_VALUE / 2;
  private ScheduledExecutorService scheduler;

  private enum Phase { ENTERING_MAINTENANCE, POWERING_OFF, REFUSED, ASLEEP, WAKING, AWAKE }

  private static final class Sleeper {
    Phase phase = Phase.ENTERING_MAINTENANCE;
    String host;
    long sinceMillis;
    String why = "";
    CompletableFuture<PowerResult> action;
    /**
     * Whether this NameNode saw the DataNode alive with its blocks before it slept, so its block map holds them (none,
     * for a server that went to sleep empty); false for a sleeper restored from the namespace after a restart or a
     * failover, until it has reported here.
     */
    boolean reportedHere;
  }

  ColdSleep(NameNode nameNode, EafrRuntime runtime, ColdSleepSettings settings, Clock clock,
      BooleanSupplier replicasSettled) {
    this.clock = clock;
    this.replicasSettled = replicasSettled;
    this.nameNode = nameNode;
    this.runtime = runtime;
    this.settings = settings;
    this.store = new ColdSleepStore(nameNode);
    this.hosts = runtime.coldHosts();
  }

  /**
   * Starts the service when {@code eafr.cold.power-off} is true, stepping every {@code eafr.cold.step.ms} (it acts
   * once a power manager is in place); else checks that no host is left switched off from before and returns null.
   *
   * @param replicasSettled whether this NameNode's replica map can be trusted (after a failover, every live
   *     DataNode's storages have reported; the same gate as the replication rounds): no step acts before
   * @throws IllegalStateException naming the sleepers and the fix, when the namespace records switched-off cold
   *     servers but this NameNode would not look after them (the setting is off, or no power inventory)
   */
  public static ColdSleep start(NameNode nameNode, EafrRuntime runtime, ColdSleepSettings settings,
      boolean powerInventory, BooleanSupplier replicasSettled) throws IOException {
    ColdSleep service = new ColdSleep(nameNode, runtime, settings, Clock.systemUTC(), replicasSettled);
    Map<String, ColdSleepStore.Sleeper> left = service.store.read();
    runtime.coldHosts().holdReReplication(settings.powerOff() && !left.isEmpty()); // until the first step as active
    if (!settings.powerOff() || !powerInventory) {
      if (!left.isEmpty()) {
        throw new IllegalStateException("the namespace records cold servers whose hosts EAFR switched off ("
            + hostsOf(left) + ", xattr " + ColdSleepStore.XATTR + " of /), but " + (settings.powerOff()
            ? "no power inventory is configured (eafr.power.inventory.file)" : ColdSleepSettings.POWER_OFF_KEY
            + " is false") + ": nothing would wake them for reads or recovery. Set " + ColdSleepSettings.POWER_OFF_KEY
            + " = true with the power inventory, or switch the hosts on, let their DataNodes register, and remove the"
            + " record as the HDFS superuser: hdfs dfs -setfattr -x " + ColdSleepStore.XATTR + " /");
      }
      if (!settings.powerOff()) {
        return null;
      }
    }
    runtime.coldHosts().enabled(true);
    runtime.coldHosts().step(service::stepQuietly);
    service.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "eafr-cold-sleep");
      thread.setDaemon(true);
      return thread;
    });
    service.scheduler.scheduleWithFixedDelay(service::stepQuietly, settings.stepMillis(), settings.stepMillis(),
        TimeUnit.MILLISECONDS);
    return service;
  }

  private static String hostsOf(Map<String, ColdSleepStore.Sleeper> sleepers) {
    List<String> named = new ArrayList<>();
    sleepers.forEach((id, sleeper) -> named.add(id + " on " + sleeper.host));
    return String.join(", ", named);
  }

  private void stepQuietly() {
    try {
      step();
    } catch (Exception e) { // keep stepping; the next step starts again from HDFS's state
      LOG.error("EAFR cold sleep: step failed", e);
    }
  }

  /** One look at every cold server; only on the active NameNode outside safe mode, once its replica map settled. */
  synchronized void step() throws IOException {
    if (!nameNode.isActiveState() || nameNode.getNamesystem().isInSafeMode()) {
      loadedAsActive = false;
      hosts.holdReReplication(!store.read().isEmpty()); // until this NameNode, once active, has seen them report
      return;
    }
    if (!replicasSettled.getAsBoolean()) {
      if (!loadedAsActive) {
        hosts.holdReReplication(!store.read().isEmpty());
      }
      return; // its block map may miss replicas yet: the guard would refuse, and a scan would wake for nothing
    }
    PowerManager power = runtime.gears().power();
    if (power == null) {
      return;
    }
    if (!loadedAsActive) {
      restore();
      loadedAsActive = true;
    }
    Map<String, DatanodeDescriptor> dataNodes = dataNodes();
    adoptNewSleepers(power, dataNodes);
    long now = clock.millis();
    boolean changed = false;
    boolean refresh = false;
    for (Iterator<Map.Entry<String, Sleeper>> it = sleepers.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Sleeper> entry = it.next();
      String id = entry.getKey();
      Sleeper sleeper = entry.getValue();
      DatanodeDescriptor dn = dataNodes.get(id);
      switch (sleeper.phase) {
        case ENTERING_MAINTENANCE:
          if (!runtime.roles().isSleeping(id)) {
            it.remove(); // back in service by other means (an operator, the gears)
            hosts.state(id, null);
            continue;
          }
          if (dn != null && dn.isAlive() && dn.isInMaintenance()) {
            powerOff(power, sleeper, id, now);
          } else {
            sleeper.why = "waiting for HDFS to show it IN_MAINTENANCE (each of its blocks needs"
                + " dfs.namenode.maintenance.replication.min live replicas elsewhere)";
          }
          break;
        case POWERING_OFF:
        case REFUSED:
          changed |= powerOffDone(power, sleeper, id, now);
          break;
        case ASLEEP:
          if (now - sleeper.sinceMillis >= settings.consistencyCheckMillis()) {
            wake(power, sleeper, id, "its consistency check (asleep since " + sleeper.sinceMillis
                + ", eafr.cold.consistency-check.interval.ms = " + settings.consistencyCheckMillis() + ")");
          }
          break;
        case WAKING:
          if (dn != null && dn.isAlive() && dn.checkBlockReportReceived()) { // registered, heartbeating, reported
            runtime.roles().wake(id);
            sleeper.reportedHere = true;
            hosts.asleep(id, false);
            hosts.heldAwake(id, true);
            sleeper.phase = Phase.AWAKE;
            sleeper.sinceMillis = now;
            sleeper.why = "in service after " + sleeper.why;
            LOG.info("EAFR cold sleep: DataNode {} on {} registered, reported its blocks and leaves maintenance", id,
                sleeper.host);
            changed = true;
            refresh = true;
          } else {
            retryFailedWake(power, sleeper, id);
          }
          break;
        case AWAKE:
          if (now - sleeper.sinceMillis >= settings.awakeMillis()) {
            hosts.heldAwake(id, false);
            if (dn != null && runtime.reserve().shouldTurnCold(runtime.translator().toServer(dn))) {
              runtime.roles().sleep(id);
              sleeper.phase = Phase.ENTERING_MAINTENANCE;
              sleeper.why = "back into maintenance after eafr.cold.awake.ms";
              refresh = true;
            } else {
              it.remove(); // no longer a nearly full standby: the replication monitor decides its role again
              hosts.state(id, null);
              continue;
            }
          }
          break;
        default:
          throw new IllegalStateException(sleeper.phase.name());
      }
      hosts.state(id, line(sleeper));
    }
    if (refresh) { // before the hold below is released: a woken DataNode's replicas count as live from then on
      nameNode.getNamesystem().getBlockManager().getDatanodeManager().refreshNodes(nameNode.getConf());
    }
    wakeForBlocks(power, dataNodes);
    wakeUnseen(power, dataNodes);
    if (changed) {
      persist();
    }
  }

  /** Servers the replication monitor put to sleep (not the gears') that this service does not follow yet. */
  private void adoptNewSleepers(PowerManager power, Map<String, DatanodeDescriptor> dataNodes) {
    Set<String> gearSleeping = runtime.gears().state().sleeping();
    for (String id : runtime.roles().sleeping()) {
      if (gearSleeping.contains(id) || sleepers.containsKey(id)) {
        continue;
      }
      DatanodeDescriptor dn = dataNodes.get(id);
      InventoryEntry entry = dn == null ? null : power.entryFor(ServerTranslator.nameOf(dn));
      if (entry == null) {
        hosts.state(id, "IN_MAINTENANCE, stays on: its host is in no power inventory (eafr.power.inventory.file)");
        continue;
      }
      Sleeper sleeper = new Sleeper();
      sleeper.host = entry.host();
      sleepers.put(id, sleeper);
    }
  }

  private void powerOff(PowerManager power, Sleeper sleeper, String id, long now) {
    sleeper.reportedHere = true; // alive IN_MAINTENANCE here: this block map holds its replicas
    sleeper.phase = Phase.POWERING_OFF;
    sleeper.sinceMillis = now;
    sleeper.why = "IN_MAINTENANCE; switching its host off through the power-off guard";
    sleeper.action = power.powerOff(sleeper.host, false, Requester.AUTOMATIC);
  }

  /** Moves a power-off on by its outcome; true when a host went to sleep (the persisted set changed). */
  private boolean powerOffDone(PowerManager power, Sleeper sleeper, String id, long now) {
    if (sleeper.phase == Phase.REFUSED) {
      if (!runtime.roles().isSleeping(id)) {
        sleeper.phase = Phase.ENTERING_MAINTENANCE; // the next step forgets it
      } else if (now - sleeper.sinceMillis >= RETRY_MILLIS) {
        powerOff(power, sleeper, id, now);
      }
      return false;
    }
    if (!sleeper.action.isDone()) {
      return false;
    }
    Throwable error = errorOf(sleeper.action);
    if (error == null && sleeper.action.join().state() == PowerState.OFF) {
      sleeper.phase = Phase.ASLEEP;
      sleeper.sinceMillis = now;
      sleeper.why = "host " + sleeper.host + " switched off";
      hosts.asleep(id, true);
      LOG.info("EAFR cold sleep: cold server {} asleep, host {} switched off", id, sleeper.host);
      return true;
    }
    sleeper.phase = Phase.REFUSED;
    sleeper.sinceMillis = now;
    sleeper.why = "power-off refused, stays on in maintenance, asked again after " + RETRY_MILLIS + " ms: "
        + (error == null ? "the host is " + sleeper.action.join().state() : error.getMessage());
    LOG.warn("EAFR cold sleep: {}: {}", id, sleeper.why);
    return false;
  }

  private void wake(PowerManager power, Sleeper sleeper, String id, String why) {
    sleeper.phase = Phase.WAKING;
    sleeper.why = "woken for " + why;
    sleeper.action = power.powerOn(sleeper.host, Requester.AUTOMATIC);
    hosts.state(id, line(sleeper));
    LOG.info("EAFR cold sleep: waking cold server {} (host {}) for {}", id, sleeper.host, why);
  }

  /** A power-on that failed is asked again at the next step: a sleeper that must serve stays wanted. */
  private void retryFailedWake(PowerManager power, Sleeper sleeper, String id) {
    Throwable error = sleeper.action.isDone() ? errorOf(sleeper.action) : null;
    if (error != null) {
      LOG.warn("EAFR cold sleep: switching {} on for {} failed, asking again: {}", id, sleeper.why,
          error.getMessage());
      sleeper.action = power.powerOn(sleeper.host, Requester.AUTOMATIC);
    }
  }

  /**
   * Wakes the sleepers holding a block HDFS queued for re-replication with no live replica: a read found no
   * location, or a recovery needs them. Bounded as the gears' wake detector is.
   */
  private void wakeForBlocks(PowerManager power, Map<String, DatanodeDescriptor> dataNodes) {
    Set<String> asleep = new TreeSet<>();
    sleepers.forEach((id, sleeper) -> {
      if (sleeper.phase == Phase.ASLEEP) {
        asleep.add(id);
      }
    });
    long now = clock.millis();
    if (hosts.takeReadFoundNoReplica()) {
      lastReadAsked = now;
    }
    // HDFS may queue the block a redundancy-monitor pass after the read: every step looks for a while after one.
    boolean readRecently = now - lastReadAsked < SCAN_INTERVAL_MILLIS;
    BlockManager blocks = nameNode.getNamesystem().getBlockManager();
    if (asleep.isEmpty() || blocks.getLowRedundancyBlocksCount() == 0
        || !readRecently && now - lastScan < SCAN_INTERVAL_MILLIS) {
      return;
    }
    lastScan = now;
    Set<String> unseen = new TreeSet<>(asleep);
    // Sleepers whose replicas this NameNode does not hold in its block map: never reported here (a restart), or
    // dropped when they went dead while this NameNode did not have them in maintenance (a standby that took over).
    unseen.removeIf(id -> sleepers.get(id).reportedHere
        || dataNodes.get(id) != null && dataNodes.get(id).numBlocks() > 0);
    Map<String, String> toWake = new LinkedHashMap<>();
    BlocksWithoutLiveReplica.scan(nameNode.getNamesystem(), MAX_BLOCKS_SCANNED, (block, holders) -> {
      List<String> candidates = new ArrayList<>(holders);
      candidates.retainAll(asleep);
      if (candidates.isEmpty() && holders.isEmpty()) {
        candidates.addAll(unseen); // no replica known: it may sleep on one that never reported here
      }
      if (!candidates.isEmpty() && !toWake.containsKey(candidates.get(0))) {
        toWake.put(candidates.get(0), "block " + block.getBlockName() + ", which has no live replica (replicas on "
            + holders + ")");
      }
      return toWake.size() < asleep.size();
    });
    toWake.forEach((id, why) -> wake(power, sleepers.get(id), id, why));
  }

  /**
   * Sleepers whose replicas this NameNode does not hold (it started or took over while they slept) are woken to
   * report them, and re-replication is held back meanwhile: a block short of replicas here may have them asleep there,
   * and copying it would repeat data that is only asleep (the copy storm the gears avoid with their homes).
   */
  private void wakeUnseen(PowerManager power, Map<String, DatanodeDescriptor> dataNodes) {
    boolean hold = false;
    for (Map.Entry<String, Sleeper> entry : sleepers.entrySet()) {
      Sleeper sleeper = entry.getValue();
      DatanodeDescriptor dn = dataNodes.get(entry.getKey());
      // A dead DataNode in maintenance keeps its replicas in the block map: none there means never reported here,
      // unless this NameNode saw it go to sleep empty.
      boolean unseen = !sleeper.reportedHere && (dn == null || dn.numBlocks() == 0 && !dn.isAlive());
      if (unseen && sleeper.phase == Phase.ASLEEP) {
        wake(power, sleeper, entry.getKey(), "its block report: this NameNode holds none of its replicas (it started"
            + " or took over while the host slept); re-replication waits for it");
      }
      hold |= unseen && sleeper.phase == Phase.WAKING;
    }
    hosts.holdReReplication(hold);
  }

  /** On becoming active (or starting): the sleepers persisted in the namespace, kept in maintenance. */
  private void restore() throws IOException {
    Map<String, ColdSleepStore.Sleeper> persisted = store.read();
    boolean refresh = false;
    for (Map.Entry<String, ColdSleepStore.Sleeper> entry : persisted.entrySet()) {
      Sleeper sleeper = sleepers.computeIfAbsent(entry.getKey(), id -> new Sleeper());
      if (sleeper.phase == Phase.ASLEEP || sleeper.phase == Phase.WAKING) {
        continue;
      }
      sleeper.phase = Phase.ASLEEP;
      sleeper.host = entry.getValue().host;
      sleeper.sinceMillis = entry.getValue().sinceMillis;
      sleeper.why = "host " + sleeper.host + " switched off (restored from the namespace)";
      hosts.asleep(entry.getKey(), true);
      hosts.state(entry.getKey(), line(sleeper));
      if (!runtime.roles().isSleeping(entry.getKey())) {
        runtime.roles().sleep(entry.getKey());
        refresh = true;
      }
    }
    if (refresh) {
      nameNode.getNamesystem().getBlockManager().getDatanodeManager().refreshNodes(nameNode.getConf());
    }
    if (!persisted.isEmpty()) {
      LOG.info("EAFR cold sleep: restored {} switched-off cold servers from the namespace: {}", persisted.size(),
          persisted.keySet());
    }
  }

  private void persist() throws IOException {
    Map<String, ColdSleepStore.Sleeper> asleep = new TreeMap<>();
    sleepers.forEach((id, sleeper) -> {
      if (sleeper.phase == Phase.ASLEEP || sleeper.phase == Phase.WAKING) {
        asleep.put(id, new ColdSleepStore.Sleeper(sleeper.host, sleeper.sinceMillis));
      }
    });
    store.write(asleep);
  }

  private Map<String, DatanodeDescriptor> dataNodes() {
    Map<String, DatanodeDescriptor> byId = new HashMap<>();
    for (DatanodeDescriptor dn : nameNode.getNamesystem().getBlockManager().getDatanodeManager()
        .getDatanodeListForReport(DatanodeReportType.ALL)) {
      byId.put(ServerTranslator.idOf(dn), dn);
    }
    return byId;
  }

  private static Throwable errorOf(CompletableFuture<PowerResult> action) {
    if (!action.isCompletedExceptionally()) {
      return null;
    }
    return action.handle((r, e) -> e instanceof CompletionException && e.getCause() != null ? e.getCause() : e)
        .join();
  }

  private static String line(Sleeper sleeper) {
    return sleeper.phase.name() + " (host " + sleeper.host + "): " + sleeper.why;
  }

  @Override
  public synchronized void close() {
    if (scheduler != null) {
      scheduler.shutdownNow();
      scheduler = null;
    }
    runtime.coldHosts().step(null);
    runtime.coldHosts().enabled(false);
    runtime.coldHosts().holdReReplication(false);
  }
}
