package org.eafr.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ThrashVerdictTest {
  /** The summary part of Hadoop 3.4's fsck report. */
  private static final String HEALTHY = String.join("\n",
      "Status: HEALTHY",
      " Number of data-nodes:\t9",
      " Total blocks (validated):\t412 (avg. block size 786432 B)",
      " Missing blocks:\t\t0",
      " Corrupt blocks:\t\t0",
      "The filesystem under path '/' is HEALTHY");
  private static final ThrashVerdict.Fsck OK = ThrashVerdict.Fsck.parse(HEALTHY);

  @Test
  void fsckReportIsRead() {
    assertThat(OK).isEqualTo(new ThrashVerdict.Fsck("HEALTHY", 0, 0));
    assertThat(ThrashVerdict.Fsck.parse("Status: CORRUPT\n Missing blocks:\t\t3\n Corrupt blocks:\t\t1\n"))
        .isEqualTo(new ThrashVerdict.Fsck("CORRUPT", 3, 1));
    assertThat(ThrashVerdict.Fsck.parse("Connection refused")).isEqualTo(new ThrashVerdict.Fsck("no status line", -1,
        -1));
  }

  @Test
  void aCleanRunPasses() {
    ThrashVerdict verdict = new ThrashVerdict(OK, 200, 200, 0, 0, 0, List.of(), 1, List.of("EAFR power: node dn4"
        + " quarantined after 3 consecutive failed attempts"));

    assertThat(verdict.failures()).isEmpty();
  }

  @Test
  void eachBrokenCheckIsNamed() {
    ThrashVerdict verdict = new ThrashVerdict(ThrashVerdict.Fsck.parse("Status: CORRUPT\n Missing blocks:\t\t3\n"),
        200, 197, 2, 1, 4, List.of("7 (gear down): gear 2 not reached in 420 s"), 2, List.of("one line"));

    assertThat(verdict.failures()).containsExactly(
        "fsck: status CORRUPT, 3 missing, n/a corrupt blocks",
        "2 checksum mismatches",
        "3 of 200 files not read back intact",
        "1 failed reads",
        "4 failed writes",
        "round 7 (gear down): gear 2 not reached in 420 s",
        "the power manager counted 2 quarantines, the NameNode log names 1");
  }

  @Test
  void theRestartInGearZeroPassesWhenAtMostOnePercentOfTheBlocksAsleepWasCopied() {
    assertThat(ThrashVerdict.restartCopiesWithinGoal(0, 0)).isTrue();
    assertThat(ThrashVerdict.restartCopiesWithinGoal(3, 300)).isTrue();
    assertThat(ThrashVerdict.restartCopiesWithinGoal(4, 300)).isFalse();
    assertThat(ThrashVerdict.restartCopiesWithinGoal(1, 99)).isFalse();
  }
}
