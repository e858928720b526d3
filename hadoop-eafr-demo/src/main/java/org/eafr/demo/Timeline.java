package org.eafr.demo;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The replay's samples, one per {@code demo.sample.ms}, and their picture: three panels over the run's minutes, the
 * load (reads and writes per second served, and what the trace asked for), the gear and the DataNodes on, and the
 * watts drawn against every node on. Rendered headless with XChart (the simulator's chart library) into one PNG.
 */
final class Timeline {
  /** One sample: seconds into the replay, ops/s, gear (-1: unknown), hosts on, watts. */
  record Sample(double seconds, double readsPerSecond, double writesPerSecond, double plannedPerSecond, int gear,
      int hostsOn, double watts, double wattsAllOn) {
  }

  private static final int WIDTH = 1000;
  private static final int PANEL_HEIGHT = 320;

  private final List<Sample> samples = new ArrayList<>();

  synchronized void add(Sample sample) {
    samples.add(sample);
  }

  synchronized List<Sample> samples() {
    return List.copyOf(samples);
  }

  /** Writes the PNG; {@code title} names the run (mode, trace slice, energy). */
  void writePng(Path file, String title, int hosts) throws IOException {
    List<Sample> all = samples();
    double[] minutes = all.stream().mapToDouble(s -> s.seconds() / 60).toArray();
    double lastMinute = axisEnd(all);
    XYChart load = panel(title + " - load", "operations per second (ops/s)", lastMinute);
    line(load, "reads/s served", minutes, all.stream().mapToDouble(Sample::readsPerSecond).toArray(), Color.BLUE);
    line(load, "writes/s served", minutes, all.stream().mapToDouble(Sample::writesPerSecond).toArray(),
        new Color(0, 140, 0));
    line(load, "ops/s in the trace", minutes, all.stream().mapToDouble(Sample::plannedPerSecond).toArray(),
        Color.GRAY);
    XYChart gears = panel("Gear and DataNodes on (of " + hosts + ")", "gear / DataNodes (count)", lastMinute);
    gears.getStyler().setYAxisMin(0.0);
    gears.getStyler().setYAxisMax(hosts + 1.0);
    line(gears, "gear in service (n/a while unknown: gap)", minutes,
        all.stream().mapToDouble(s -> s.gear() < 0 ? Double.NaN : s.gear()).toArray(), Color.MAGENTA);
    line(gears, "DataNodes on", minutes, all.stream().mapToDouble(Sample::hostsOn).toArray(), Color.BLACK);
    XYChart watts = panel("Power of the DataNode hosts (EAFR Table 2 model)", "power (W)", lastMinute);
    watts.getStyler().setYAxisMin(0.0); // from 0 W, so the gap between the lines reads as the share saved
    line(watts, "watts drawn", minutes, all.stream().mapToDouble(Sample::watts).toArray(), Color.RED);
    line(watts, "watts with every node on", minutes, all.stream().mapToDouble(Sample::wattsAllOn).toArray(),
        Color.ORANGE);
    watts.setXAxisTitle("time into the replay (minutes)");
    writePanels(file, List.of(load, gears, watts), WIDTH, PANEL_HEIGHT);
  }

  /** The charts, each {@code width} x {@code height}, one below the other in one PNG. */
  static void writePanels(Path file, List<? extends Chart<?, ?>> panels, int width, int height) throws IOException {
    BufferedImage image = new BufferedImage(width, height * panels.size(), BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, image.getWidth(), image.getHeight());
    for (int i = 0; i < panels.size(); i++) {
      g.drawImage(BitmapEncoder.getBufferedImage(panels.get(i)), 0, i * height, null);
    }
    g.dispose();
    ImageIO.write(image, "png", file.toFile());
  }

  /** The time axes' end: the whole minute at or after the last sample, at least 1. */
  static double axisEnd(List<Sample> samples) {
    double last = samples.isEmpty() ? 0 : samples.get(samples.size() - 1).seconds() / 60;
    return Math.max(1, Math.ceil(last));
  }

  /**
   * One panel over minutes 0 to {@code lastMinute}: ticks on whole minutes (left to itself, XChart split the samples'
   * range into fifteenths: ".000017 0.6833 1.3667 ..."), the legend below the plot, where it hides no line and every
   * panel's plot keeps the same width, so the three time axes line up.
   */
  static XYChart panel(String title, String yTitle, double lastMinute) {
    XYChart chart = new XYChartBuilder().width(WIDTH).height(PANEL_HEIGHT)
        .title(title).xAxisTitle("time into the replay (minutes)").yAxisTitle(yTitle).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
    chart.getStyler().setXAxisMin(0.0);
    chart.getStyler().setXAxisMax(lastMinute);
    chart.getStyler().setXAxisDecimalPattern("#0.#");
    chart.getStyler().setMarkerSize(0);
    chart.getStyler().setChartBackgroundColor(Color.WHITE);
    return chart;
  }

  private static void line(XYChart chart, String name, double[] x, double[] y, Color color) {
    if (x.length == 0) {
      x = new double[] {0};
      y = new double[] {Double.NaN};
    }
    XYSeries series = chart.addSeries(name, x, y);
    series.setMarker(SeriesMarkers.NONE);
    series.setLineColor(color);
  }
}
