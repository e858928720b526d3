package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Random;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Gear-downs while a file is open for write (its last block under construction, known by its pipeline, not yet in
 * the block map's replica lists): a pipeline with a DataNode that stays on does not stop the shift; a pipeline only on
 * leaving DataNodes holds the shift before power-off (no cancel, no power-off) until the block is gone or complete.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GearOpenFileTest {
  private EafrCluster cluster;

  @BeforeAll
  void startCluster() throws Exception {
    cluster = GearTestCluster.start(GearTestCluster.conf("gear-open-file"));
  }

  @AfterAll
  void stopCluster() {
    GearTestCluster.stop(cluster);
  }

  @Test
  @Order(1)
  void fileBeingWrittenToADataNodeThatStaysOn_doesNotStopTheGearDown() throws Exception {
    GearedLayout layout = GearTestCluster.layout(cluster);
    String primary = layout.chain().id(layout.serversOn(0).positions()[0]);
    byte[] data = bytes(2 * 4096, 1);
    Path path = new Path("/open/kept");
    FSDataOutputStream out = GearTestCluster.createOn(cluster, path, primary);
    out.write(data, 0, 4096);
    out.hflush();

    service().requestGear(3);
    GearTestCluster.awaitGear(cluster, 3);

    out.write(data, 4096, 4096);
    out.close();
    assertThat(read(path, data.length)).isEqualTo(data);
    assertThat(GearTestCluster.gears(cluster).counters().refusedShifts.get()).isZero();
  }

  @Test
  @Order(2)
  void fileBeingWrittenOnlyToLeavingDataNodes_holdsTheShiftBeforePowerOff_untilTheBlockIsGone() throws Exception {
    GearedLayout layout = GearTestCluster.layout(cluster);
    String leaving = layout.serversOn(3).minus(layout.serversOn(2)).ids().get(0);
    Path path = new Path("/open/leaving");
    FSDataOutputStream out = GearTestCluster.createOn(cluster, path, leaving);
    out.write(bytes(4096, 2));
    out.hflush();

    service().requestGear(2);
    GenericTestUtils.waitFor(() -> layout.serversOn(3).minus(layout.serversOn(2)).ids().stream()
        .allMatch(id -> GearTestCluster.descriptor(cluster, id).isInMaintenance()), 100, 60_000);
    for (int step = 0; step < 3; step++) {
      service().step();
      GearRecord state = GearTestCluster.gears(cluster).state();
      assertThat(state.phase()).as("held before power-off, not cancelled").isEqualTo(ShiftPhase.ENTERING_MAINTENANCE);
      assertThat(state.target()).isEqualTo(2);
      assertThat(GearTestCluster.running(cluster)).as("nothing powered off").contains(leaving).hasSize(12 - 2);
    }
    assertThat(GearTestCluster.gears(cluster).counters().refusedShifts.get()).isZero();

    cluster.fs().delete(path, false); // the writer gives up: the block is gone, and the shift goes on
    GearTestCluster.awaitGear(cluster, 2);
    assertThat(GearTestCluster.running(cluster)).doesNotContain(leaving).hasSize(12 - 4);
    try {
      out.close();
    } catch (IOException expected) {
      // its file was deleted and its DataNode is off
    }
  }


  private byte[] read(Path path, int length) throws IOException {
    byte[] back = new byte[length];
    try (FSDataInputStream in = cluster.fs().open(path)) {
      in.readFully(back);
    }
    return back;
  }

  private static byte[] bytes(int length, long seed) {
    byte[] data = new byte[length];
    new Random(seed).nextBytes(data);
    return data;
  }

  private GearService service() {
    return GearTestCluster.gears(cluster).service();
  }
}
