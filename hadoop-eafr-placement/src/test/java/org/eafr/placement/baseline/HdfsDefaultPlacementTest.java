package org.eafr.placement.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.StorageReserve;
import org.junit.jupiter.api.Test;

class HdfsDefaultPlacementTest {
  private static final StorageReserve RESERVE = new StorageReserve(10);
  private static final long FILE = 5;

  private static Server server(String id, String rack) {
    return Server.builder(id).rack(rack).storageCapacity(100).build();
  }

  private static Server full(String id, String rack) {
    return Server.builder(id).rack(rack).storageCapacity(100).storageUsed(95).build();
  }

  private static List<String> ids(List<Server> servers) {
    return servers.stream().map(Server::id).collect(Collectors.toList());
  }

  private static HdfsDefaultPlacement seeded(long seed) {
    return new HdfsDefaultPlacement(RESERVE, new Random(seed));
  }

  @Test
  void workedExample_writerFirstThenTheOtherRackTwice() {
    List<Server> servers = List.of(server("a1", "/a"), server("a2", "/a"), server("b1", "/b"), server("b2", "/b"));

    List<String> chosen = ids(seeded(1).choose("a2", 3, FILE, servers));

    assertThat(chosen.get(0)).isEqualTo("a2");
    assertThat(chosen.subList(1, 3)).containsExactlyInAnyOrder("b1", "b2");
  }

  @Test
  void seed42WithoutWriter_picksExactlyTheseServers() {
    // Random(42) draws nextInt(8)=5, nextInt(5)=3, nextInt(1)=0, nextInt(5)=4:
    // b3 from all 8; c1 from [a1,a2,a3,c1,c2] (off /b); c2 from [c2] (on /c); b2 from [a1,a2,a3,b1,b2].
    List<Server> servers = List.of(server("a1", "/a"), server("a2", "/a"), server("a3", "/a"), server("b1", "/b"),
        server("b2", "/b"), server("b3", "/b"), server("c1", "/c"), server("c2", "/c"));

    assertThat(ids(seeded(42).choose(null, 4, FILE, servers))).containsExactly("b3", "c1", "c2", "b2");
  }

  @Test
  void sameSeed_givesTheSamePlacement() {
    List<Server> servers = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      servers.add(server("s" + i, "/r" + (i % 5)));
    }

