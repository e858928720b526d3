package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.junit.jupiter.api.Test;

/** The power manager does not start when HDFS would put DataNodes IN_MAINTENANCE keeping no replica elsewhere. */
class MaintenanceMinimumTest {

  @Test
  void maintenanceReplicationMinBelowOne_stopsTheManagerFromStarting_namingTheKey() {
    Configuration conf = new Configuration(false);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_MAINTENANCE_REPLICATION_MIN_KEY, 0);

    assertThatThrownBy(() -> PowerDrivers.startManager(conf, PowerTestSupport.ANY_HOST_MAY_POWER_OFF, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("dfs.namenode.maintenance.replication.min = 0 is not allowed with EAFR power control")
        .hasMessageContaining("at least 1");
  }
}
