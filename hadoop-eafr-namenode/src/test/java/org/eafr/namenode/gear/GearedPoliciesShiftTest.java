package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.admin.AdminRun;
import org.eafr.namenode.read.EafrNetworkTopology;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.policy.GearedParts;
import org.eafr.placement.gear.policy.GearedPolicies;
import org.eafr.placement.gear.policy.GearedPolicySpec;
import org.eafr.placement.gear.policy.ReadOrdering;
import org.eafr.placement.gear.read.HitRatioBalancer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every geared policy of the core registry on one cluster (the gear tests' 12 DataNodes on 3 racks, p = 4, g = 2;
 * Accordion's lowest group 3; a read floor of 0.75, so eafr-geared's layout spreads over 10 DataNodes and its lowest
 * gear is 3), the NameNode restarted with {@code eafr.layout} set to each in turn, at the top gear: files written under the policy
 * are on the chain, reads go through its reader ordering, a shift one gear down (never below its lowest) stops the
 * DataNodes that gear lets sleep with every file read back by checksum (an operator's shift below eafr-geared's read
 * floor is refused), a file written there stays on the DataNodes
 * on, and the shift back up leaves every DataNode on and every file verified. Each policy starts from the top gear with the previous policy's files deleted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GearedPoliciesShiftTest {
  private EafrCluster cluster;

  @BeforeAll
  void startCluster() throws Exception {
    Configuration conf = GearTestCluster.conf("geared-policies");
    conf.set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, EafrNetworkTopology.class.getName());
    conf.set("eafr.layout", GearedPolicies.RABBIT.name());
    conf.set("eafr.gear.accordion.lowest-group", "3");
    conf.set("eafr.gear.eafr.read-floor", "0.75");
    cluster = GearTestCluster.start(conf);
  }

  @AfterAll
  void stopCluster() {
    GearTestCluster.stop(cluster);
  }

  /**
   * Every geared policy; Accordion (gears 0..2) last, as an operator changes eafr.layout only at the top gear: the
   * equal-work policies' top gear 4 is no gear of Accordion's and is taken as its top, while Accordion's top 2 would
   * be a gear of theirs with every DataNode on.
   */
  static List<String> policies() {
    List<String> names = List.of("rabbit", "springfs", "eafr-geared", "accordion");
    assertThat(names).containsExactlyInAnyOrderElementsOf(GearedPolicies.names());
    return names;
  }

  @ParameterizedTest
  @MethodSource("policies")
  void shiftsDownAGearAndBackUp_withEveryFileVerified(String name) throws Exception {
    GearedPolicySpec<?> policy = GearedPolicies.find(name).orElseThrow();
    runUnder(policy);
    GearedParts parts = GearTestCluster.gears(cluster).parts().orElseThrow();
    assertThat(parts.policy()).isSameAs(policy);
    GearedLayout layout = parts.layout();
    int top = layout.maximumGear();
    int lowest = parts.lowestGear();
    assertThat(lowest).isEqualTo(policy == GearedPolicies.EAFR_GEARED ? 3 : 0);
    // One gear down (never below the policy's lowest): two or three DataNodes stop and wake, which keeps the class
    // within the CI budget; the shift runs the same phases as one to gear 0.
    int down = Math.max(lowest, top - 1);

    String dir = "/" + name;
    for (int i = 0; i < 2; i++) {
      cluster.write(dir + "/f" + i, 3, EafrCluster.BLOCK_SIZE + 4096 * i, 31 * i + name.hashCode());
      assertThat(cluster.holders(dir + "/f" + i)).allMatch(ActiveSet.all(layout.chain())::contains);
    }
    cluster.verifyChecksums();
    if (parts.reads() instanceof ReadOrdering.Balanced && parts.reads().balancer() instanceof HitRatioBalancer) {
      HitRatioBalancer balancer = (HitRatioBalancer) parts.reads().balancer();
      long served = 0;
      for (int p = 0; p < layout.chain().size(); p++) {
        served += balancer.served(p);
      }
      assertThat(served).as("reads the hit-ratio balancer chose under %s", name).isPositive();
    }

    if (lowest > 0) { // eafr-geared: an operator's shift below the read floor's gear is refused, nothing changed
      AdminRun refused = AdminRun.run(cluster.conf(), "gear", String.valueOf(lowest - 1));
      assertThat(refused.code).isEqualTo(1);
      assertThat(refused.err).contains("gear " + (lowest - 1) + " is not allowed: eafr-geared keeps gear " + lowest
          + " and above on for its read floor (eafr.gear.eafr.read-floor = 0.75); allowed: " + lowest + ".." + top);
      assertThat(GearTestCluster.gears(cluster).state().gear()).isEqualTo(top);
    }
    service().requestGear(down);
    GearTestCluster.awaitGear(cluster, down);
    ActiveSet on = layout.serversOn(down);
    assertThat(on.size()).isLessThan(layout.chain().size());
    assertThat(GearTestCluster.running(cluster)).containsExactlyInAnyOrderElementsOf(on.ids());
    cluster.verifyChecksums();
    cluster.write(dir + "/low", 3, EafrCluster.BLOCK_SIZE / 2, 97);
    assertThat(cluster.holders(dir + "/low")).allMatch(on::contains);

    service().requestGear(top);
    GearTestCluster.awaitGear(cluster, top);
    assertThat(GearTestCluster.running(cluster)).hasSize(GearTestCluster.RACKS.length);
    cluster.verifyChecksums();
  }

  /** Deletes the files of the policy before, and restarts the NameNode with {@code eafr.layout} = the policy. */
  private void runUnder(GearedPolicySpec<?> policy) throws Exception {
    if (GearTestCluster.gears(cluster).settings().policy().orElseThrow() == policy) {
      return;
    }
    for (String file : cluster.files()) {
      cluster.delete(file);
    }
    cluster.mini().getConfiguration(0).set("eafr.layout", policy.name());
    cluster.mini().getNameNode().getConf().set("eafr.layout", policy.name());
    GearTestCluster.restartNameNode(cluster);
    GenericTestUtils.waitFor(() -> GearTestCluster.gears(cluster).parts().isPresent(), 50, 60_000);
  }

  private GearService service() {
    return GearTestCluster.gears(cluster).service();
  }
}
