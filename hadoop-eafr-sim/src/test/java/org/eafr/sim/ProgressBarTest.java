package org.eafr.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProgressBarTest {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

  private String drive(ProgressBar.Mode mode) {
    ProgressBar bar = new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8), 2, mode);
    for (int step = 1; step <= 100; step++) {
      bar.update(0, step / 100.0);
    }
    bar.finished(0);
    for (int step = 1; step <= 100; step++) {
      bar.update(1, step / 100.0);
    }
    bar.finished(1);
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aLogGetsOnePlainLinePerTenPercentAndNoCarriageReturns() {
    String log = drive(ProgressBar.Mode.LINES);
    assertThat(log).doesNotContain("\r");
    assertThat(log.lines()).startsWith("progress:  10% (0/2 runs done)", "progress:  20% (0/2 runs done)")
        .endsWith("progress: 100% (2/2 runs done)");
    assertThat(log.lines().count()).isEqualTo(10);
  }

  @Test
  void aTerminalGetsABarRedrawnInPlace() {
    String screen = drive(ProgressBar.Mode.BAR);
    assertThat(screen).startsWith("\r[").endsWith("100% (2/2 runs done)" + System.lineSeparator());
  }

  @Test
  void offPrintsNothing() {
    assertThat(drive(ProgressBar.Mode.OFF)).isEmpty();
  }
}
