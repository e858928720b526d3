package org.eafr.namenode.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LiveHeapTest {
  @Test
  void totalBytes_isTheLastColumnOfTheTotalLine() {
    String histogram = "4242:\n"
        + " num     #instances         #bytes  class name (module)\n"
        + "-------------------------------------------------------\n"
        + "   1:         20015        1120840  [B (java.base@17.0.15)\n"
        + "   2:          1962         236136  java.lang.Class (java.base@17.0.15)\n"
        + "Total         21977        1356976\n";

    assertThat(LiveHeap.totalBytes(histogram)).isEqualTo(1_356_976L);
    assertThatThrownBy(() -> LiveHeap.totalBytes("4242:\nAttach failed")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("no Total line in the class histogram: 4242:");
  }

  @Test
  void measure_readsThisJvm_afterAFullGc() throws Exception {
    long live = LiveHeap.measure(ProcessHandle.current().pid());

    assertThat(live).isPositive().isLessThan(Runtime.getRuntime().totalMemory());
  }
}
