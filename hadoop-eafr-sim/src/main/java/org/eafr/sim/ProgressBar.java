package org.eafr.sim;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A progress bar on stderr for runs that take a while: the mean simulated-time progress of all runs of a scenario,
 * redrawn only when the whole percentage changes. Driven by simulated time, so it needs no clock.
 */
public final class ProgressBar {
  private static final int WIDTH = 40;

  /** Makes a bar for a number of runs. */
  @FunctionalInterface
  public interface Factory {
    ProgressBar create(int runs);
  }

  private final PrintStream out;
  private final double[] progress;
  private final boolean enabled;
  private int shownPercent = -1;
  private int finished;

  public ProgressBar(PrintStream out, int runs, boolean enabled) {
    this.out = out;
    this.progress = new double[runs];
    this.enabled = enabled;
  }

  /** Run {@code run} has reached {@code fraction} (0 to 1) of its simulated time. */
  public synchronized void update(int run, double fraction) {
    progress[run] = Math.min(1.0, fraction);
    redraw();
  }

  public synchronized void finished(int run) {
    progress[run] = 1.0;
    finished++;
    shownPercent = -1; // redraw: the count of finished runs changed even if the percentage did not
    redraw();
    if (enabled && finished == progress.length) {
      out.println();
    }
  }

  private void redraw() {
    double sum = 0;
    for (double p : progress) {
      sum += p;
    }
    int percent = (int) Math.floor(100 * sum / progress.length);
    if (!enabled || percent == shownPercent) {
      return;
    }
    shownPercent = percent;
    int filled = percent * WIDTH / 100;
    out.print(String.format(Locale.ROOT, "\r[%s%s] %3d%% (%d/%d runs done)", "#".repeat(filled),
        ".".repeat(WIDTH - filled), percent, finished, progress.length));
    out.flush();
  }
}
