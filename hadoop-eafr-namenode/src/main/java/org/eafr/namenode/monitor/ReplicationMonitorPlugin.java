package org.eafr.namenode.monitor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.Optional;
import javax.management.ObjectName;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.ipc.RefreshRegistry;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.util.MBeans;
import org.apache.hadoop.util.ExitUtil;
import org.apache.hadoop.util.ServicePlugin;
import org.eafr.namenode.admin.AdminHandler;
import org.eafr.namenode.admin.AdminLog;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.cluster.ReplicaMap;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.cold.ColdSleep;
import org.eafr.namenode.config.ColdSleepSettings;
import org.eafr.namenode.energy.EnergyMonitor;
import org.eafr.namenode.gear.GearAutopilot;
import org.eafr.namenode.gear.GearService;
import org.eafr.namenode.gear.PassiveMigrations;
import org.eafr.namenode.relayout.RelayoutMetrics;
import org.eafr.namenode.relayout.RelayoutService;
import org.eafr.placement.gear.relayout.RelayoutSettings;
import org.eafr.namenode.gear.GearStateCheck;
import org.eafr.namenode.power.BmcPoller;
import org.eafr.namenode.power.NameNodeHostView;
import org.eafr.namenode.power.PowerManager;
import org.eafr.namenode.power.PowerSettings;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.eafr.namenode.transfer.TransferPoller;
import org.eafr.placement.settings.InvalidSettingException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs EAFR's {@link ReplicationMonitor} every T ({@code eafr.interval.ms}) inside the NameNode
 * ({@code dfs.namenode.plugins}). Rounds run only on the active NameNode, outside safe mode, and once its replica
 * map has settled after a failover ({@link ReplicaMap}: no stale DataNode storages, no postponed misreplicated blocks;
 * it asks the DataNodes whose storages are stale for a full block report), so a standby or
 * observer NameNode, which also starts its plugins, never acts. It also registers the metrics source and the
 * {@code hdfs eafr} admin handler ({@link AdminHandler}, which also answers the older
 * {@code hdfs dfsadmin -refresh NN eafr-roles}), and starts the {@link TransferPoller} that times
 * the copies HDFS carries out for the transfer-speed EWMA (Eq. 9). A bad setting or roles file stops start() with an
 * exception naming it (the NameNode only logs plugin failures, so the message is logged as an error as well); gear
 * state that would leave sleeping DataNodes untracked stops the NameNode ({@link #refuseUntrackedSleepers}).
 */
public class ReplicationMonitorPlugin implements ServicePlugin {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicationMonitorPlugin.class);

  private NameNode nameNode;
  private EafrRuntime runtime;
  private String lastRolesProblem;
  private ReplicationMonitor monitor;
  private ScheduledExecutorService scheduler;
  private AdminHandler adminHandler;
  private TransferPoller transferPoller;
  private GearService gearService;
  private RelayoutService relayout;
  private GearAutopilot gearAutopilot;
  private PassiveMigrations passiveMigrations;
  private PowerManager ownPower;
  private BmcPoller bmcPoller;
  private EnergyMonitor energy;
  private ObjectName dataNodesBean;
  private ObjectName gearsBean;
  private ReplicaMap replicaMap;
  private ColdSleep coldSleep;

  @Override
  public void start(Object service) {
    this.nameNode = (NameNode) service;
    try {
      runtime = EafrRuntime.of(nameNode.getConf());
    } catch (RuntimeException e) {
      LOG.error("EAFR replication monitor refuses to start: {}", e.getMessage());
      throw e;
    }
    refuseUntrackedSleepers();
    runtime.pending().clear(); // a new NameNode process starts with nothing in flight
    this.monitor = new ReplicationMonitor(nameNode, runtime);
    this.replicaMap = new ReplicaMap(nameNode);
    runtime.monitor(monitor);
    long interval = runtime.settings().core().intervalMillis();
    scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "eafr-replication-monitor");
      thread.setDaemon(true);
      return thread;
    });
    scheduler.scheduleWithFixedDelay(this::roundIfActive, interval, interval, TimeUnit.MILLISECONDS);
    transferPoller = TransferPoller.start(nameNode, runtime.transfers(), runtime.settings().transferPollMillis());
    startGears();
    startColdSleep();
    energy = new EnergyMonitor(() -> nameNode.getNamesystem().getBlockManager().getDatanodeManager()
        .getDatanodeListForReport(DatanodeReportType.ALL), runtime.settings().core(), runtime.translator(),
        runtime.gears(), runtime.coldHosts(), Clock.systemUTC())
        .start(runtime.settings().energySampleMillis());
    runtime.energy(energy);
    DefaultMetricsSystem.instance().register(EafrMetrics.NAME, "EAFR adaptive replication",
        new EafrMetrics(runtime.monitorStats(), runtime.transfers(), runtime.gears(), energy::last));
    dataNodesBean = MBeans.register("NameNode", EafrDataNodes.NAME, new EafrDataNodes(
        nameNode.getNamesystem().getBlockManager().getDatanodeManager(), runtime));
    gearsBean = MBeans.register("NameNode", EafrGears.NAME, new EafrGears(runtime.gears()));
    adminHandler = new AdminHandler(nameNode, runtime);
    AdminLog.quietRefreshRegistry();
    RefreshRegistry.defaultRegistry().register(AdminHandler.IDENTIFIER, adminHandler);
    RefreshRegistry.defaultRegistry().register(AdminHandler.ROLES_IDENTIFIER, adminHandler);
    LOG.info("EAFR replication monitor started, interval {} ms; settings in force {}; roles from {}: {}, unlisted"
        + " DataNodes {}", interval, runtime.settings().asMap(), runtime.roles().file().source(),
        runtime.roles().file().entries(), runtime.roles().file().unlistedRole());
  }

  /**
   * The power manager over {@code eafr.power.inventory.file} when one is configured (unless one was given to the
   * runtime already, as tests do), so {@code hdfs eafr power} and the DataNode power agents work with or without gears,
   * with its {@link BmcPoller} (each host's state and measured draw, {@code eafr.power.bmc-poll.interval.ms});
   * then, with a geared layout, the gear service, which resumes any shift persisted in the namespace, and for a policy
   * that brings owed replicas home by passive migration (springfs), {@link PassiveMigrations}.
   */
  private void startGears() {
    if (runtime.gears().power() == null
        && !nameNode.getConf().getTrimmed(PowerSettings.INVENTORY_FILE_KEY, "").isEmpty()) {
      ownPower = PowerDrivers.startManager(nameNode.getConf(), new NameNodeHostView(nameNode),
          runtime.sleepRequests(), 4);
      runtime.gears().power(ownPower);
      bmcPoller = BmcPoller.start(ownPower, 2);
    }
    if (!runtime.gears().settings().geared()) {
      return;
    }
    gearService = GearService.start(nameNode, runtime.gears(), runtime.roles(), replicaMap);
    runtime.gears().service(gearService);
    gearAutopilot = GearAutopilot.start(nameNode, runtime.gears(), runtime.settings(), runtime.attribution(),
        gearService);
    runtime.gears().autopilot(gearAutopilot);
    passiveMigrations = PassiveMigrations.start(nameNode, runtime.gears(), runtime.settings().core(), replicaMap)
        .orElse(null);
    relayout = RelayoutService.start(nameNode, runtime.gears(), gearService,
        RelayoutSettings.from(nameNode.getConf()::get));
    runtime.relayout(relayout);
    DefaultMetricsSystem.instance().register(RelayoutMetrics.NAME, "EAFR relayout", new RelayoutMetrics(relayout));
    LOG.info("EAFR gears started: layout {}, state in {}, step {} ms, mode {} (configured {}), power inventory {}",
        runtime.gears().settings().layout(), runtime.gears().settings().stateDir(),
        runtime.gears().settings().stepMillis(), gearAutopilot.mode().word(),
        runtime.gears().settings().mode().word(), runtime.gears().power() == null ? "(none)"
            : runtime.gears().power().inventory().source());
  }

  /**
   * The cold-sleep service ({@code eafr.cold.power-off}): EAFR's cold servers' hosts switched off through the power
   * manager. A setting out of range stops start() as every bad setting does; switched-off cold servers recorded in the
   * namespace that this configuration would not look after stop the NameNode, as untracked gear sleepers do.
   */
  private void startColdSleep() {
    ColdSleepSettings settings = runtime.settings().coldSleep();
    if (settings.powerOff() && runtime.gears().settings().geared()) {
      throw new InvalidSettingException(ColdSleepSettings.POWER_OFF_KEY, "true",
          "applies to eafr.layout = random only; with a geared layout the gears switch hosts off");
    }
    try {
      coldSleep = ColdSleep.start(nameNode, runtime, settings, runtime.gears().power() != null,
          replicaMap::settled);
    } catch (IOException e) {
      throw new UncheckedIOException("EAFR could not read the cold-sleep state", e);
    } catch (IllegalStateException e) {
      stopNameNode(e);
    }
  }

  /**
   * Stops the NameNode, naming the sleepers and the fix, when its configuration would leave DataNodes the gears put to
   * sleep powered off with nothing tracking them ({@link GearStateCheck}): as a bad setting or power inventory does,
   * not a NameNode running on without EAFR. The check needs the namespace, which is loaded only after the places where
   * those stop the NameNode's construction, and Hadoop logs a plugin's failure and runs on: so the plugin ends the
   * process the way the NameNode does on its own fatal errors ({@link ExitUtil#terminate}, exit status 1).
   */
  private void refuseUntrackedSleepers() {
    try {
      GearStateCheck.refuseUntrackedSleepers(nameNode, runtime.gears().settings());
    } catch (IOException e) {
      throw new UncheckedIOException("EAFR could not read the gear state", e);
    } catch (IllegalStateException e) {
      stopNameNode(e);
    }
  }

  /** Ends the process as the NameNode does on its own fatal errors (a plugin's exception is only logged). */
  private static void stopNameNode(IllegalStateException why) {
    String message = "EAFR stops the NameNode: " + why.getMessage();
    LOG.error(message);
    ExitUtil.terminate(1, message);
  }

  private void roundIfActive() {
    try {
      if (nameNode.isActiveState() && !nameNode.getNamesystem().isInSafeMode() && replicaMap.settled()
          && rolesFitDataNodes()) {
        monitor.round();
      }
    } catch (Exception | Error e) { // keep the schedule alive; the next round starts from HDFS's state
      LOG.error("EAFR replication round failed", e);
    }
  }

  /**
   * The roles file read at startup is checked against the registered DataNodes as a reload is: while it names a host
   * that is no DataNode, the monitor does not act (the error is logged once, and {@code hdfs eafr status} shows it)
   * until {@code hdfs eafr roles reload} puts a good file in force.
   */
  private boolean rolesFitDataNodes() {
    Optional<String> problem = runtime.roles().checkAgainst(
        ServerTranslator.registeredNames(nameNode.getNamesystem().getBlockManager().getDatanodeManager()));
    if (problem.isPresent() && !problem.get().equals(lastRolesProblem)) {
      LOG.error("EAFR replication monitor paused: {}; fix the file and run 'hdfs eafr roles reload'", problem.get());
    }
    lastRolesProblem = problem.orElse(null);
    return problem.isEmpty();
  }

  @Override
  public void stop() {
    if (scheduler != null) {
      scheduler.shutdownNow();
      scheduler = null;
      transferPoller.close();
      DefaultMetricsSystem.instance().unregisterSource(EafrMetrics.NAME);
      if (dataNodesBean != null) {
        MBeans.unregister(dataNodesBean);
        dataNodesBean = null;
      }
      if (gearsBean != null) {
        MBeans.unregister(gearsBean);
        gearsBean = null;
      }
      RefreshRegistry.defaultRegistry().unregister(AdminHandler.IDENTIFIER, adminHandler);
      RefreshRegistry.defaultRegistry().unregister(AdminHandler.ROLES_IDENTIFIER, adminHandler);
      adminHandler.close();
    }
    if (energy != null) {
      energy.close();
      runtime.energy(null);
      energy = null;
    }
    if (coldSleep != null) {
      coldSleep.close();
      coldSleep = null;
    }
    if (gearAutopilot != null) {
      gearAutopilot.close();
      runtime.gears().autopilot(null);
      gearAutopilot = null;
    }
    if (passiveMigrations != null) {
      passiveMigrations.close();
      passiveMigrations = null;
    }
    if (relayout != null) {
      DefaultMetricsSystem.instance().unregisterSource(RelayoutMetrics.NAME);
      relayout.close();
      runtime.relayout(null);
      relayout = null;
    }
    if (gearService != null) {
      gearService.close();
      runtime.gears().service(null);
      gearService = null;
    }
    if (bmcPoller != null) {
      bmcPoller.close();
      bmcPoller = null;
    }
    if (ownPower != null) {
      ownPower.close();
      runtime.gears().power(null);
      ownPower = null;
    }
    if (replicaMap != null) {
      replicaMap.close();
      replicaMap = null;
    }
  }

  @Override
  public void close() {
    stop();
  }
}
