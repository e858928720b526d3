package org.eafr.sim;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Progress of the runs of a scenario on stderr: the mean simulated-time progress of all runs. On a terminal it is a
 * bar redrawn in place (carriage returns) when the whole percentage changes; in a log (stderr redirected to a file or
 * a pipe) it is one plain line per 10%, so logs hold no carriage returns. Driven by simulated time, so it needs no
 * clock.
 */
public final class ProgressBar {
  private static final int WIDTH = 40;
  private static final int LINE_STEP_PERCENT = 10;

  /** How progress is shown. */
  public enum Mode {
    /** A bar redrawn in place with carriage returns: for a terminal. */
    BAR,
    /** A plain line every 10%: for logs and pipes. */
    LINES,
    /** Nothing. */
    OFF;

    /**
     * BAR when stderr is a terminal, else LINES. Java cannot ask whether stderr alone is a terminal, so the launcher
     * script tells it ({@code -Dsim.stderr.tty=true|false}, from {@code [ -t 2 ]}); without that, BAR only when the
     * JVM has a console (stdin and stdout are terminals).
     */
    public static Mode forStderr() {
      String told = System.getProperty("sim.stderr.tty");
      boolean tty = told != null ? Boolean.parseBoolean(told) : System.console() != null;
      return tty ? BAR : LINES;
    }
  }

  /** Makes a bar for a number of runs. */
  @FunctionalInterface
  public interface Factory {
    ProgressBar create(int runs);
  }

  private final PrintStream out;
  private final double[] progress;
  private final Mode mode;
  private int shownPercent = -1;
  private int finished;

  public ProgressBar(PrintStream out, int runs, Mode mode) {
    this.out = out;
    this.progress = new double[runs];
    this.mode = mode;
  }

  /** Run {@code run} has reached {@code fraction} (0 to 1) of its simulated time. */
  public synchronized void update(int run, double fraction) {
    progress[run] = Math.min(1.0, fraction);
    redraw(false);
  }

  public synchronized void finished(int run) {
    progress[run] = 1.0;
    finished++;
    redraw(true); // the count of finished runs changed even if the percentage did not
    if (mode == Mode.BAR && finished == progress.length) {
      out.println();
    }
  }

  private void redraw(boolean runFinished) {
    if (mode == Mode.OFF) {
      return;
    }
    double sum = 0;
    for (double p : progress) {
      sum += p;
    }
    int percent = (int) Math.floor(100 * sum / progress.length);
    if (mode == Mode.LINES) {
      // 100% is printed once, when the last run has finished.
      int step = Math.min(percent, finished == progress.length ? 100 : 99) / LINE_STEP_PERCENT * LINE_STEP_PERCENT;
      if (step > Math.max(shownPercent, 0)) {
        shownPercent = step;
        out.println(String.format(Locale.ROOT, "progress: %3d%% (%d/%d runs done)", step, finished,
            progress.length));
        out.flush();
      }
      return;
    }
    if (percent == shownPercent && !runFinished) {
      return;
    }
    shownPercent = percent;
    int filled = percent * WIDTH / 100;
    out.print(String.format(Locale.ROOT, "\r[%s%s] %3d%% (%d/%d runs done)", "#".repeat(filled),
        ".".repeat(WIDTH - filled), percent, finished, progress.length));
    out.flush();
  }
}
