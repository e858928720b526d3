package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.admin.AdminRun;
import org.eafr.namenode.power.LogCapture;
import org.eafr.namenode.testing.EafrCluster;
import org.junit.jupiter.api.Test;

/**
 * Settings that build no layout on the cluster's DataNodes (equal-work with gear groups of 3 on 9 DataNodes: the
 * default p = 3 leaves 2 gear groups, too few for r = 3): the problem is logged once, not every gear step; every gear
 * command is refused naming the keys, their values and what is allowed; {@code status} shows it; nothing changes.
 */
class GearLayoutProblemTest {
  private static final String PROBLEM = "the equal-work layout cannot be built on the 9 DataNodes of the expansion"
      + " chain with eafr.gear.primaries = 0, eafr.gear.group-size = 3, eafr.gear.replicas = 3: 2 gear groups of 3"
      + " servers are too few";

  @Test
  void impossibleLayout_isLoggedOnce_refusesEveryGearCommandNamingTheKeys_andShowsInStatus() throws Exception {
    Configuration conf = GearTestCluster.conf("gear-layout-problem");
    conf.set("eafr.gear.primaries", "0");
    conf.set("eafr.gear.group-size", "3");
    conf.set("eafr.gear.expected-datanodes", String.valueOf(EafrCluster.RACKS.length));
    try (LogCapture log = new LogCapture(); EafrCluster cluster = EafrCluster.start(conf)) {
      GearRuntime gears = cluster.runtime().gears();
      GenericTestUtils.waitFor(() -> gears.layoutProblem().isPresent(), 50, 60_000);
      for (int step = 0; step < 20; step++) {
        gears.service().step(); // besides the service's own steps every 100 ms
      }
      assertThat(log.text().lines().filter(line -> line.contains("cannot be built"))).as("logged once")
          .containsExactly("ERROR GearService - EAFR gears: " + gears.layoutProblem().orElseThrow() + "; the gears"
              + " cannot run (every DataNode stays on and every 'hdfs eafr gear' command is refused) until one of"
              + " these keys is changed in hdfs-site.xml and the NameNode restarted");
      assertThat(gears.layoutProblem().orElseThrow()).startsWith(PROBLEM)
          .endsWith("allowed on 9 DataNodes with the other keys as set: eafr.gear.primaries none;"
              + " eafr.gear.group-size 1..2; eafr.gear.replicas 2");

      for (String operand : new String[] {"auto", "0", "up", "down"}) {
        AdminRun refused = AdminRun.run(cluster.conf(), "gear", operand);
        assertThat(refused.code).as("gear %s", operand).isEqualTo(1);
        assertThat(refused.err).contains("'hdfs eafr gear " + operand + "' refused: " + PROBLEM)
            .contains("eafr.gear.group-size 1..2").contains("restart the NameNode");
      }
      assertThat(gears.autopilot().mode()).isEqualTo(GearMode.MANUAL);
      assertThat(gears.state().hasChain()).isFalse();
      assertThat(gears.counters().shifts.get()).isZero();

      AdminRun status = AdminRun.run(cluster.conf(), "status");
      assertThat(status.out).contains("gears (equal-work): cannot run, every DataNode stays on: " + PROBLEM);
      AdminRun json = AdminRun.run(cluster.conf(), "status", "-json");
      JsonNode statusGears = new ObjectMapper().readTree(json.out).get("gears");
      assertThat(statusGears.get("layoutProblem").asText()).isEqualTo(gears.layoutProblem().orElseThrow());
      assertThat(GearTestCluster.running(cluster)).hasSize(EafrCluster.RACKS.length);
    }
  }
}
