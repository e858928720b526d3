package org.eafr.placement.gear.layout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class PfairScheduleTest {

  @Test
  void workedExample_halfThirdSixth_dealsABACAB() {
    PfairSchedule schedule = new PfairSchedule(new double[] {1.0 / 2, 1.0 / 3, 1.0 / 6}, 1);
    StringBuilder order = new StringBuilder();

    for (int slot = 0; slot < 6; slot++) {
      schedule.beginSlot();
      int server = schedule.poll();
      schedule.take(server);
      schedule.endSlot();
      order.append((char) ('A' + server));
    }

    assertThat(order.toString()).isEqualTo("ABACAB");
  }

  @Property(tries = 1000, seed = "8")
  void everyPrefix_keepsEachServerWithinOneOfItsShare_andPicksDistinctServers(
      @ForAll @IntRange(min = 1, max = 4) int perSlot, @ForAll @IntRange(min = 0, max = 40) int extra,
      @ForAll long seed) {
    Random random = new Random(seed);
    double[] weights = randomWeights(random, perSlot, perSlot + extra);
    PfairSchedule schedule = new PfairSchedule(weights, perSlot);
    long[] picked = new long[weights.length];

    for (int slot = 1; slot <= 400; slot++) {
      schedule.beginSlot();
      boolean[] seen = new boolean[weights.length];
      for (int k = 0; k < perSlot; k++) {
        int server = schedule.poll();
        assertThat(seen[server]).as("server %d twice in slot %d", server, slot).isFalse();
        seen[server] = true;
        schedule.take(server);
        picked[server]++;
      }
      schedule.endSlot();
      for (int i = 0; i < weights.length; i++) {
        assertThat(Math.abs(slot * weights[i] - picked[i])).as("lag of server %d after %d slots", i, slot)
            .isLessThan(1 + 1e-6);
      }
    }
  }

  /** {@code count} weights in [0, 1] adding up to {@code total}. */
  static double[] randomWeights(Random random, int total, int count) {
    double[] weights = new double[count];
    double sum = 0;
    for (int i = 0; i < count; i++) {
      weights[i] = random.nextDouble();
      sum += weights[i];
    }
    // Scale to the total, then cap at 1 and push the excess onto servers with room, until none exceeds 1.
    for (int i = 0; i < count; i++) {
      weights[i] *= total / sum;
    }
    for (boolean moved = true; moved;) {
      moved = false;
      double excess = 0;
      int room = 0;
      for (int i = 0; i < count; i++) {
        if (weights[i] > 1) {
          excess += weights[i] - 1;
          weights[i] = 1;
          moved = true;
        } else if (weights[i] < 1) {
          room++;
        }
      }
      for (int i = 0; i < count && excess > 0; i++) {
        if (weights[i] < 1) {
          weights[i] += excess / room;
        }
      }
    }
    return weights;
  }
}
