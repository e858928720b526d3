package org.eafr.placement.destination;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.BitSet;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class CandidateSamplePropertyTest {

  @Property(tries = 1000, seed = "1717")
  void sampleHoldsMinOfDAndTheEligible_distinctEligibleAndAscending(
      @ForAll @IntRange(min = 0, max = 300) int poolSize, @ForAll @IntRange(min = 0, max = 40) int d,
      @ForAll @IntRange(min = 0, max = 100) int eligiblePercent, @ForAll long seed) {
    Random shape = new Random(seed);
    BitSet eligible = new BitSet(poolSize);
    for (int member = 0; member < poolSize; member++) {
      eligible.set(member, shape.nextInt(100) < eligiblePercent);
    }

    int[] sample = new CandidateSample(d, new Random(seed + 1)).draw(poolSize, eligible::get);

    int expected = d == CandidateSample.ALL ? eligible.cardinality() : Math.min(d, eligible.cardinality());
    assertThat(sample).hasSize(expected);
    for (int i = 0; i < sample.length; i++) {
      assertThat(eligible.get(sample[i])).as("member %d is eligible", sample[i]).isTrue();
      if (i > 0) {
        assertThat(sample[i]).isGreaterThan(sample[i - 1]);
      }
    }
  }
}
