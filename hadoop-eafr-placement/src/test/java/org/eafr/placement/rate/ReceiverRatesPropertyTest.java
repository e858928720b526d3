package org.eafr.placement.rate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;

/** Work conservation: whatever senders come, go, idle or are held back, the allowed rates add up to c_b. */
class ReceiverRatesPropertyTest {

  @Property(tries = 300, seed = "11")
  void allowedRatesSumToTheLink_andNoneFallsBelowTheFloor(
      @ForAll @DoubleRange(min = 1e3, max = 1e10) double capacity,
      @ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long seed) {
    Random random = new Random(seed);
    ReceiverRates rates = new ReceiverRates(new ReceiveRateController(0.2, 0.5), capacity);
    List<String> live = new ArrayList<>();
    for (int step = 0; step < 200; step++) {
      int action = random.nextInt(4);
      if (action == 0 || live.isEmpty()) {
        String sender = "s" + step;
        rates.admit(sender);
        live.add(sender);
      } else if (action == 1) {
        rates.remove(live.remove(random.nextInt(live.size())));
      } else {
        Map<String, SenderUse> use = new LinkedHashMap<>();
        for (String sender : live) {
          double rate = rates.rate(sender);
          use.put(sender, random.nextBoolean() ? SenderUse.heldBack(rate)
              : SenderUse.notHeldBack(rate * random.nextDouble()));
        }
        rates.adjust(use);
      }
      if (live.isEmpty()) {
        assertThat(rates.granted()).isZero();
        continue;
      }
      assertThat(rates.granted()).as("step %d: %s", step, rates).isCloseTo(capacity, within(capacity * 1e-9));
      double floor = ReceiverRates.MIN_SHARE * capacity / live.size();
      for (String sender : live) {
        assertThat(rates.rate(sender)).isGreaterThanOrEqualTo(floor * (1 - 1e-9));
      }
    }
  }
}
