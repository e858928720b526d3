package org.eafr.namenode.read;

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
  void nonPositiveHalfLife_isRefused() {
    assertThatThrownBy(() -> new RecentReads(0, now::get)).hasMessageContaining("halfLifeMillis 0");
  }
}
