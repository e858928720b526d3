package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.eafr.placement.gear.shift.ShiftState;
import org.junit.jupiter.api.Test;

/**
 * The persisted gear record: the core's shift state beside the chain, its size and the decommissioned DataNodes; host
 * names survive a round trip, and records written by older NameNodes (before the shift state was the core's, before
 * host names, grown chains or joining DataNodes were kept) still read.
 */
class GearRecordTest {
  /** Bytes as the NameNode wrote them before its record held the core's {@link ShiftState}: every field present. */
  private static final String WRITTEN_BEFORE = "{\"chain\":[{\"id\":\"127.0.0.1:1\",\"rack\":\"/r1\",\"host\":"
      + "\"dn1.eafr.local\"},{\"id\":\"127.0.0.1:2\",\"rack\":\"/r2\"},{\"id\":\"127.0.0.1:3\",\"rack\":\"/r1\"},"
      + "{\"id\":\"127.0.0.1:4\",\"rack\":\"/r2\"}],\"gear\":2,\"target\":0,\"phase\":\"ENTERING_MAINTENANCE\","
      + "\"sleeping\":[\"127.0.0.1:2\",\"127.0.0.1:3\"],\"sizedFor\":3,\"retired\":[\"127.0.0.1:4\"],"
      + "\"waking\":[\"127.0.0.1:3\"],\"joining\":[\"127.0.0.1:2\"]}";

  @Test
  void aRecordWrittenBeforeTheShiftStateWasTheCoresLoads_andIsWrittenBackByteForByte() throws Exception {
    GearRecord read = GearRecord.fromBytes(WRITTEN_BEFORE.getBytes(StandardCharsets.UTF_8));

    assertThat(read.shift()).isEqualTo(new ShiftState(2, 0, ShiftPhase.ENTERING_MAINTENANCE,
        Set.of("127.0.0.1:2", "127.0.0.1:3"), Set.of("127.0.0.1:3"), Set.of("127.0.0.1:2")));
    assertThat(read.chain()).extracting(GearRecord.ChainEntry::host).containsExactly("dn1.eafr.local", "", "", "");
    assertThat(read.sizedFor()).isEqualTo(3);
    assertThat(read.retired()).containsExactly("127.0.0.1:4");
    assertThat(new String(read.toBytes(), StandardCharsets.UTF_8)).as("the xattr format is unchanged")
        .isEqualTo(WRITTEN_BEFORE);
  }

  @Test
  void chainHostNamesSurviveTheRoundTripAndAnOlderRecordReadsWithoutThem() throws Exception {
    GearRecord state = new GearRecord(List.of(new GearRecord.ChainEntry("127.0.0.1:9866", "/r1", "dn0.eafr.local"),
        new GearRecord.ChainEntry("127.0.0.1:9867", "/r2")), new ShiftState(1, 0, ShiftPhase.ENTERING_MAINTENANCE,
        Set.of("127.0.0.1:9867"), Set.of()));

    GearRecord read = GearRecord.fromBytes(state.toBytes());

    assertThat(read).isEqualTo(state);
    assertThat(read.chain()).extracting(GearRecord.ChainEntry::host).containsExactly("dn0.eafr.local", "");
    GearRecord older = GearRecord.fromBytes(("{\"chain\":[{\"id\":\"127.0.0.1:9866\",\"rack\":\"/r1\"}],\"gear\":0,"
        + "\"target\":0,\"phase\":\"STEADY\",\"sleeping\":[]}").getBytes(StandardCharsets.UTF_8));
    assertThat(older.chain()).containsExactly(new GearRecord.ChainEntry("127.0.0.1:9866", "/r1", ""));
    assertThat(older.shift()).isEqualTo(ShiftState.steady(0));
    assertThat(state.withChain(older.chain()).chain()).isEqualTo(older.chain());
  }

  @Test
  void anExtendedChainKeepsTheSizeItWasFixedWith_andDecommissionedDataNodesSurviveTheRoundTrip() throws Exception {
    GearRecord fixed = new GearRecord(List.of(new GearRecord.ChainEntry("127.0.0.1:1", "/r1"),
        new GearRecord.ChainEntry("127.0.0.1:2", "/r2")), new ShiftState(1, 1, ShiftPhase.STEADY,
        Set.of("127.0.0.1:2"), Set.of()));
    GearRecord grown = fixed.extended(List.of(new GearRecord.ChainEntry("127.0.0.1:3", "/r1")), 2)
        .withRetired(Set.of("127.0.0.1:2"));

    GearRecord read = GearRecord.fromBytes(grown.toBytes());

    assertThat(read).isEqualTo(grown);
    assertThat(read.chain()).extracting(GearRecord.ChainEntry::id).containsExactly("127.0.0.1:1", "127.0.0.1:2",
        "127.0.0.1:3");
    assertThat(read.sizedFor()).isEqualTo(2);
    assertThat(read.gear()).isEqualTo(2);
    assertThat(read.retired()).containsExactly("127.0.0.1:2");
    assertThat(read.sleeping()).as("a decommissioned DataNode sleeps no more").isEmpty();
    GearRecord older = GearRecord.fromBytes(("{\"chain\":[{\"id\":\"127.0.0.1:1\",\"rack\":\"/r1\"},{\"id\":"
        + "\"127.0.0.1:2\",\"rack\":\"/r1\"}],\"gear\":0,\"target\":0,\"phase\":\"STEADY\",\"sleeping\":[]}")
        .getBytes(StandardCharsets.UTF_8));
    assertThat(older.sizedFor()).as("a record written before chains grew: fixed with its size").isEqualTo(2);
    assertThat(older.retired()).isEmpty();
  }

