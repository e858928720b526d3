package org.eafr.placement.popularity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FileIdHashTest {
  @Test
  void javadocExample_neighbouringPathsDifferInAboutHalfTheirBits() {
    assertThat(FileIdHash.of("")).isNotEqualTo(FileIdHash.of("/a"));
    long differingBits = 0;
    int pairs = 10_000;
    for (int i = 0; i < pairs; i++) {
      differingBits += Long.bitCount(FileIdHash.of("/data/part-" + i) ^ FileIdHash.of("/data/part-" + (i + 1)));
    }
    assertThat((double) differingBits / pairs).isBetween(31.0, 33.0);
  }

  @Test
  void aMillionPathsOfOneTree_haveAMillionDistinctNonZeroHashes() {
    int count = 1_000_000;
    long[] hashes = new long[count];
    for (int i = 0; i < count; i++) {
      hashes[i] = FileIdHash.of("/user/alice/logs/2024/" + (i % 1_000) + "/part-" + (i / 1_000) + ".gz");
    }
    Arrays.sort(hashes);
    assertThat(hashes[0]).isNotZero();
    for (int i = 1; i < count; i++) {
      assertThat(hashes[i]).isNotEqualTo(hashes[i - 1]);
      assertThat(hashes[i]).isNotZero();
    }
  }

  @Test
  void everyCharCounts_includingNonLatinAndTheTailAfterTheLastFullWord() {
    assertThat(FileIdHash.of("/data/é")).isNotEqualTo(FileIdHash.of("/data/e"));
    assertThat(FileIdHash.of("/abcd/x")).isNotEqualTo(FileIdHash.of("/abcd/y"));
    assertThat(FileIdHash.of("/abc")).isNotEqualTo(FileIdHash.of("/abc\u0000"));
  }
}
