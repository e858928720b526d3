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
}
