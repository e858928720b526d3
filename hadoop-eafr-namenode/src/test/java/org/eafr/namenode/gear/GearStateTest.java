package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The persisted gear state: host names of the chain survive a round trip; a state written before them still reads. */
class GearStateTest {
  @Test
  void chainHostNamesSurviveTheRoundTripAndAnOlderStateReadsWithoutThem() throws Exception {
    GearState state = new GearState(List.of(new GearState.ChainEntry("127.0.0.1:9866", "/r1", "dn0.eafr.local"),
        new GearState.ChainEntry("127.0.0.1:9867", "/r2")), 1, 0, GearPhase.ENTERING_MAINTENANCE,
        Set.of("127.0.0.1:9867"));

    GearState read = GearState.fromBytes(state.toBytes());

    assertThat(read).isEqualTo(state);
    assertThat(read.chain()).extracting(GearState.ChainEntry::host).containsExactly("dn0.eafr.local", "");
    GearState older = GearState.fromBytes(("{\"chain\":[{\"id\":\"127.0.0.1:9866\",\"rack\":\"/r1\"}],\"gear\":0,"
        + "\"target\":0,\"phase\":\"STEADY\",\"sleeping\":[]}").getBytes(StandardCharsets.UTF_8));
    assertThat(older.chain()).containsExactly(new GearState.ChainEntry("127.0.0.1:9866", "/r1", ""));
    assertThat(state.withChain(older.chain()).chain()).isEqualTo(older.chain());
  }

  @Test
  void anExtendedChainKeepsTheSizeItWasFixedWith_andDecommissionedDataNodesSurviveTheRoundTrip() throws Exception {
    GearState fixed = new GearState(List.of(new GearState.ChainEntry("127.0.0.1:1", "/r1"),
        new GearState.ChainEntry("127.0.0.1:2", "/r2")), 1, 1, GearPhase.STEADY, Set.of("127.0.0.1:2"));
    GearState grown = fixed.extended(List.of(new GearState.ChainEntry("127.0.0.1:3", "/r1")), 2)
        .withRetired(Set.of("127.0.0.1:2"));

    GearState read = GearState.fromBytes(grown.toBytes());

    assertThat(read).isEqualTo(grown);
    assertThat(read.chain()).extracting(GearState.ChainEntry::id).containsExactly("127.0.0.1:1", "127.0.0.1:2",
        "127.0.0.1:3");
    assertThat(read.sizedFor()).isEqualTo(2);
    assertThat(read.gear()).isEqualTo(2);
    assertThat(read.retired()).containsExactly("127.0.0.1:2");
    assertThat(read.sleeping()).as("a decommissioned DataNode sleeps no more").isEmpty();
    GearState older = GearState.fromBytes(("{\"chain\":[{\"id\":\"127.0.0.1:1\",\"rack\":\"/r1\"},{\"id\":"
        + "\"127.0.0.1:2\",\"rack\":\"/r1\"}],\"gear\":0,\"target\":0,\"phase\":\"STEADY\",\"sleeping\":[]}")
        .getBytes(StandardCharsets.UTF_8));
    assertThat(older.sizedFor()).as("a state written before chains grew: fixed with its size").isEqualTo(2);
    assertThat(older.retired()).isEmpty();
  }

  @Test
  void aGearDownRecordsTheDataNodesItAdds_andItsCancelWakesOnlyThose() throws Exception {
    List<GearState.ChainEntry> chain = List.of(new GearState.ChainEntry("127.0.0.1:1", "/r1"),
        new GearState.ChainEntry("127.0.0.1:2", "/r2"), new GearState.ChainEntry("127.0.0.1:3", "/r1"));
    GearState inGear1 = new GearState(chain, 1, 1, GearPhase.STEADY, Set.of("127.0.0.1:3"));
    GearState down = inGear1.shifting(0, GearPhase.ENTERING_MAINTENANCE, Set.of("127.0.0.1:2", "127.0.0.1:3"));

    GearState read = GearState.fromBytes(down.toBytes());

    assertThat(read).isEqualTo(down);
    assertThat(read.joining()).containsExactly("127.0.0.1:2");
    GearState cancelled = read.gearDownCancelled(Set.of());
    assertThat(cancelled.phase()).isEqualTo(GearPhase.STEADY);
    assertThat(cancelled.gear()).isEqualTo(1);
    assertThat(cancelled.sleeping()).as("asleep since the earlier gear-down").containsExactly("127.0.0.1:3");
    assertThat(cancelled.joining()).isEmpty();
    assertThat(down.withPhase(GearPhase.POWERING_OFF).reached().joining()).isEmpty();
    GearState older = GearState.fromBytes(("{\"chain\":[{\"id\":\"127.0.0.1:1\",\"rack\":\"/r1\"},{\"id\":"
        + "\"127.0.0.1:2\",\"rack\":\"/r2\"}],\"gear\":1,\"target\":0,\"phase\":\"ENTERING_MAINTENANCE\","
        + "\"sleeping\":[\"127.0.0.1:2\"]}").getBytes(StandardCharsets.UTF_8));
    assertThat(older.joining()).as("written before the field: nothing known to be added").isEmpty();
    assertThat(older.gearDownCancelled(Set.of()).sleeping()).as("a cancel wakes none it cannot tell were added")
        .containsExactly("127.0.0.1:2");
    assertThat(older.gearDownCancelled(Set.of("127.0.0.1:2")).sleeping()).as("but every one still running")
        .isEmpty();
  }
}
