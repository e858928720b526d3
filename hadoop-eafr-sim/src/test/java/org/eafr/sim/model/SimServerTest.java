package org.eafr.sim.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.eafr.placement.cluster.ServerRole;
import org.junit.jupiter.api.Test;

class SimServerTest {
  private static SimServer server(int capacity) {
    return new SimServer(3, 1, capacity, 1_000, 1e8, ServerRole.HOT);
  }

  @Test
  void hCountsServedAndQueuedReadsAndTheSnapshotFollows() {
    SimServer server = server(2);
    server.startServing(0);
    server.startServing(0);
    server.enqueue(0, 100, 7);
    assertThat(server.concurrentReads()).isEqualTo(3);
    assertThat(server.hasFreeSlot()).isFalse();
    assertThat(server.snapshot().concurrentReads()).isEqualTo(3);
    assertThat(server.snapshot().remainingServiceCapacity()).isEqualTo(-1);
    assertThat(server.snapshot().id()).isEqualTo("s3");
    assertThat(server.snapshot().rack()).isEqualTo("/rack1");
  }

  @Test
  void peakLoadIsTheMostConcurrentReadsSinceTheLastLook() {
    SimServer server = server(1);
    server.startServing(0);
    server.enqueue(0, 100, 1);
    server.enqueue(0, 100, 2);
    server.finishServing(10);
    server.dequeue();
    server.startServing(10);
    // Peaked at 3 (1 served, 2 queued); now 2 (1 served, 1 queued).
    assertThat(server.takePeakConcurrentReads()).isEqualTo(3);
    assertThat(server.takePeakConcurrentReads()).isEqualTo(2);
  }

  @Test
  void busySlotTimeGivesTheMeanUtilization() {
    SimServer server = server(4);
    server.startServing(0);
    server.startServing(20);
    server.finishServing(60);
    // One slot busy for 0..100 (still serving), a second for 20..60: 100 + 40 slot-microseconds by t = 100.
    assertThat(server.takeBusySlotMicros(100)).isEqualTo(140.0);
    assertThat(server.takeBusySlotMicros(150)).isEqualTo(50.0);
  }
}
