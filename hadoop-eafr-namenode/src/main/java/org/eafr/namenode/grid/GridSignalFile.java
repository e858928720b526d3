package org.eafr.namenode.grid;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Optional;
import org.eafr.placement.grid.GridCsv;
import org.eafr.placement.grid.GridSignal;

/**
 * The grid signal of {@code eafr.grid.signal.file}, a CSV in one of the formats the core's {@link GridCsv} reads, read
 * again whenever the file's modification time changes. A missing, unreadable or malformed file gives no signal and a
 * {@link #problem()} saying why (the scheduler then falls back to energy only); it is not read again until its
 * modification time changes. Thread-safe.
 */
public final class GridSignalFile implements GridSource {
  /** The key naming the file; empty: no signal. */
  public static final String KEY = "eafr.grid.signal.file";

  private final Path path;
  private FileTime readAt;
  private GridSignal signal;
  private String problem;

  /** @param location the file, or null or blank for none */
  public GridSignalFile(String location) {
    this.path = location == null || location.isBlank() ? null : Path.of(location.trim());
    this.problem = path == null ? "no signal (" + KEY + " is empty)" : null;
  }

  /** The file, or null when none is configured. */
  public Path path() {
    return path;
  }

  @Override
  public boolean configured() {
    return path != null;
  }

  /** The signal as the file holds it now (read again when its modification time changed), or empty. */
  @Override
  public synchronized Optional<GridSignal> current() {
    if (path == null) {
      return Optional.empty();
    }
    FileTime modified;
    try {
      modified = Files.getLastModifiedTime(path);
    } catch (NoSuchFileException e) {
      return failed(null, "the signal file " + path + " does not exist");
    } catch (IOException e) {
      return failed(null, "the signal file " + path + " cannot be read: " + e.getMessage());
    }
    if (modified.equals(readAt)) {
      return Optional.ofNullable(signal);
    }
    try (Reader in = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
      signal = GridCsv.read(in, path.toString(), null);
      problem = null;
      readAt = modified;
      return Optional.of(signal);
    } catch (IOException e) {
      return failed(modified, "the signal file " + path + " cannot be read: " + e.getMessage());
    } catch (IllegalArgumentException | UncheckedIOException e) {
      return failed(modified, "the signal file is not a grid signal CSV: " + e.getMessage());
    }
  }

  /** Why there is no signal, or null when there is one. */
  @Override
  public synchronized String problem() {
    return problem;
  }

  private Optional<GridSignal> failed(FileTime modified, String why) {
    readAt = modified;
    signal = null;
    problem = why;
    return Optional.empty();
  }
}
