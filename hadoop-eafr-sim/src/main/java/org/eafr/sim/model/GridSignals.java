package org.eafr.sim.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eafr.placement.grid.GridCsv;
import org.eafr.placement.grid.GridSignal;
import org.eafr.placement.settings.InvalidSettingException;
import org.eafr.sim.SimSettings;

/**
 * The grid signals runs are accounted and scheduled against, read once per location by the core's {@link GridCsv}: a
 * file path, or {@code classpath:grid/NAME.csv} for the weeks shipped in the jar (README there).
 */
public final class GridSignals {
  private static final String CLASSPATH = "classpath:";
  private static final Map<String, GridSignal> LOADED = new ConcurrentHashMap<>();

  private GridSignals() {
  }

  /** The signal of {@code settings} ({@code sim.grid.signal}), or null when it names none. */
  public static GridSignal of(SimSettings settings) {
    String location = settings.gridSignal();
    return location == null ? null : LOADED.computeIfAbsent(location, GridSignals::load);
  }

  private static GridSignal load(String location) {
    try (Reader in = open(location)) {
      return GridCsv.read(in, location, null);
    } catch (IOException e) {
      throw new UncheckedIOException("grid signal " + location + ": " + e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      throw new InvalidSettingException(SimSettings.GRID_SIGNAL, location, "a grid signal CSV: " + e.getMessage());
    }
  }

  private static Reader open(String location) throws IOException {
    if (location.startsWith(CLASSPATH)) {
      InputStream in = GridSignals.class.getClassLoader().getResourceAsStream(location.substring(CLASSPATH.length()));
      if (in == null) {
        throw new InvalidSettingException(SimSettings.GRID_SIGNAL, location, "a resource in the simulator's jar,"
            + " e.g. classpath:grid/gb-2023-01-09.csv");
      }
      return new InputStreamReader(in, StandardCharsets.UTF_8);
    }
    if (!Files.isRegularFile(Paths.get(location))) {
      throw new InvalidSettingException(SimSettings.GRID_SIGNAL, location, "a readable grid signal CSV file");
    }
    return Files.newBufferedReader(Paths.get(location), StandardCharsets.UTF_8);
  }
}
