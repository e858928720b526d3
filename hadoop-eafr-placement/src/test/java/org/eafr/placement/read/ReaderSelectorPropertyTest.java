package org.eafr.placement.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;

class ReaderSelectorPropertyTest {
  private final ReaderSelector selector = new ReaderSelector();

  @Property(tries = 1000, seed = "8")
  void selectsTheShortestServingQueueOnTheReadersRackElseAnywhere(@ForAll("readerRacks") String readerRack,
      @ForAll("holders") List<Server> holders) {
    List<Server> serving = holders.stream().filter(s -> s.role().servesReads()).collect(Collectors.toList());
    List<Server> sameRack = serving.stream().filter(s -> s.rack().equals(readerRack)).collect(Collectors.toList());

    Optional<Server> selected = selector.select(readerRack, holders);

    assertThat(selected.isPresent()).isEqualTo(!serving.isEmpty());
    selected.ifPresent(s -> {
      assertThat(s.role()).isIn(ServerRole.HOT, ServerRole.STANDBY);
      List<Server> pool = sameRack.isEmpty() ? serving : sameRack;
      assertThat(pool).contains(s);
      assertThat(s.concurrentReads()).isEqualTo(minQueue(pool).getAsInt());
    });
  }

  @Property(tries = 1000, seed = "9")
  void orderListsEveryServingHolderOnceSameRackFirstShortestQueueFirst(@ForAll("readerRacks") String readerRack,
      @ForAll("holders") List<Server> holders) {
    List<Server> order = selector.order(readerRack, holders);

    assertThat(order).containsExactlyInAnyOrderElementsOf(
        holders.stream().filter(s -> s.role().servesReads()).collect(Collectors.toList()));
    assertThat(selector.select(readerRack, holders)).isEqualTo(order.stream().findFirst());
    for (int i = 1; i < order.size(); i++) {
      Server before = order.get(i - 1);
      Server after = order.get(i);
      boolean beforeLocal = before.rack().equals(readerRack);
      boolean afterLocal = after.rack().equals(readerRack);
      assertThat(!beforeLocal && afterLocal).as("remote %s before local %s", before, after).isFalse();
      if (beforeLocal == afterLocal) {
        assertThat(before.concurrentReads()).isLessThanOrEqualTo(after.concurrentReads());
      }
    }
  }

  @Property(tries = 1000, seed = "10")
  void orderIndicesGivesExactlyTheOrderOfOrder(@ForAll("readerRacks") String readerRack,
      @ForAll("holders") List<Server> holders) {
    int count = holders.size();
    String[] racks = new String[count];
    ServerRole[] roles = new ServerRole[count];
    int[] queues = new int[count];
    for (int i = 0; i < count; i++) {
      racks[i] = holders.get(i).rack();
      roles[i] = holders.get(i).role();
      queues[i] = holders.get(i).concurrentReads();
    }
    int[] order = new int[count];

    int serving = selector.orderIndices(readerRack, racks, roles, queues, count, order);

    List<Server> byIndex = new ArrayList<>();
    for (int i = 0; i < serving; i++) {
      byIndex.add(holders.get(order[i]));
    }
    assertThat(byIndex).containsExactlyElementsOf(selector.order(readerRack, holders));
  }

  @Provide
  Arbitrary<String> readerRacks() {
    return Arbitraries.of("/r0", "/r1", "/r2", "/r3").injectNull(0.2);
  }

  @Provide
  Arbitrary<List<Server>> holders() {
    Arbitrary<ServerRole> roles = Arbitraries.of(ServerRole.class);
    Arbitrary<String> racks = Arbitraries.of("/r0", "/r1", "/r2");
    Arbitrary<Integer> queues = Arbitraries.integers().between(0, 6);
    Arbitrary<Server> shapes = Combinators.combine(roles, racks, queues)
        .as((role, rack, queue) -> Server.builder("unnamed").role(role).rack(rack).serviceCapacity(10)
            .concurrentReads(queue).build());
    return shapes.list().ofMaxSize(8).map(ReaderSelectorPropertyTest::named);
  }

  /** Gives each generated server a unique id, h0, h1, ..., so that identity checks on the order mean something. */
  private static List<Server> named(List<Server> shapes) {
    List<Server> servers = new ArrayList<>();
    for (Server shape : shapes) {
      servers.add(Server.builder("h" + servers.size()).role(shape.role()).rack(shape.rack())
          .serviceCapacity(shape.serviceCapacity()).concurrentReads(shape.concurrentReads()).build());
    }
    return servers;
  }

  private static OptionalInt minQueue(List<Server> servers) {
    return servers.stream().mapToInt(Server::concurrentReads).min();
  }
}
