package org.eafr.namenode.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProcessCpuTest {
  @Test
  void utimePlusStime_inMicroseconds_evenWithParenthesesInTheName() {
    String stat = "4242 (java (main)) S 1 4242 4242 0 -1 4194560 9000 0 12 0 150 25 0 0 20 0 40 0 777 0 0";

    assertThat(ProcessCpu.micros(stat)).isEqualTo((150 + 25) * 10_000L);
  }

  @Test
  void thisProcess_hasUsedSomeCpu() throws Exception {
    assertThat(ProcessCpu.micros(ProcessHandle.current().pid())).isPositive();
  }
}
