package org.eafr.namenode.grid;

import java.util.Optional;
import org.eafr.placement.grid.GridSignal;

/**
 * Where the NameNode's grid signal comes from: a CSV file ({@link GridSignalFile}) or a polled URL
 * ({@link GridSignalUrl}).
 */
public interface GridSource {
  /** The signal as the source gives it now, or empty (then {@link #problem()} says why). */
  Optional<GridSignal> current();

  /** Why there is no signal, or null when there is one. */
  String problem();

  /** Whether a file or URL is configured: its problems are then reported even when the objective is energy. */
  boolean configured();
}
