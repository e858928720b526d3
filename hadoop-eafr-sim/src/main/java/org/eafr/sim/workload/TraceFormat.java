package org.eafr.sim.workload;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.BiFunction;
import org.eafr.placement.settings.InvalidSettingException;
import org.eafr.sim.SimSettings;

/**
 * The workloads the simulator reads, by name: {@code --trace NAME[:PATH]}. The synthetic workload needs no path; the
 * SWIM reader takes a SWIM .tsv or .tsv.gz file, by default the FB-2009 trace shipped in the jar; swim-paths is a SWIM
 * trace (by default FB-2010) whose jobs get generated input paths, seeded by sim.seed. With sim.trace.period.hours
 * above 0 any of them is replayed every period ({@link RepeatingWorkload}).
 */
public enum TraceFormat {
  SYNTHETIC("synthetic", null, (settings, path) -> new SyntheticWorkload(settings)),
  SWIM("swim", "classpath:FB-2009_samples_24_times_1hr_0.tsv.gz", (settings, path) -> new SwimWorkload(settings,
      path, false)),
  /** A SWIM trace with generated input paths of the FB-2010 popularity ({@link SwimPathTraceGenerator}). */
  SWIM_PATHS("swim-paths", "classpath:FB-2010_samples_24_times_1hr_0.tsv.gz", (settings, path) ->
      new SwimWorkload(settings, path, true));

  private final String formatName;
  private final String defaultPath;
  private final BiFunction<SimSettings, String, Workload> factory;

  TraceFormat(String formatName, String defaultPath, BiFunction<SimSettings, String, Workload> factory) {
    this.formatName = formatName;
    this.defaultPath = defaultPath;
    this.factory = factory;
  }

  public String formatName() {
    return formatName;
  }

  /** The trace read when the spec names no path (null: the format reads none). */
  public String defaultPath() {
    return defaultPath;
  }

  /** The workload for {@code spec}, "name" or "name:path"; an unknown name or a missing file throws naming it. */
  public static Workload open(String spec, SimSettings settings) {
    int colon = spec.indexOf(':');
    String name = (colon < 0 ? spec : spec.substring(0, colon)).toLowerCase(Locale.ROOT);
    TraceFormat format = Arrays.stream(values()).filter(f -> f.formatName.equals(name)).findFirst().orElseThrow(
        () -> new InvalidSettingException("trace", spec, "unknown trace format; known formats are "
            + Arrays.toString(Arrays.stream(values()).map(TraceFormat::formatName).toArray())));
    String path = colon < 0 ? format.defaultPath : spec.substring(colon + 1);
    if (path != null) {
      // Fail now, with the path in the message, rather than in a worker thread.
      try (var in = AbstractTraceReader.open(path)) {
        in.read();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException("cannot read trace " + path, e);
      }
    }
    Workload workload = format.factory.apply(settings, path);
    return settings.tracePeriodMicros() > 0 ? new RepeatingWorkload(workload, settings.tracePeriodMicros()) : workload;
  }
}
