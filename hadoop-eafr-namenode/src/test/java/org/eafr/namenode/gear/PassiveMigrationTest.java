package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.admin.AdminRun;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.GearedLayout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * SpringFS's passive migration on the gear tests' cluster (12 DataNodes on 3 racks, p = 4, g = 2, r = 3) with
 * {@code eafr.layout = springfs}, T = 2 and a resizing interval of 300 ms: files written in gear 3, while DataNodes 10
 * and 11 sleep, put the replicas those homes owe on DataNodes that are on; the gear-up back to gear 4 ends without
 * reflecting them, and passive migration then copies homes, 1/T of what is owed each interval, until each home it
 * copies to holds its equal-work share of the few blocks written (then what is still owed to it is dropped, as
 * SpringFS drops work owed to a full server): the blocks and bytes moved are counted, each move's copy arrived and the
 * offloaded copy it replaced is gone, and every file reads back by checksum.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PassiveMigrationTest {
  private static final int BYTES = EafrCluster.BLOCK_SIZE / 2;
  private EafrCluster cluster;

  @BeforeAll
  void startCluster() throws Exception {
    Configuration conf = GearTestCluster.conf("passive-migration");
    conf.set("eafr.layout", "springfs");
    conf.set("eafr.gear.migration-threshold", "2");
    conf.set("eafr.gear.auto.interval.ms", "300");
    cluster = GearTestCluster.start(conf);
  }

  @AfterAll
  void stopCluster() {
    GearTestCluster.stop(cluster);
  }

  @Test
  void writesInALowGearOweTheirSleepingHomes_andMigrateHomeAfterTheGearUp() throws Exception {
    GearRuntime gears = GearTestCluster.gears(cluster);
    GearedLayout layout = gears.layout().orElseThrow();
    int top = layout.maximumGear();
    gears.service().requestGear(top - 1);
    GearTestCluster.awaitGear(cluster, top - 1);
    ActiveSet on = layout.serversOn(top - 1);

    List<String> files = new ArrayList<>();
    Map<String, List<String>> before = new HashMap<>();
    for (int i = 0; i < 6; i++) {
      files.add("/passive/f" + i);
      cluster.write(files.get(i), 3, BYTES, 40 + i);
      before.put(files.get(i), cluster.holders(files.get(i)));
      assertThat(before.get(files.get(i))).allMatch(on::contains);
    }
    GenericTestUtils.waitFor(() -> gears.counters().passiveOwedFiles.get() > 0, 100, 60_000);

    gears.service().requestGear(top);
    GearTestCluster.awaitGear(cluster, top);
    assertThat(gears.counters().blocksReflected.get()).as("blocks the gear-up reflected").isZero();

    GenericTestUtils.waitFor(() -> gears.counters().passiveOwedFiles.get() == 0, 100, 60_000);
    long blocks = gears.counters().passiveMigratedBlocks.get();
    long dropped = gears.counters().passiveMigrationsDropped.get();
    assertThat(blocks).as("blocks migrated home").isPositive();
    assertThat(gears.counters().passiveMigratedBytes.get()).isEqualTo(blocks * BYTES);
    long arrived = 0;
    long left = 0;
    for (String file : files) {
      GenericTestUtils.waitFor(() -> {
        try {
          return cluster.holders(file).size() == 3; // the source's copy is deleted as excess
        } catch (java.io.IOException e) {
          throw new IllegalStateException(e);
        }
      }, 100, 60_000);
      List<String> after = cluster.holders(file);
      arrived += after.stream().filter(id -> !before.get(file).contains(id)).count();
      left += before.get(file).stream().filter(id -> !after.contains(id)).count();
    }
    assertThat(arrived).as("replicas copied to their homes").isEqualTo(blocks);
    assertThat(left).as("offloaded replicas deleted once their homes held them").isEqualTo(blocks);
    cluster.verifyChecksums();

    AdminRun status = AdminRun.run(cluster.conf(), "status");
    assertThat(status.out).contains("passive migration: backlog 0 files; " + blocks + " blocks ("
        + blocks * BYTES + " bytes) migrated home, " + dropped + " files dropped");
  }
}
