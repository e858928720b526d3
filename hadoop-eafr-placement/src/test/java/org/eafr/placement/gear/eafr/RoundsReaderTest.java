package org.eafr.placement.gear.eafr;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.read.ReaderSelector;
import org.junit.jupiter.api.Test;

class RoundsReaderTest {
  private final RoundsReader reader = new RoundsReader();

  private static Server server(String id, String rack, int inFlight, int slots) {
    return Server.builder(id).rack(rack).serviceCapacity(slots).concurrentReads(inFlight).build();
  }

  @Test
  void workedExample_leastRoundsBeatsTheSameRack() {
    List<Server> holders = List.of(server("A", "/r1", 12, 10), server("B", "/r2", 14, 20), server("C", "/r2", 3, 5));

    assertThat(RoundsReader.waitRounds(holders.get(0))).isEqualTo(1);
    assertThat(reader.select("/r1", holders).orElseThrow().id()).isEqualTo("B");
    assertThat(new ReaderSelector().select("/r1", holders).orElseThrow().id()).isEqualTo("A");
  }

  @Test
  void workedExample_aBurstFillsEachHolderByItsSlots() {
    List<Server> holders = new ArrayList<>(List.of(server("X", "/r1", 0, 10), server("Y", "/r1", 0, 20)));
    List<Server> alg3 = new ArrayList<>(holders);
    int[] rounds = new int[2];
    int[] alg3Counts = new int[2];
    for (int read = 0; read < 30; read++) {
      Server chosen = reader.select(null, holders).orElseThrow();
      int i = chosen.id().equals("X") ? 0 : 1;
      holders.set(i, chosen.withConcurrentReads(chosen.concurrentReads() + 1));
      rounds[i]++;
      Server byAlg3 = new ReaderSelector().select(null, alg3).orElseThrow();
      int j = byAlg3.id().equals("X") ? 0 : 1;
      alg3.set(j, byAlg3.withConcurrentReads(byAlg3.concurrentReads() + 1));
      alg3Counts[j]++;
    }

    assertThat(rounds).containsExactly(10, 20);
    assertThat(alg3Counts).containsExactly(15, 15);
  }

  @Test
  void atLightLoad_theSameRackFirst_thenTheShareOfSlots() {
    List<Server> holders = List.of(server("A", "/r2", 0, 10), server("B", "/r1", 5, 10), server("C", "/r1", 4, 10));

    assertThat(reader.select("/r1", holders).orElseThrow().id()).isEqualTo("C");
    assertThat(reader.select("/r3", holders).orElseThrow().id()).isEqualTo("A");
  }

  @Test
  void onlyServingHolders() {
    Server cold = server("A", "/r1", 0, 10).withRole(ServerRole.COLD);

    assertThat(reader.select("/r1", List.of(cold))).isEmpty();
    assertThat(reader.select("/r1", List.of(cold, server("B", "/r2", 30, 10))).orElseThrow().id()).isEqualTo("B");
  }

  /**
   * {@link RoundsReader#firstIndex} skips the divisions it can (w = 0 below c; equal c compare h) and still chooses as
   * the rule written with every division does: 20,000 seeded cases of 1-5 holders, equal and unequal slots (0 counts
   * as 1), queues from -3 to 3 rounds' worth and near Integer.MAX_VALUE.
   */
  @Test
  void firstIndex_choosesAsTheRuleWrittenWithDivisions() {
    Random random = new Random(20261128);
    for (int trial = 0; trial < 20_000; trial++) {
      int count = 1 + random.nextInt(5);
      boolean sameSlots = random.nextBoolean();
      int shared = random.nextInt(12);
      boolean[] local = new boolean[count];
      int[] queues = new int[count];
      int[] slots = new int[count];
      for (int i = 0; i < count; i++) {
        local[i] = random.nextBoolean();
        slots[i] = sameSlots ? shared : random.nextInt(12);
        queues[i] = random.nextInt(50) == 0 ? Integer.MAX_VALUE - random.nextInt(3) : random.nextInt(40) - 3;
      }
      ArrayHolders holders = new ArrayHolders(local, queues, slots);

      assertThat(reader.firstIndex(holders)).as("trial %d", trial).isEqualTo(dividingEverywhere(holders));
    }
  }

  /** The choice as first written: w and (h + 1) / c of both holders divided out at every comparison. */
  private static int dividingEverywhere(ArrayHolders holders) {
    int best = -1;
    for (int i = 0; i < holders.count(); i++) {
      if (best < 0) {
        best = i;
        continue;
      }
      int rounds = Integer.compare(holders.queue(i) / Math.max(1, holders.slots(i)),
          holders.queue(best) / Math.max(1, holders.slots(best)));
      boolean better = rounds != 0 ? rounds < 0
          : holders.onReaderRack(i) != holders.onReaderRack(best) ? holders.onReaderRack(i)
          : (holders.queue(i) + 1.0) / Math.max(1, holders.slots(i))
              < (holders.queue(best) + 1.0) / Math.max(1, holders.slots(best));
      if (better) {
        best = i;
      }
    }
    return best;
  }

  private static final class ArrayHolders implements RoundsReader.Holders {
    private final boolean[] local;
    private final int[] queues;
    private final int[] slots;

    ArrayHolders(boolean[] local, int[] queues, int[] slots) {
      this.local = local;
      this.queues = queues;
      this.slots = slots;
    }

    @Override
    public int count() {
      return queues.length;
    }

    @Override
    public boolean onReaderRack(int i) {
      return local[i];
    }

    @Override
    public int queue(int i) {
      return queues[i];
    }

    @Override
    public int slots(int i) {
      return slots[i];
    }
  }
}
