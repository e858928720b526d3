package org.eafr.placement.destination;

/**
 * One destination's share of {@link TransferSpeedEstimator}: the samples of its open window and V, the EWMA (Eq. 9)
 * of its closed windows. Windows are numbered by the estimator; this class only sees the number of the window a call
 * happens in, and closes its open window (lazily) when that number moves past it.
 *
 * <p>Writes take this object's lock; a read in the window already closed up to takes no lock (two volatile reads),
 * so the many threads choosing destinations do not contend with each other.
 */
final class DestinationSpeedEwma {
  private final double alpha;
  private long openWindow; // guarded by this
  private long windowBytes; // guarded by this
  private long windowMillis; // guarded by this
  private volatile long closedBefore; // every window before this one is folded into estimate
  private volatile double estimate = Double.NaN; // V; NaN until a window with samples closes

  DestinationSpeedEwma(double alpha, long window) {
    this.alpha = alpha;
    this.openWindow = window;
    this.closedBefore = window;
  }

  /** Adds one transfer to the window numbered {@code window}, first closing any earlier open window. */
  synchronized void record(long window, long bytes, long elapsedMillis) {
    closeWindowsBefore(window);
    windowBytes += bytes;
    windowMillis += elapsedMillis;
  }

  /** V over every window before {@code window}; NaN when none of them had a sample. */
  double estimateBefore(long window) {
    if (window <= closedBefore) {
      return estimate;
    }
    synchronized (this) {
      closeWindowsBefore(window);
      return estimate;
    }
  }

  /**
   * Folds the open window into V if it is before {@code window} and has samples: Y = bytes / seconds of the whole
   * window, so a large transfer weighs more than a small one. Empty windows in between leave V as it is.
   */
  private void closeWindowsBefore(long window) {
    if (window <= openWindow) {
      return;
    }
    if (windowMillis > 0) {
      double y = windowBytes * 1000.0 / windowMillis;
      double previous = estimate;
      estimate = Double.isNaN(previous) ? y : alpha * y + (1 - alpha) * previous;
      windowBytes = 0;
      windowMillis = 0;
    }
    openWindow = window;
    closedBefore = window; // published after estimate, so a lock-free reader that sees it sees the new V
  }
}