  @Test
  void aLayoutGrownToMorePrimaries_keepsItsPThroughTheRoundTripAndEveryChange() throws Exception {
    GearRecord fixed = new GearRecord(List.of(new GearRecord.ChainEntry("127.0.0.1:1", "/r1"),
        new GearRecord.ChainEntry("127.0.0.1:2", "/r2")), ShiftState.steady(1));
    GearRecord grown = fixed.withPrimaries(4);

    GearRecord read = GearRecord.fromBytes(grown.toBytes());

    assertThat(read).isEqualTo(grown).isNotEqualTo(fixed);
    assertThat(read.primaries()).isEqualTo(4);
    assertThat(read.withShift(ShiftState.steady(0)).extended(List.of(new GearRecord.ChainEntry("127.0.0.1:3", "/r1")),
        1).withRetired(Set.of("127.0.0.1:2")).withChain(read.chain()).primaries()).isEqualTo(4);
    assertThat(fixed.primaries()).as("never grown: eafr.gear.primaries sizes it").isZero();
    assertThat(new String(fixed.toBytes(), StandardCharsets.UTF_8)).doesNotContain("primaries");
  }

  @Test
  void aGearDownRecordsTheDataNodesItAdds_andItsCancelWakesOnlyThose() throws Exception {
    List<GearRecord.ChainEntry> chain = List.of(new GearRecord.ChainEntry("127.0.0.1:1", "/r1"),
        new GearRecord.ChainEntry("127.0.0.1:2", "/r2"), new GearRecord.ChainEntry("127.0.0.1:3", "/r1"));
    ShiftState inGear1 = new ShiftState(1, 1, ShiftPhase.STEADY, Set.of("127.0.0.1:3"), Set.of());
    GearRecord down = new GearRecord(chain, inGear1.shifting(0, ShiftPhase.ENTERING_MAINTENANCE,
        Set.of("127.0.0.1:2", "127.0.0.1:3")));

    GearRecord read = GearRecord.fromBytes(down.toBytes());

    assertThat(read).isEqualTo(down);
    assertThat(read.joining()).containsExactly("127.0.0.1:2");
    GearRecord cancelled = read.gearDownCancelled(Set.of());
    assertThat(cancelled.phase()).isEqualTo(ShiftPhase.STEADY);
    assertThat(cancelled.gear()).isEqualTo(1);
    assertThat(cancelled.sleeping()).as("asleep since the earlier gear-down").containsExactly("127.0.0.1:3");
    assertThat(cancelled.joining()).isEmpty();
    assertThat(cancelled.chain()).isEqualTo(chain);
    GearRecord older = GearRecord.fromBytes(("{\"chain\":[{\"id\":\"127.0.0.1:1\",\"rack\":\"/r1\"},{\"id\":"
        + "\"127.0.0.1:2\",\"rack\":\"/r2\"}],\"gear\":1,\"target\":0,\"phase\":\"ENTERING_MAINTENANCE\","
        + "\"sleeping\":[\"127.0.0.1:2\"]}").getBytes(StandardCharsets.UTF_8));
    assertThat(older.joining()).as("written before the field: nothing known to be added").isEmpty();
    assertThat(older.gearDownCancelled(Set.of()).sleeping()).as("a cancel wakes none it cannot tell were added")
        .containsExactly("127.0.0.1:2");
    assertThat(older.gearDownCancelled(Set.of("127.0.0.1:2")).sleeping()).as("but every one still running")
        .isEmpty();
  }

  @Test
  void noChainMeansNoGear_andADamagedRecordIsRefusedNamingIt() throws Exception {
    assertThat(GearRecord.UNSET.gear()).isEqualTo(-1);
    assertThat(GearRecord.UNSET.phase()).isEqualTo(ShiftPhase.STEADY);
    assertThat(GearRecord.fromBytes(GearRecord.UNSET.toBytes())).isEqualTo(GearRecord.UNSET);
    assertThatThrownBy(GearRecord.UNSET::shift).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no expansion chain yet");
    assertThatThrownBy(() -> GearRecord.fromBytes(("{\"chain\":[],\"gear\":1,\"target\":0,\"phase\":\"STEADY\"}")
        .getBytes(StandardCharsets.UTF_8))).isInstanceOf(IOException.class)
        .hasMessageContaining("is damaged: a steady state in gear 1 with target 0 is not allowed");
  }
}
