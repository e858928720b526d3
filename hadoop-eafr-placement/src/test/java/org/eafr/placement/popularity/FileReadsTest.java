package org.eafr.placement.popularity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FileReadsTest {
  @Test
  void javadocExample_boundsOnTheFileAndEachReplica() {
    FileReads reads = FileReads.builder("f").replicaReads("s1", 5).replicaReads("s2", 7).unattributedReads(1)
        .error(2).build();

    assertThat(reads.readsLowerBound()).isEqualTo(13);
    assertThat(reads.readsUpperBound()).isEqualTo(15);
    assertThat(reads.replicaReadsLowerBound("s1")).isEqualTo(5);
    assertThat(reads.replicaReadsUpperBound("s1")).isEqualTo(7);
    assertThat(reads.replicaReadsLowerBound("s2")).isEqualTo(7);
    assertThat(reads.replicaReadsUpperBound("s2")).isEqualTo(9);
    assertThat(reads.replicaReadsLowerBound("s3")).isEqualTo(0);
    assertThat(reads.replicaReadsUpperBound("s3")).isEqualTo(2);
    assertThat(reads.unattributedReads()).isEqualTo(1);
    assertThat(reads.error()).isEqualTo(2);
    assertThat(reads.recordedServers()).containsExactly("s1", "s2");
    assertThat(reads).hasToString("f: reads [13, 15], s1 [5, 7], s2 [7, 9], unattributed [1, 3]");
  }

  @Test
  void exactReads_haveEqualBounds() {
    FileReads reads = FileReads.builder("f").replicaReads("s1", 4).build();

    assertThat(reads.readsLowerBound()).isEqualTo(4);
    assertThat(reads.readsUpperBound()).isEqualTo(4);
    assertThat(reads).hasToString("f: reads 4, s1 4, unattributed 0");
  }

  @Test
  void untrackedFile_isZeroToFloorOnTheFileAndEveryReplica() {
    FileReads reads = FileReads.untracked("f", 3);

    assertThat(reads.readsLowerBound()).isEqualTo(0);
    assertThat(reads.readsUpperBound()).isEqualTo(3);
    assertThat(reads.replicaReadsUpperBound("any")).isEqualTo(3);
    assertThat(reads.recordedServers()).isEmpty();
  }

  @Test
  void sameReadsInSameOrder_areEqual() {
    FileReads a = FileReads.builder("f").replicaReads("s1", 1).error(2).build();
    FileReads b = FileReads.builder("f").replicaReads("s1", 1).error(2).build();

    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a).isNotEqualTo(FileReads.builder("f").replicaReads("s1", 1).error(3).build());
  }

  @Test
  void manyReplicas_areAllKept() {
    FileReads.Builder builder = FileReads.builder("f");
    for (int j = 0; j < 10; j++) {
      builder.replicaReads("s" + j, j);
    }
    FileReads reads = builder.build();

    assertThat(reads.recordedServers()).hasSize(10);
    assertThat(reads.replicaReadsLowerBound("s9")).isEqualTo(9);
    assertThat(reads.readsLowerBound()).isEqualTo(45);
  }

  @Test
  void badInput_isRejectedNamingTheValue() {
    assertThatThrownBy(() -> FileReads.builder("f").replicaReads("s1", 1).replicaReads("s1", 2))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("file f: server s1 is given twice");
    assertThatThrownBy(() -> FileReads.builder("f").replicaReads("s1", -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("reads of file f on s1 -1 is not allowed: expected >= 0");
    assertThatThrownBy(() -> FileReads.builder("f").error(-2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("error -2 is not allowed: expected >= 0");
    assertThatThrownBy(() -> FileReads.untracked("f", -1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("floor -1 is not allowed: expected >= 0");
  }
}
