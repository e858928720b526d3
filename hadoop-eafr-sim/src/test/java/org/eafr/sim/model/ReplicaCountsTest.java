package org.eafr.sim.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReplicaCountsTest {

  @Test
  void countsReplicasPerServer_andDistinctBlocks_throughAddsRemovesAndARewrite() {
    ReplicaCounts counts = new ReplicaCounts(4);
    SimFile a = new SimFile(0, 100);
    SimFile b = new SimFile(1, 100);

    counts.add(a, 0);
    counts.add(a, 1);
    counts.add(b, 1);
    assertThat(counts.blocks()).isEqualTo(2);
    assertThat(counts.held(1)).isEqualTo(2);

    assertThat(counts.remove(a, 3)).isFalse(); // no replica there: nothing changes
    assertThat(counts.remove(a, 0)).isTrue();
    assertThat(counts.remove(a, 1)).isTrue(); // a has no replica left: no longer a stored block
    assertThat(counts.blocks()).isEqualTo(1);
    assertThat(counts.held(0)).isZero();
    assertThat(counts.held(1)).isEqualTo(1);

    counts.add(a, 2); // a's new version
    assertThat(counts.blocks()).isEqualTo(2);
    assertThat(counts.held(2)).isEqualTo(1);
    assertThat(a.replicas()).containsExactly(2);
  }
}
