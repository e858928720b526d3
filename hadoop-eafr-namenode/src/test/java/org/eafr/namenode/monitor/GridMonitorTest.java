package org.eafr.namenode.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.eafr.namenode.admin.AdminRun;
import org.eafr.namenode.grid.GridGate;
import org.eafr.namenode.replication.RoundPreview;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.namenode.testing.GridFixture;
import org.eafr.placement.cluster.ServerRole;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * EAFR's cold migrations and trimming against the scheduler's fixture signal ({@link GridFixture}: 30-minute slots
 * forecast at 200, 180, 120, 150, 90, 300 gCO2/kWh from 00:00), a 30-minute round and a longest wait of 3 h for both
 * kinds, with the grid gate's clock driven by the test: a MIGRATE and a DELETE planned at 00:00 are held through 01:00
 * and start at 02:00, the cleanest slot, before their 03:00 deadline; the files end at r, one copy on a standby.
 */
class GridMonitorTest {
  private static final long T0 = GridFixture.T0;
  private static final long MINUTE = GridFixture.MINUTE;

  private EafrCluster cluster;

  @AfterEach
  void stop() throws IOException {
    if (cluster != null) {
      cluster.verifyChecksumsAndClose();
    }
  }

  @Test
  void coldMigrationAndTrim_waitForTheCleanestSlot_andRunBeforeTheirDeadline() throws Exception {
    Configuration conf = ReplicationMonitorTest.monitorConf("grid-monitor", 30 * MINUTE);
    conf.set("eafr.grid.objective", "carbon");
    conf.set("eafr.grid.signal.file", GridFixture.nesoCsv().toString());
    conf.set("eafr.grid.defer.cold-migration.ms", String.valueOf(180 * MINUTE));
    conf.set("eafr.grid.defer.trim.ms", String.valueOf(180 * MINUTE));
    cluster = EafrCluster.start(conf);
    cluster.standby(2, 5, 8);
    AtomicLong now = new AtomicLong(T0);
    GridGate grid = cluster.runtime().gears().grid();
    grid.clock(now::get);
    cluster.write("/data/migrate", 2, 4000, 1); // unread, at r, both copies on hot servers: a MIGRATE
    cluster.write("/data/trim", 3, 4000, 2); // unread, above r: a DELETE

    assertThat(monitor().round().actions()).extracting(a -> a.kind().name())
        .containsExactlyInAnyOrder("MIGRATE", "DELETE");
    assertThat(monitor().inFlight()).isEmpty();
    assertThat(grid.values()).containsEntry("ColdMigrationHeld", 1L).containsEntry("TrimHeld", 1L)
        .containsEntry("ColdMigrationHeldUntil", "2026-01-01T02:00:00Z")
        .containsEntry("ColdMigrationDeadline", "2026-01-01T03:00:00Z")
        .containsEntry("TrimDeadlineSeconds", (T0 + 180 * MINUTE) / 1000.0)
        .containsEntry("ReflectionHeld", 0L);
    assertThat(AdminRun.run(cluster.conf(), "status").out)
        .contains("grid (objective carbon): now 200.0 gCO2/kWh, n/a EUR/MWh")
        .contains("cold-migration held until 2026-01-01T02:00:00Z, deadline 2026-01-01T03:00:00Z")
        .contains("trim held until 2026-01-01T02:00:00Z, deadline 2026-01-01T03:00:00Z");
    assertThat(ReplicationMonitorTest.metrics(cluster)).containsEntry("GridColdMigrationHeld", 1L)
        .containsEntry("GridTrimHeld", 1L)
        .containsEntry("GridColdMigrationDeadlineTimestampSeconds", (T0 + 180 * MINUTE) / 1000.0);
    assertThat(monitor().preview().deferred()).extracting(RoundPreview.Planned::deferredBecause).containsOnly(
        "held for the grid (eafr.grid.objective = carbon): hold until 2026-01-01T02:00:00Z (WAITING, deadline"
            + " 2026-01-01T03:00:00Z)");

    now.set(T0 + 60 * MINUTE);
    monitor().round();
    assertThat(monitor().inFlight()).isEmpty();
    assertThat(cluster.holders("/data/migrate")).hasSize(2);
    assertThat(cluster.holders("/data/trim")).hasSize(3);

    now.set(T0 + 120 * MINUTE);
    monitor().round();
    assertThat(monitor().inFlight()).hasSize(2);
    assertThat(grid.values()).containsEntry("ColdMigrationHeld", 0L).containsEntry("TrimHeld", 0L);
    ReplicationMonitorTest.waitForHolders(cluster, "/data/trim", holders -> holders.size() == 2);
    ReplicationMonitorTest.waitForHolders(cluster, "/data/migrate", holders -> holders.size() == 3);
    monitor().round(); // the copy is live: drain the source, back to r
    ReplicationMonitorTest.waitForHolders(cluster, "/data/migrate", holders -> holders.size() == 2);
    monitor().round();
    assertThat(now.get()).isLessThan(T0 + 180 * MINUTE);
    assertThat(cluster.runtime().monitorStats().migrated()).isEqualTo(1);
    assertThat(cluster.runtime().monitorStats().removed()).isEqualTo(1);
    assertThat(List.of(cluster.roleOfId(cluster.holders("/data/migrate").get(0)),
        cluster.roleOfId(cluster.holders("/data/migrate").get(1))))
        .containsExactlyInAnyOrder(ServerRole.HOT, ServerRole.STANDBY);
  }

  private ReplicationMonitor monitor() {
    return cluster.monitor();
  }
}
