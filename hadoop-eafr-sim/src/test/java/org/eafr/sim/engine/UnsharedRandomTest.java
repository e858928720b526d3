package org.eafr.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class UnsharedRandomTest {
  @Test
  void drawsExactlyWhatJavaUtilRandomDrawsForTheSameSeed() {
    for (long seed : new long[] {0, 1, 42, -7, Long.MAX_VALUE}) {
      Random expected = new Random(seed);
      Random actual = new UnsharedRandom(seed);
      for (int i = 0; i < 1_000; i++) {
        assertThat(actual.nextInt(10)).isEqualTo(expected.nextInt(10));
        assertThat(actual.nextInt(1 << 20)).isEqualTo(expected.nextInt(1 << 20));
        assertThat(actual.nextLong()).isEqualTo(expected.nextLong());
        assertThat(actual.nextDouble()).isEqualTo(expected.nextDouble());
        assertThat(actual.nextGaussian()).isEqualTo(expected.nextGaussian());
        assertThat(actual.nextBoolean()).isEqualTo(expected.nextBoolean());
      }
    }
  }

  @Test
  void reseedingRestartsTheSequence() {
    Random random = new UnsharedRandom(5);
    long first = random.nextLong();
    random.nextGaussian();
    random.setSeed(5);
    assertThat(random.nextLong()).isEqualTo(first);
  }
}