    assertThat(seeded(7).choose("x", 5, FILE, servers)).isEqualTo(seeded(7).choose("x", 5, FILE, servers));
  }

  @Test
  void writerWithoutRoom_isSkippedForARandomServer() {
    List<Server> servers = List.of(full("a1", "/a"), server("a2", "/a"), server("b1", "/b"));

    assertThat(ids(seeded(3).choose("a1", 3, FILE, servers))).doesNotContain("a1").hasSize(2);
  }

  @Test
  void serversWithoutRoomAboveTheReserve_areNeverChosen() {
    List<Server> servers = List.of(full("a1", "/a"), server("a2", "/a"), full("b1", "/b"), server("b2", "/b"),
        server("b3", "/b"));

    assertThat(ids(seeded(5).choose(null, 5, FILE, servers))).containsExactlyInAnyOrder("a2", "b2", "b3");
  }

  @Test
  void oneRackOnly_fallsBackToThatRack() {
    List<Server> servers = List.of(server("a1", "/a"), server("a2", "/a"), server("a3", "/a"));

    assertThat(ids(seeded(9).choose("a1", 3, FILE, servers))).startsWith("a1")
        .containsExactlyInAnyOrder("a1", "a2", "a3");
  }

  @Test
  void secondRackWithOneServer_putsTheThirdReplicaOnTheFirstRack() {
    List<Server> servers = List.of(server("a1", "/a"), server("a2", "/a"), server("b1", "/b"), server("c1", "/c"));

    List<String> chosen = ids(seeded(11).choose("a1", 3, FILE, servers));

    assertThat(chosen.get(0)).isEqualTo("a1");
    assertThat(chosen.get(1)).isIn("b1", "c1");
    assertThat(chosen.get(2)).isEqualTo("a2");
  }

  @Test
  void racksOfOneServerEach_spreadThreeReplicasOverThreeRacks() {
    List<Server> servers = List.of(server("a1", "/a"), server("b1", "/b"), server("c1", "/c"));

    assertThat(ids(seeded(13).choose("a1", 3, FILE, servers))).startsWith("a1").containsExactlyInAnyOrder("a1",
        "b1", "c1");
  }

  @Test
  void fewerServersThanReplicas_returnsEveryServerOnce() {
    List<Server> servers = List.of(server("a1", "/a"), server("b1", "/b"));

    assertThat(ids(seeded(17).choose(null, 5, FILE, servers))).containsExactlyInAnyOrder("a1", "b1");
  }

  @Test
  void noServers_givesNoPlacement() {
    assertThat(seeded(19).choose("w", 3, FILE, List.of())).isEmpty();
  }

  @Test
  void result_isUnmodifiable() {
    List<Server> chosen = seeded(23).choose(null, 1, FILE, List.of(server("a1", "/a")));

    assertThatThrownBy(() -> chosen.add(server("b1", "/b"))).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void zeroReplicas_isRejected() {
    assertThatThrownBy(() -> seeded(1).choose(null, 0, FILE, List.of())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("replicas 0").hasMessageContaining("at least 1");
  }

  @Test
  void negativeSize_isRejected() {
    assertThatThrownBy(() -> seeded(1).choose(null, 3, -1, List.of())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sizeBytes -1");
  }

  @Test
  void repeatedServerId_isRejected() {
    List<Server> servers = List.of(server("a1", "/a"), server("a1", "/b"));

    assertThatThrownBy(() -> seeded(1).choose(null, 2, FILE, servers)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("server id a1 appears twice");
  }

  @Property(tries = 1000, seed = "424242")
  void placement_hasNoDuplicatesOnlyServersWithRoomAndAsManyAsPossible(@ForAll("clusters") List<Server> servers,
      @ForAll @IntRange(min = 1, max = 6) int replicas, @ForAll @IntRange(min = -1, max = 14) int writer,
      @ForAll long seed) {
    String writerId = "s" + writer;
    List<Server> chosen = seeded(seed).choose(writerId, replicas, FILE, servers);

    List<Server> withRoom = servers.stream().filter(s -> RESERVE.canHold(s, FILE)).collect(Collectors.toList());
    assertThat(new HashSet<>(ids(chosen))).hasSize(chosen.size());
    assertThat(chosen).allMatch(s -> RESERVE.canHold(s, FILE));
    assertThat(chosen).hasSize(Math.min(replicas, withRoom.size()));
    if (ids(withRoom).contains(writerId)) {
      assertThat(chosen.get(0).id()).isEqualTo(writerId);
    }
    if (chosen.size() >= 2 && withRoom.stream().map(Server::rack).distinct().count() >= 2) {
      assertThat(chosen.get(1).rack()).isNotEqualTo(chosen.get(0).rack());
    }
  }

  @Property(tries = 1000, seed = "31337")
  void threeReplicas_spanExactlyTwoRacks_whenEveryRackHasTwoServersWithRoom(
      @ForAll("racksOfTwoOrMore") List<Server> servers, @ForAll @IntRange(min = -1, max = 20) int writer,
      @ForAll long seed) {
    List<Server> chosen = seeded(seed).choose("s" + writer, 3, FILE, servers);

    assertThat(chosen).hasSize(3).allMatch(s -> RESERVE.canHold(s, FILE));
    assertThat(chosen.stream().map(Server::rack).distinct()).hasSize(2);
    assertThat(chosen.get(1).rack()).isNotEqualTo(chosen.get(0).rack());
    assertThat(chosen.get(2).rack()).isEqualTo(chosen.get(1).rack());
  }

  /** Up to 15 servers s0..s14 on racks /r0../r3; about one in three has no room for the file. */
  @Provide
  Arbitrary<List<Server>> clusters() {
    return Arbitraries.integers().between(0, 11).list().ofMaxSize(15).map(codes -> {
      List<Server> servers = new ArrayList<>();
      for (int i = 0; i < codes.size(); i++) {
        String rack = "/r" + codes.get(i) / 3;
        servers.add(codes.get(i) % 3 == 0 ? full("s" + i, rack) : server("s" + i, rack));
      }
      return servers;
    });
  }

  /** 2 to 4 racks, each with 2 to 5 servers with room and one without; ids s0, s1, ... */
  @Provide
  Arbitrary<List<Server>> racksOfTwoOrMore() {
    return Arbitraries.integers().between(2, 5).list().ofMinSize(2).ofMaxSize(4).map(rackSizes -> {
      List<Server> servers = new ArrayList<>();
      for (int rack = 0; rack < rackSizes.size(); rack++) {
        servers.add(full("s" + servers.size(), "/r" + rack));
        for (int n = 0; n < rackSizes.get(rack); n++) {
          servers.add(server("s" + servers.size(), "/r" + rack));
        }
      }
      return servers;
    });
  }
}
