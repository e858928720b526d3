package org.eafr.namenode.power;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSCluster.DataNodeProperties;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.power.driver.PowerDrivers;

/**
 * A power manager whose drivers stop and restart the DataNodes of a MiniDFSCluster, one inventory entry per DataNode
 * (HOST:PORT), behind the real manager (one action per node, polling, retries) and the real {@link NameNodeHostView}
 * (power-off only once HDFS shows the DataNode IN_MAINTENANCE). Stopping a DataNode also has every NameNode declare it
 * dead at once, as it would after the heartbeat expiry, so tests need not wait 10 heartbeats.
 */
public final class MiniClusterPower {
  private MiniClusterPower() {
  }

  public static PowerManager manager(MiniDFSCluster cluster) {
    return manager(cluster, drivers(cluster, null));
  }

  /**
   * One driver per DataNode of {@code cluster} (HOST:PORT to driver), to share between the managers of an HA pair.
   * With {@code hold}, each power-off waits until the latch is released: a shift held in POWERING_OFF for real.
   */
  public static Map<String, PowerDriver> drivers(MiniDFSCluster cluster, Hold hold) {
    Map<String, PowerDriver> drivers = new LinkedHashMap<>();
    for (DataNode dn : cluster.getDataNodes()) {
      drivers.put(ServerTranslator.idOf(dn.getDatanodeId()), new DataNodeDriver(cluster, dn.getDatanodeId(), hold));
    }
    return drivers;
  }

  /**
   * One driver per DataNode, keyed by the host name it registered with (as an operator's inventory names hosts), so
   * the power inventory has no transfer port and a DataNode unknown to the NameNode is found by its host name only.
   */
  public static Map<String, PowerDriver> driversByHostName(MiniDFSCluster cluster) {
    Map<String, PowerDriver> drivers = new LinkedHashMap<>();
    for (DataNode dn : cluster.getDataNodes()) {
      drivers.put(dn.getDatanodeId().getHostName(), new DataNodeDriver(cluster, dn.getDatanodeId(), null));
    }
    return drivers;
  }

  /** A manager over {@code drivers} (from {@link #drivers}), answering to the cluster's active NameNode. */
  public static PowerManager manager(MiniDFSCluster cluster, Map<String, PowerDriver> drivers) {
    Configuration conf = new Configuration(false);
    conf.set("eafr.power.min-command-interval.ms", "0");
    conf.set("eafr.power.poll.initial.ms", "20");
    conf.set("eafr.power.poll.max.ms", "200");
    conf.set("eafr.power.state-timeout.ms", "30000");
    PowerSettings settings = PowerSettings.from(conf::get);
    java.util.StringJoiner entries = new java.util.StringJoiner(",", "{\"nodes\": [", "]}");
    for (String host : drivers.keySet()) {
      entries.add("{\"host\": \"" + host + "\", \"driver\": \"command\", \"script\": \"/bin/true\"}");
    }
    PowerInventory inventory = PowerInventory.parse("MiniDFSCluster", entries.toString());
    PowerManager manager = new PowerManager(settings, conf, new CurrentNameNode(cluster), new SleepRequests(),
        PowerScheduler.threads(4), PowerDrivers::build);
    manager.install(inventory, drivers);
    manager.registerMetrics(); // JMX EafrPower, as a manager inside the NameNode has
    return manager;
  }

  /**
   * {@link NameNodeHostView} of the cluster's active NameNode now (it survives a restart and a failover): one view per
   * NameNode instance, kept, so each view's maintenance witness has watched its DataNodes.
   */
  private static final class CurrentNameNode implements HostView {
    private final MiniDFSCluster cluster;
    private final Map<org.apache.hadoop.hdfs.server.namenode.NameNode, NameNodeHostView> views =
        new java.util.IdentityHashMap<>();

    CurrentNameNode(MiniDFSCluster cluster) {
      this.cluster = cluster;
    }

    private synchronized HostView now() {
      int active = 0;
      for (int nn = 0; nn < cluster.getNumNameNodes(); nn++) {
        if (cluster.getNameNode(nn) != null && cluster.getNameNode(nn).isActiveState()) {
          active = nn;
        }
      }
      return views.computeIfAbsent(cluster.getNameNode(active), NameNodeHostView::new);
    }

    @Override
    public boolean active() {
      for (int nn = 0; nn < cluster.getNumNameNodes(); nn++) {
        if (cluster.getNameNode(nn) != null && cluster.getNameNode(nn).isActiveState()) {
          return true;
        }
      }
      return false;
    }

    @Override
    public synchronized void close() {
      views.values().forEach(NameNodeHostView::close);
      views.clear();
    }

    @Override
    public void checkMayPowerOff(InventoryEntry entry) throws PowerRefusedException {
      now().checkMayPowerOff(entry);
    }

