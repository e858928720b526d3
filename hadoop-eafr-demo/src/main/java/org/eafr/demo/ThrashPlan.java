package org.eafr.demo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The rounds of a thrash run, fixed by its seed so a run can be replayed: one fault per round, each NameNode restart
 * (in the gear in force, and in gear 0) and the interrupted relayout exactly once, and every kind of fault at least
 * once when there are enough rounds for all (10), so even the CI's 10 rounds cover each; a run of one round restarts
 * the NameNode in its gear. Each round also gets its own seed, from which the runner draws its choices (which
 * DataNode, how long a BMC stays down); given the same cluster state a replay makes the same choices.
 *
 * <p>Worked example (checked by ThrashPlanTest): seed 1, 3 rounds gives the three once-per-run rounds; 100 rounds give
 * exactly one of each of them and each of the 7 other faults at least once.
 */
public record ThrashPlan(long seed, List<Round> rounds) {
  /** Round {@code number} (from 1): its fault and the seed of its own choices. */
  public record Round(int number, ThrashFault fault, long seed) {
  }

  public ThrashPlan {
    rounds = List.copyOf(rounds);
  }

  public static ThrashPlan of(long seed, int rounds) {
    if (rounds < 1) {
      throw new IllegalArgumentException("rounds must be at least 1, not " + rounds);
    }
    Random random = new Random(seed);
    List<ThrashFault> faults = new ArrayList<>();
    for (ThrashFault fault : ThrashFault.oncePerRun()) {
      if (faults.size() < rounds) {
        faults.add(fault);
      }
    }
    List<ThrashFault> each = new ArrayList<>(Arrays.asList(ThrashFault.repeatable()));
    Collections.shuffle(each, random);
    for (ThrashFault fault : each) {
      if (faults.size() < rounds) {
        faults.add(fault);
      }
    }
    ThrashFault[] repeatable = ThrashFault.repeatable();
    while (faults.size() < rounds) {
      faults.add(repeatable[random.nextInt(repeatable.length)]);
    }
    Collections.shuffle(faults, random);
    List<Round> plan = new ArrayList<>();
    for (int i = 0; i < rounds; i++) {
      plan.add(new Round(i + 1, faults.get(i), random.nextLong()));
    }
    return new ThrashPlan(seed, plan);
  }

  long count(ThrashFault fault) {
    return rounds.stream().filter(round -> round.fault() == fault).count();
  }
}
