package org.eafr.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ComparisonTest {
  private static final Instant SINCE = Instant.parse("2026-11-27T19:00:00Z");

  /**
   * Every node on 0.1000 kWh; eafr-geared 0.0450 kWh with p99 60 ms and 30 reads in 2,500 J while gearing up; random
   * 0.0800 kWh with p99 50 ms; springfs saved before the comparison began (an earlier one): n/a.
   */
  private static List<Comparison.Row> rows() {
    Properties off = figures("2026-11-27T19:10:00Z", "0.1", "10.0", "40.0", 0, 120, 120, 0, 0, 0, 0);
    Properties geared = figures("2026-11-27T19:20:00Z", "0.045", "12.0", "60.0", 0, 120, 120, 950, 3, 30, 2500);
    Properties stale = figures("2026-11-27T18:00:00Z", "0.05", "9.0", "30.0", 0, 120, 120, 0, 2, 0, 0);
    Properties random = figures("2026-11-27T19:30:00Z", "0.08", "11.0", "50.0", 1, 119, 120, 0, 0, 0, 0);
    return Comparison.rows(List.of("eafr-geared", "springfs", "random"),
        List.of("off", "auto-eafr-geared", "auto-springfs", "random"), List.of(off, geared, stale, random), SINCE);
  }

  private static Properties figures(String finished, String kwh, String p50, String p99, long failed, long verified,
      long files, long reflected, long shifts, long gearUpReads, double gearUpJoules) {
    Properties f = new Properties();
    f.setProperty("finished", finished);
    f.setProperty("kwh", kwh);
    f.setProperty("read.p50.ms", p50);
    f.setProperty("read.p99.ms", p99);
    f.setProperty("reads.failed", String.valueOf(failed));
    f.setProperty("files.verified", String.valueOf(verified));
    f.setProperty("files", String.valueOf(files));
    f.setProperty("blocks.reflected", String.valueOf(reflected));
    f.setProperty("gear.shifts", String.valueOf(shifts));
    f.setProperty("gearup.reads", String.valueOf(gearUpReads));
    f.setProperty("gearup.joules", String.valueOf(gearUpJoules));
    f.setProperty("passed", String.valueOf(failed == 0));
    return f;
  }

  @Test
  void ratiosAgainstEveryNodeOnAndTheRandomLayout() {
    Comparison.Row geared = rows().get(1);
    assertThat(geared.ratio()).isCloseTo(0.45, within(1e-12));
    assertThat(geared.p99VsRandom()).isCloseTo(1.2, within(1e-12));
    assertThat(geared.readsPerJoule()).isCloseTo(0.012, within(1e-12));
    assertThat(geared.clean()).isTrue();
    assertThat(rows().get(2).present()).isFalse();
    assertThat(rows().get(3).clean()).isFalse(); // a failed read and a file not verified
  }

  @Test
  void markdownTable() {
    assertThat(Comparison.markdown(rows())).isEqualTo(""
        + "| policy | run | kWh | x every node on | read p50 (ms) | read p99 (ms) | p99 x random | failed reads"
        + " | files verified | blocks reflected | gear shifts | reads/J gearing up | run checks |\n"
        + "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
        + "| every node on | off | 0.1000 | 1.00 | 10.0 | 40.0 | 0.80 | 0 | 120 of 120 | 0 | 0 | n/a | PASS |\n"
        + "| eafr-geared | auto-eafr-geared | 0.0450 | 0.45 | 12.0 | 60.0 | 1.20 | 0 | 120 of 120 | 950 | 3"
        + " | 0.01200 | PASS |\n"
        + "| springfs | auto-springfs | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | not run |\n"
        + "| random | random | 0.0800 | 0.80 | 11.0 | 50.0 | 1.00 | 1 | 119 of 120 | n/a | n/a | n/a | FAIL |\n");
  }

  @Test
  void csvTable() {
    assertThat(Comparison.csv(rows()).lines().toList()).containsExactly(
        "policy,run,kWh,x every node on,read p50 (ms),read p99 (ms),p99 x random,failed reads,files verified,"
            + "blocks reflected,gear shifts,reads/J gearing up,run checks",
        "every node on,off,0.1000,1.00,10.0,40.0,0.80,0,120/120,0,0,,PASS",
        "eafr-geared,auto-eafr-geared,0.0450,0.45,12.0,60.0,1.20,0,120/120,950,3,0.01200,PASS",
        "springfs,auto-springfs,,,,,,,,,,,not run",
        "random,random,0.0800,0.80,11.0,50.0,1.00,1,119/120,,,,FAIL");
  }

  @Test
  void chartHasAPanelPerMeasure(@TempDir Path dir) throws Exception {
    Path png = dir.resolve("compare.png");
    Comparison.chart(rows(), png);
    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image.getWidth()).isEqualTo(900);
    assertThat(image.getHeight()).isEqualTo(3 * 330);
  }

  /** The worked example of GearUpThroughput's Javadoc, and an interval outside a gear-up left out. */
  @Test
  void readsPerJouleWhileGearingUp() {
    GearUpThroughput meter = new GearUpThroughput();
    assertThat(meter.readsPerJoule()).isNaN();
    meter.add(true, 5, 600);
    meter.add(false, 100, 900);
    meter.add(true, 7, 650);
    assertThat(meter.reads()).isEqualTo(12);
    assertThat(meter.readsPerJoule()).isCloseTo(0.0096, within(1e-12));
  }

  @Test
  void runNames() {
    assertThat(DemoSettings.runName("rabbit", DemoSettings.GearMode.AUTO)).isEqualTo("auto");
    assertThat(DemoSettings.runName("springfs", DemoSettings.GearMode.AUTO)).isEqualTo("auto-springfs");
    assertThat(DemoSettings.runName("random", DemoSettings.GearMode.AUTO)).isEqualTo("random");
  }
}
