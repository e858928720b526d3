package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.gear.shift.ShiftState;
import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.api.Test;

/**
 * The NameNode's expansion chain carries each DataNode's storage capacity, persisted with the chain, so that with
 * eafr.gear.capacity-aware the equal-work layout puts the largest DataNodes first and deals its primaries blocks by
 * bytes, the same on every NameNode and after a restart. Worked example: 12 DataNodes on 3 racks, one of 750 GB on
 * rack r1 and one of 250 GB on rack r2, the others 500 GB; p = 2, g = 1, r = 3: the chain starts with the 750 GB
 * DataNode, then the 500 GB ones, the 250 GB one last, and the two primaries (750 and 500 GB) take 0.6 and 0.4 of the
 * blocks.
 */
class ChainCapacityTest {
  private static final long GB = 1L << 30;

  private static List<Server> servers() {
    List<Server> servers = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      long gb = i == 4 ? 750 : i == 1 ? 250 : 500;
      servers.add(Server.builder(String.format("10.0.0.%d:9866", 10 + i)).rack("/r" + (i % 3 + 1))
          .storageCapacity(gb * GB).build());
    }
    return servers;
  }

  @Test
  void largestFirst_ordersTheChainByCapacity_andRecordsEveryCapacity() {
    List<GearRecord.ChainEntry> interleaved = GearRuntime.chainOf(servers(), false);
    List<GearRecord.ChainEntry> largest = GearRuntime.chainOf(servers(), true);

    assertThat(interleaved.get(0).id()).isEqualTo("10.0.0.10:9866");
    assertThat(interleaved).allMatch(entry -> entry.capacityBytes() > 0);
    assertThat(largest.get(0).id()).isEqualTo("10.0.0.14:9866");
    assertThat(largest.get(0).capacityBytes()).isEqualTo(750 * GB);
    assertThat(largest.get(11).id()).isEqualTo("10.0.0.11:9866");
    assertThat(largest.get(11).capacityBytes()).isEqualTo(250 * GB);
    assertThat(largest.subList(1, 11)).extracting(GearRecord.ChainEntry::capacityBytes).containsOnly(500 * GB);
  }

  @Test
  void capacitiesArePersisted_andARecordWithoutThemStillLoads() throws Exception {
    List<GearRecord.ChainEntry> chain = GearRuntime.chainOf(servers(), true);
    GearRecord record = new GearRecord(chain, ShiftState.steady(9));

    GearRecord read = GearRecord.fromBytes(record.toBytes());

    assertThat(read).isEqualTo(record);
    assertThat(read.chain().get(0).capacityBytes()).isEqualTo(750 * GB);
    GearRecord unknown = new GearRecord(List.of(new GearRecord.ChainEntry("a:1", "/r1"),
        new GearRecord.ChainEntry("b:1", "/r2")), ShiftState.steady(1));
    assertThat(new String(unknown.toBytes(), java.nio.charset.StandardCharsets.UTF_8)).doesNotContain("capacity");
    assertThat(GearRecord.fromBytes(unknown.toBytes()).chain().get(0).capacityBytes()).isZero();
  }

  @Test
  void capacityAware_dealsThePrimariesByBytes_fromThePersistedChain() {
    Map<String, String> keys = Map.of("eafr.layout", "rabbit", "eafr.gear.primaries", "2",
        "eafr.gear.capacity-aware", "1");
    GearRuntime gears = new GearRuntime(GearSettings.from(keys::get), EafrSettings.from(keys::get));

    gears.state(new GearRecord(gears.chainFor(servers()), ShiftState.steady(9)));

    EqualWorkLayout layout = (EqualWorkLayout) gears.layout().orElseThrow();
    assertThat(layout.byCapacity()).isTrue();
    assertThat(layout.chain().id(0)).isEqualTo("10.0.0.14:9866");
    // Usable bytes, each capacity less eafr.storage-reserve.bytes (10 GB by default): 740 and 490 GB of 1,230.
    assertThat(layout.share(0)).isCloseTo(740.0 / 1230, within(1e-12));
    assertThat(layout.share(1)).isCloseTo(490.0 / 1230, within(1e-12));
  }
}
