package org.eafr.namenode.relayout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** BatchMoves' worked example: two moves of consecutive 1 MiB blocks to two DataNodes. */
class BatchMovesTest {
  private static final long MIB = 1L << 20;

  private static BatchMoves.Builder example() {
    BatchMoves.Builder batch = new BatchMoves.Builder(1_000, 1, 2);
    batch.add(1_073_741_825L, MIB, "127.0.0.1:9866", "127.0.0.1:9867");
    batch.add(1_073_741_826L, MIB, "127.0.0.1:9867", "127.0.0.1:9866");
    return batch;
  }

  @Test
  void twoMovesOfConsecutiveBlocks_takeFiftyTwoBytes_andReadBackWhole() throws IOException {
    byte[] bytes = example().build().toBytes();

    assertThat(bytes).hasSize(52);
    BatchMoves read = BatchMoves.fromBytes(bytes);
    assertThat(read.startedMillis()).isEqualTo(1_000);
    assertThat(read.pass()).isEqualTo(1);
    assertThat(read.number()).isEqualTo(2);
    assertThat(read.size()).isEqualTo(2);
    assertThat(read.block(1)).isEqualTo(1_073_741_826L);
    assertThat(read.length(1)).isEqualTo(MIB);
    assertThat(read.source(0)).isEqualTo("127.0.0.1:9866");
    assertThat(read.target(0)).isEqualTo("127.0.0.1:9867");
    assertThat(read.source(1)).isEqualTo("127.0.0.1:9867");
    assertThat(read.target(1)).isEqualTo("127.0.0.1:9866");
  }

  @Test
  void theBuildersSize_boundsTheEncoding_andAThirdMoveBetweenKnownDataNodesCostsFourBytes() {
    BatchMoves.Builder batch = example();
    long before = batch.size();

    assertThat(batch.sizeWith(1_073_741_827L, MIB, "127.0.0.1:9866", "127.0.0.1:9867")).isEqualTo(before + 4);
    assertThat(before).isEqualTo(example().build().toBytes().length + 4);
  }

  @Test
  void aTruncatedRecord_isRefusedSayingSo() {
    byte[] bytes = example().build().toBytes();
    byte[] cut = java.util.Arrays.copyOf(bytes, 20);

    assertThatThrownBy(() -> BatchMoves.fromBytes(cut)).isInstanceOf(IOException.class)
        .hasMessageStartingWith("relayout batch record of 20 bytes cannot be read");
  }
}
