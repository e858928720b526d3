package org.eafr.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimelineTest {
  private static Timeline.Sample at(double seconds) {
    return new Timeline.Sample(seconds, 2, 1, 3, 0, 3, 380, 880);
  }

  @Test
  void timeAxesEndOnTheWholeMinuteAfterTheLastSample() {
    assertThat(Timeline.axisEnd(List.of(at(0.001), at(615)))).isEqualTo(11.0);
    assertThat(Timeline.axisEnd(List.of(at(0.001), at(600)))).isEqualTo(10.0);
    assertThat(Timeline.axisEnd(List.of())).isEqualTo(1.0);
    assertThat(Timeline.panel("t", "y", 11).getStyler().getXAxisMax()).isEqualTo(11.0);
    assertThat(Timeline.panel("t", "y", 11).getStyler().getXAxisMin()).isEqualTo(0.0);
  }

  @Test
  void writesThreePanelsIntoOnePng(@TempDir Path dir) throws Exception {
    Timeline timeline = new Timeline();
    for (int second = 0; second <= 615; second++) {
      timeline.add(at(second));
    }
    Path png = dir.resolve("timeline.png");
    timeline.writePng(png, "EAFR demo, gears auto", 9);
    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image.getWidth()).isEqualTo(1000);
    assertThat(image.getHeight()).isEqualTo(3 * 320);
  }
}
