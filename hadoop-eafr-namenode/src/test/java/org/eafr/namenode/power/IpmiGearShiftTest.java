package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSCluster.DataNodeProperties;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.namenode.gear.GearTestCluster;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.GearedLayout;
import org.junit.jupiter.api.Test;

/**
 * One gear shift down and back up through the gear service, with the two DataNodes of the top gear group behind real
 * BMCs: OpenIPMI's ipmi_sim driven by the real ipmitool through {@link IpmiDriver}, passwords from a CredentialProvider
 * store. Each BMC's chassis control is the host: its power bit going to 0 (ACPI soft-off, which ipmi_sim passes on as
 * {@code set shutdown 1}) stops the MiniDFSCluster DataNode, going to 1 ({@code chassis power on}) restarts it
 * ({@link BmcHost}). The other ten DataNodes are in no inventory: gears 3 and 4 never switch them.
 */
class IpmiGearShiftTest {
  private static final String PASSWORD = "Gear-bmc-pw-4e1b";

  @Test
  void gearDownAndUpThroughIpmiSim_switchTheTopGearGroupsHosts() throws Exception {
    // a BMC switches a whole machine, so its inventory entry names a host: each DataNode registers its own name
    String[] hosts = IntStream.range(0, GearTestCluster.RACKS.length).mapToObj(i -> "dn" + i + ".eafr.test")
        .toArray(String[]::new);
    EafrCluster cluster = EafrCluster.start(GearTestCluster.conf("ipmi-gear"), GearTestCluster.RACKS, hosts);
    List<AutoCloseable> resources = new ArrayList<>();
    try {
      GenericTestUtils.waitFor(() -> GearTestCluster.gears(cluster).layout().isPresent(), 50, 60_000);
      for (int i = 0; i < 3; i++) {
        cluster.write("/data/f" + i, 3, 4096 * (i + 1), i);
      }
      GearedLayout layout = GearTestCluster.layout(cluster);
      List<String> topGroup = layout.serversOn(4).minus(layout.serversOn(3)).ids();
      assertThat(topGroup).hasSize(2);
      Path dir = TestDirs.create("ipmi-gear");
      StringJoiner inventory = new StringJoiner(",", "{\"nodes\": [", "]}");
      List<String> aliases = new ArrayList<>();
      List<IpmiSimBmc> bmcs = new ArrayList<>();
      for (String id : topGroup) {
        Path bmcDir = java.nio.file.Files.createDirectories(dir.resolve("bmc-" + bmcs.size()));
        IpmiSimBmc bmc = IpmiSimBmc.startHostOn(bmcDir, PASSWORD);
        resources.add(bmc);
        bmcs.add(bmc);
        resources.add(BmcHost.bind(bmc, cluster.mini(), id));
        String alias = "eafr.bmc.dn" + bmcs.size();
        aliases.add(alias);
        aliases.add(PASSWORD);
        String host = cluster.descriptor(cluster.indexOf(id)).getHostName();
        inventory.add("{\"host\": \"" + host + "\", \"driver\": \"ipmi\", \"address\": \"127.0.0.1\", \"port\": "
            + bmc.port() + ", \"user\": \"" + IpmiSimBmc.USER + "\", \"credential\": \"" + alias
            + "\", \"cipher-suite\": 3}");
      }
      Configuration powerConf = PowerTestSupport.fastConf(dir, inventory.toString());
      powerConf.set("eafr.power.state-timeout.ms", "20000");
      TestCredentials.store(powerConf, dir, aliases.toArray(new String[0]));
      PowerManager manager = PowerDrivers.startManager(powerConf, new NameNodeHostView(cluster.nameNode()), 2);
      resources.add(manager);
      GearRuntime gears = GearTestCluster.gears(cluster);
      gears.power(manager);

      gears.service().requestGear(3);
      GearTestCluster.awaitGear(cluster, 3);
      assertThat(GearTestCluster.running(cluster)).hasSize(10).doesNotContainAnyElementsOf(topGroup);
      for (int i = 0; i < bmcs.size(); i++) {
        assertThat(bmcs.get(i).told()).containsExactly("set shutdown 1");
        assertThat(bmcs.get(i).power()).isZero();
        DatanodeDescriptor dn = cluster.descriptor(cluster.indexOf(topGroup.get(i)));
        assertThat(dn.isInMaintenance()).as("%s in maintenance", topGroup.get(i)).isTrue();
      }
      cluster.verifyChecksums();

      gears.service().requestGear(4);
      GearTestCluster.awaitGear(cluster, 4);
      assertThat(GearTestCluster.running(cluster)).hasSize(12);
      for (IpmiSimBmc bmc : bmcs) {
        assertThat(bmc.told()).containsExactly("set shutdown 1", "set power 1");
        assertThat(bmc.power()).isOne();
      }
      assertThat(manager.metrics().poweredOff()).isEqualTo(2);
      cluster.verifyChecksums();
    } finally {
      for (int i = resources.size() - 1; i >= 0; i--) {
        resources.get(i).close();
      }
      cluster.close();
    }
  }

  /**
   * The host behind a BMC: a daemon thread that follows the BMC's power bit (polled every 50 ms from its chassis
   * control's state file) by stopping the MiniDFSCluster DataNode {@code id} (declared dead at once, as after the
   * heartbeat expiry, unless bound with {@code declareDead} false) or restarting it on the same ports.
   */
  static final class BmcHost implements AutoCloseable {
    private final Thread thread;
    private volatile boolean closed;

    private final boolean declareDead;

    private BmcHost(IpmiSimBmc bmc, MiniDFSCluster cluster, String id, boolean declareDead) {
      this.thread = new Thread(() -> follow(bmc, cluster, id), "bmc-host-" + id);
      this.declareDead = declareDead;
      thread.setDaemon(true);
    }

    static BmcHost bind(IpmiSimBmc bmc, MiniDFSCluster cluster, String id) {
      return bind(bmc, cluster, id, true);
    }

    /** With {@code declareDead} false, HDFS shows the stopped DataNode alive until its heartbeat expiry. */
    static BmcHost bind(IpmiSimBmc bmc, MiniDFSCluster cluster, String id, boolean declareDead) {
      BmcHost host = new BmcHost(bmc, cluster, id, declareDead);
      host.thread.start();
      return host;
    }

    private void follow(IpmiSimBmc bmc, MiniDFSCluster cluster, String id) {
      DataNodeProperties stopped = null;
      DatanodeID datanodeId = null;
      while (!closed) {
        try {
          int power = bmc.power();
          if (power == 0 && stopped == null) {
            datanodeId = running(cluster, id);
            stopped = cluster.stopDataNode(datanodeId.getXferAddr());
            if (declareDead) {
              cluster.setDataNodeDead(datanodeId);
            }
          } else if (power == 1 && stopped != null) {
            cluster.restartDataNode(stopped, true);
            stopped = null;
          }
          Thread.sleep(50); // the poll interval of a host watching its power rail
        } catch (InterruptedException e) {
          return;
        } catch (Exception e) {
          throw new IllegalStateException("host " + id + " could not follow its BMC", e);
        }
      }
    }

    private static DatanodeID running(MiniDFSCluster cluster, String id) {
      for (DataNode dn : cluster.getDataNodes()) {
        if (ServerTranslator.idOf(dn.getDatanodeId()).equals(id)) {
          return dn.getDatanodeId();
        }
      }
      throw new IllegalStateException("DataNode " + id + " is not running");
    }

    @Override
    public void close() throws InterruptedException {
      closed = true;
      thread.interrupt();
      thread.join(10_000);
    }
  }
}
