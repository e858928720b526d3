package org.eafr.placement.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.junit.jupiter.api.Test;

class ReaderSelectorTest {
  private final ReaderSelector selector = new ReaderSelector();

  private final Server a = server("A", ServerRole.COLD, "/r1", 0);
  private final Server b = server("B", ServerRole.HOT, "/r2", 1);
  private final Server c = server("C", ServerRole.STANDBY, "/r1", 3);
  private final Server d = server("D", ServerRole.HOT, "/r1", 3);
  private final Server e = server("E", ServerRole.FAILED, "/r1", 0);
  private final List<Server> holders = List.of(a, b, c, d, e);

  @Test
  void javadocExample_sameRackHotHolderWinsTheTieAndColdOrFailedHoldersAreLeftOut() {
    assertThat(selector.order("/r1", holders)).containsExactly(d, c, b);
    assertThat(selector.select("/r1", holders)).contains(d);
  }

  @Test
  void javadocExample_readerOnAnotherRack_takesTheShortestQueueAnywhere() {
    assertThat(selector.order("/r3", holders)).containsExactly(b, d, c);
    assertThat(selector.select("/r3", holders)).contains(b);
  }

  @Test
  void javadocExample_overArrays_givesTheIndicesOfDCB() {
    String[] racks = {"/r1", "/r2", "/r1", "/r1", "/r1"};
    ServerRole[] roles = {ServerRole.COLD, ServerRole.HOT, ServerRole.STANDBY, ServerRole.HOT, ServerRole.FAILED};
    int[] queues = {0, 1, 3, 3, 0};
    int[] order = new int[5];

    assertThat(selector.orderIndices("/r1", racks, roles, queues, 5, order)).isEqualTo(3);
    assertThat(order).startsWith(3, 2, 1);
    assertThat(selector.orderIndices("/r3", racks, roles, queues, 5, order)).isEqualTo(3);
    assertThat(order).startsWith(1, 3, 2);
  }

  @Test
  void readerOutsideTheCluster_hasNoSameRackHolder() {
    assertThat(selector.order(null, holders)).containsExactly(b, d, c);
    assertThat(selector.select(null, holders)).contains(b);
  }

  @Test
  void sameRackHolder_winsOverAShorterQueueOnAnotherRack() {
    Server busyLocal = server("local", ServerRole.STANDBY, "/r1", 9);
    Server idleRemote = server("remote", ServerRole.HOT, "/r2", 0);

    assertThat(selector.select("/r1", List.of(idleRemote, busyLocal))).contains(busyLocal);
  }

  @Test
  void fullTie_keepsTheGivenOrder() {
    Server first = server("first", ServerRole.HOT, "/r1", 2);
    Server second = server("second", ServerRole.HOT, "/r1", 2);

    assertThat(selector.order("/r1", List.of(first, second))).containsExactly(first, second);
    assertThat(selector.order("/r1", List.of(second, first))).containsExactly(second, first);
    assertThat(selector.select("/r1", List.of(second, first))).contains(second);
  }

  @Test
  void onlyColdOrFailedHolders_selectNothing() {
    assertThat(selector.select("/r1", List.of(a, e))).isEmpty();
    assertThat(selector.order("/r1", List.of(a, e))).isEmpty();
    assertThat(selector.select("/r1", List.of())).isEmpty();
  }

  static Server server(String id, ServerRole role, String rack, int concurrentReads) {
    return Server.builder(id).role(role).rack(rack).serviceCapacity(10).concurrentReads(concurrentReads).build();
  }
}
