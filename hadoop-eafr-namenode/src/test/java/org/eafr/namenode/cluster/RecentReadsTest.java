package org.eafr.namenode.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RecentReadsTest {
  private final AtomicLong now = new AtomicLong();
  private final RecentReads reads = new RecentReads(10_000, now::get);

  @Test
  void workedExample_halvesEveryHalfLife() {
    reads.directed("dn1");
    reads.directed("dn1");
    assertThat(reads.count("dn1")).isEqualTo(2.0);
    now.set(10_000);
    assertThat(reads.count("dn1")).isEqualTo(1.0);
    reads.directed("dn1");
    assertThat(reads.count("dn1")).isEqualTo(2.0);
    now.set(30_000);
    assertThat(reads.count("dn1")).isEqualTo(0.5);
    assertThat(reads.count("dn2")).isEqualTo(0.0);
  }

  @Test
  void withinTheTabledSecond_decaysAsTheFormulaSays() {
    RecentReads.Counter dn1 = reads.counter("dn1");
    dn1.add(0);
    dn1.add(0);
    assertThat(dn1.value(500)).isEqualTo(2 * Math.pow(0.5, 500 / 10_000.0));
    assertThat(dn1.value(1023)).isEqualTo(2 * Math.pow(0.5, 1023 / 10_000.0));
    assertThat(dn1.value(1024)).isEqualTo(2 * Math.pow(0.5, 1024 / 10_000.0));
  }

  @Test
  void aCounterKeptByTheCaller_isTheOneLookedUpById() {
    RecentReads.Counter dn1 = reads.counter("dn1");
    assertThat(dn1.value(reads.now())).isEqualTo(0.0);
    reads.directed("dn1");
    dn1.add(reads.now());
    assertThat(reads.count("dn1")).isEqualTo(2.0);
    assertThat(reads.counter("dn1")).isSameAs(dn1);
  }

  @Test
  void eightThreadsAtOnce_loseNoRead() throws Exception {
    Thread[] threads = new Thread[8];
    for (int t = 0; t < threads.length; t++) {
      threads[t] = new Thread(() -> {
        for (int i = 0; i < 10_000; i++) {
          reads.directed("dn1");
        }
      });
      threads[t].start();
    }
    for (Thread thread : threads) {
      thread.join();
    }

    assertThat(reads.count("dn1")).isEqualTo(80_000.0);
  }

  @Test
  void aNegativeMonotonicClock_decaysLikeAnyOther() {
    now.set(-50_000);
    reads.directed("dn1");
    now.set(-40_000);
    assertThat(reads.count("dn1")).isEqualTo(0.5);
  }

  @Test
  void nonPositiveHalfLife_isRefused() {
    assertThatThrownBy(() -> new RecentReads(0, now::get)).hasMessageContaining("halfLifeMillis 0");
  }
}
