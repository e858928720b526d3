package org.eafr.namenode.admin;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code hdfs eafr plan} off the IPC handlers: the preview (a walk of the namespace, as a replication round makes) runs
 * on this job's own thread, one at a time per NameNode. A request is answered at once: with the plan finished less
 * than {@value #FRESH_MILLIS} ms ago, else "pending" (starting a preview unless one runs), and the tool asks again
 * until the plan is there. So callers asking again and again add at most one walk at a time.
 */
final class PlanJob implements AutoCloseable {
  static final long FRESH_MILLIS = 2000;

  private final Callable<PlanReport> preview;
  private final ExecutorService thread = Executors.newSingleThreadExecutor(runnable -> {
    Thread named = new Thread(runnable, "eafr-plan");
    named.setDaemon(true);
    return named;
  });
  private Future<PlanReport> running;
  private PlanReport last;
  private long lastMillis;

  PlanJob(Callable<PlanReport> preview) {
    this.preview = preview;
  }

  /** The plan when a fresh one is there; empty when it is being made (ask again). Throws the preview's failure. */
  synchronized Optional<PlanReport> answer() throws IOException {
    long now = System.nanoTime() / 1_000_000;
    if (running != null && running.isDone()) {
      Future<PlanReport> done = running;
      running = null;
      try {
        last = done.get();
        lastMillis = now;
      } catch (ExecutionException e) {
        throw e.getCause() instanceof IOException ? (IOException) e.getCause()
            : new IOException("the plan could not be made: " + e.getCause().getMessage(), e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
    }
    if (last != null && now - lastMillis <= FRESH_MILLIS) {
      return Optional.of(last);
    }
    if (running == null) {
      running = thread.submit(preview);
    }
    return Optional.empty();
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