    @Override
    public PowerState heartbeatState(InventoryEntry entry) {
      return now().heartbeatState(entry);
    }
  }

  /** How many DataNode stops and restarts the drivers carried out (all drivers of the JVM). */
  public static final AtomicInteger SWITCHES = new AtomicInteger();

  /** Holds every power-off until released; counts the power-offs waiting. */
  public static final class Hold {
    private final java.util.concurrent.CountDownLatch released = new java.util.concurrent.CountDownLatch(1);
    private final AtomicInteger waiting = new AtomicInteger();

    /** Power-offs that have reached the hold (and wait, until {@link #release}). */
    public int waiting() {
      return waiting.get();
    }

    public void release() {
      released.countDown();
    }

    void await() throws PowerException {
      waiting.incrementAndGet();
      try {
        released.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new PowerException("interrupted while held");
      }
    }
  }

  /** Switches one MiniDFSCluster DataNode: off = stopDataNode, on = restartDataNode on the same ports. */
  static final class DataNodeDriver implements PowerDriver {
    private final MiniDFSCluster cluster;
    private final DatanodeID id;
    private final Hold hold;
    private final List<DataNodeProperties> stopped = new ArrayList<>(1);

    DataNodeDriver(MiniDFSCluster cluster, DatanodeID id, Hold hold) {
      this.cluster = cluster;
      this.id = id;
      this.hold = hold;
    }

    @Override
    public String name() {
      return "minidfscluster";
    }

    @Override
    public String endpoint() {
      return id.getXferAddr();
    }

    @Override
    public synchronized void powerOn() throws PowerException {
      if (stopped.isEmpty()) {
        return;
      }
      DataNodeProperties props = stopped.get(0);
      try {
        try {
          cluster.restartDataNode(props, true);
        } catch (java.net.BindException portTaken) {
          // Another test on this machine took the stopped DataNode's IPC port meanwhile: keep the transfer port (the
          // DataNode's identity here) and let the IPC server take a free one.
          Configuration conf = confOf(props);
          conf.set(DFSConfigKeys.DFS_DATANODE_ADDRESS_KEY, id.getXferAddr());
          conf.set(DFSConfigKeys.DFS_DATANODE_IPC_ADDRESS_KEY, id.getIpAddr() + ":0");
          cluster.restartDataNode(props, false);
        }
        stopped.remove(0);
        SWITCHES.incrementAndGet();
      } catch (Exception e) { // the props stay: the manager's next attempt restarts it again
        throw new PowerException("restarting DataNode " + id.getXferAddr() + " failed: " + e.getMessage());
      }
    }

    /** The configuration a stopped MiniDFSCluster DataNode restarts with (a package-private field of Hadoop's). */
    private static Configuration confOf(DataNodeProperties props) throws ReflectiveOperationException {
      java.lang.reflect.Field conf = DataNodeProperties.class.getDeclaredField("conf");
      conf.setAccessible(true);
      return (Configuration) conf.get(props);
    }

    @Override
    public void gracefulOff() throws PowerException {
      if (hold != null) {
        hold.await(); // outside the lock, so state() still answers while held
      }
      stop();
    }

    private synchronized void stop() throws PowerException {
      DataNodeProperties props = cluster.stopDataNode(id.getXferAddr());
      if (props != null) {
        stopped.add(props);
        SWITCHES.incrementAndGet();
        try {
          declareDead();
        } catch (java.io.IOException e) {
          throw new PowerException("DataNode " + id.getXferAddr() + " stopped, but not declared dead: " + e);
        }
      }
    }

    /**
     * Has every NameNode of the cluster declare the stopped DataNode dead (MiniDFSCluster#setDataNodeDead serves a
     * single NameNode only).
     */
    private void declareDead() throws java.io.IOException {
      for (int nn = 0; nn < cluster.getNumNameNodes(); nn++) {
        org.apache.hadoop.hdfs.server.namenode.FSNamesystem namesystem = cluster.getNamesystem(nn);
        org.apache.hadoop.hdfs.DFSTestUtil.setDatanodeDead(
            org.apache.hadoop.hdfs.server.namenode.NameNodeAdapter.getDatanode(namesystem, id));
        org.apache.hadoop.hdfs.server.blockmanagement.BlockManagerTestUtil.checkHeartbeat(
            namesystem.getBlockManager());
      }
    }

    @Override
    public void forcedOff() throws PowerException {
      gracefulOff();
    }

    @Override
    public synchronized PowerState state() {
      for (DataNode dn : cluster.getDataNodes()) {
        if (dn.getXferPort() == id.getXferPort()) { // a DataNode starting up has no DatanodeID yet
          return PowerState.ON;
        }
      }
      return PowerState.OFF;
    }
  }
}
