package org.eafr.datanode.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class TransferLogTest {
  private static final String BLOCK = "BP-1412-10.213.0.1-1795440769848:blk_1073741825_1001";
  private final TransferLog log = new TransferLog(ZoneOffset.UTC);

  private static long utc(String time) {
    return LocalDateTime.parse("2026-11-23T" + time).toInstant(ZoneOffset.UTC).toEpochMilli();
  }

  @Test
  void receivingThenReceived_isOneTransfer() {
    List<String> lines = List.of(
        "2026-11-23 13:40:01,123 INFO datanode.DataNode: Receiving " + BLOCK
            + " src: /10.213.0.10:43210 dest: /10.213.0.18:9866",
        "2026-11-23 13:40:01,500 INFO datanode.DataNode: some other line",
        "2026-11-23 13:40:12,623 INFO datanode.DataNode: Received " + BLOCK
            + " src: /10.213.0.10:43210 dest: /10.213.0.18:9866 volume: /data/current of size 16777216");

    List<BlockTransfer> transfers = log.parse(lines, 0);

    assertThat(transfers).hasSize(1);
    BlockTransfer transfer = transfers.get(0);
    assertThat(transfer.block()).isEqualTo(BLOCK);
    assertThat(transfer.source()).isEqualTo("10.213.0.10:43210");
    assertThat(transfer.startMillis()).isEqualTo(utc("13:40:01.123"));
    assertThat(transfer.durationMillis()).isEqualTo(11_500);
    assertThat(transfer.bytes()).isEqualTo(16_777_216L);
  }

  @Test
  void startedBeforeTheRound_orNeverEnded_isLeftOut() {
    List<String> lines = List.of(
        "2026-11-23 13:39:00,000 INFO d: Receiving blk_1 src: /10.0.0.1:1 dest: /10.0.0.2:9866",
        "2026-11-23 13:40:00,000 INFO d: Receiving blk_2 src: /10.0.0.1:2 dest: /10.0.0.2:9866",
        "2026-11-23 13:40:01,000 INFO d: Receiving blk_3 src: /10.0.0.3:3 dest: /10.0.0.2:9866",
        "2026-11-23 13:40:02,000 INFO d: Received blk_1 src: /10.0.0.1:1 dest: /10.0.0.2:9866 volume: v of size 5",
        "2026-11-23 13:40:03,000 INFO d: Received blk_2 src: /10.0.0.1:2 dest: /10.0.0.2:9866 volume: v of size 7");

    List<BlockTransfer> transfers = log.parse(lines, utc("13:39:30.000"));

    assertThat(transfers).extracting(BlockTransfer::block).containsExactly("blk_2");
  }

  @Test
  void badTimestamp_namesTheLine() {
    assertThatThrownBy(() -> log.parse(List.of(
        "2026-13-23 13:40:00,000 INFO d: Receiving blk_2 src: /10.0.0.1:2 dest: /10.0.0.2:9866"), 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2026-13-23 13:40:00,000");
  }
}
