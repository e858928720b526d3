package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.conf.Configuration;
import org.eafr.namenode.admin.AdminRun;
import org.eafr.namenode.testing.EafrCluster;
import org.junit.jupiter.api.Test;

/**
 * With {@code eafr.gear.expected-datanodes = 0} the expansion chain is fixed by the first gear command: one that is
 * refused (a gear that does not exist) fixes nothing, so DataNodes started afterwards are still in the chain when it is
 * fixed; the first accepted one fixes it in the highest gear.
 */
class GearChainFixTest {
  @Test
  void aRefusedGearFixesNoChain_theFirstAcceptedOneFixesItInTheTopGear() throws Exception {
    Configuration conf = GearTestCluster.conf("gear-chain-fix");
    conf.set("eafr.gear.expected-datanodes", "0");
    try (EafrCluster cluster = EafrCluster.start(conf, GearTestCluster.RACKS)) {
      GearRuntime gears = cluster.runtime().gears();
      for (String operand : new String[] {"9", "up"}) {
        AdminRun refused = AdminRun.run(cluster.conf(), "gear", operand);
        assertThat(refused.code).as("gear %s", operand).isEqualTo(1);
        assertThat(refused.err).contains(operand.equals("up") ? "gear 5 does not exist" : "gear 9 does not exist")
            .contains("0..4");
        assertThat(gears.state().hasChain()).as("after gear %s", operand).isFalse();
      }

      AdminRun top = AdminRun.run(cluster.conf(), "gear", "4");
      assertThat(top.code).as(top.err).isZero();
      assertThat(top.out).contains("already in gear 4");
      assertThat(gears.state().chain()).hasSize(12);
      assertThat(gears.state().sizedFor()).isEqualTo(12);
    }
  }
}
