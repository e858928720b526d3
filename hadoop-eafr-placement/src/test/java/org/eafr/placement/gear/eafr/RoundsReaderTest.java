package org.eafr.placement.gear.eafr;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
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
}
