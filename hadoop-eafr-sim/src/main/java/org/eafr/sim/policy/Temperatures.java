package org.eafr.sim.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.eafr.placement.popularity.FileTemperature;
import org.eafr.placement.popularity.IntervalReads;
import org.eafr.placement.popularity.PopularityClassifier;
import org.eafr.placement.replication.ClassifiedFile;
import org.eafr.sim.model.SimFile;

/**
 * EAFR's classification (Eq. 2-5) of every file at an interval's end, for eafr and eafr-geared: the core's
 * {@link PopularityClassifier} on the interval's reads, remembered per file for recovery's destination pool.
 */
final class Temperatures {
  private final PopularityClassifier classifier;
  private FileTemperature[] temperatures = new FileTemperature[0];

  Temperatures(PopularityClassifier classifier) {
    this.classifier = classifier;
  }

  /** Classifies every file; returns those with replicas that {@code waits} does not hold back, for the planner. */
  List<ClassifiedFile> classify(List<SimFile> files, IntervalReads interval, Predicate<SimFile> waits) {
    if (temperatures.length != files.size()) {
      temperatures = new FileTemperature[files.size()];
    }
    List<ClassifiedFile> classified = new ArrayList<>(files.size());
    for (SimFile file : files) {
      if (file.replicaCount() == 0) {
        temperatures[file.index()] = FileTemperature.NORMAL;
        continue;
      }
      var view = file.view();
      FileTemperature temperature = classifier.classify(interval.reads(file.id()), view.replicaServers());
      temperatures[file.index()] = temperature;
      if (!waits.test(file)) {
        classified.add(new ClassifiedFile(view, temperature));
      }
    }
    return classified;
  }

  /** The class of {@code file} at the last interval end (NORMAL before the first). */
  FileTemperature of(int file) {
    return file < temperatures.length && temperatures[file] != null ? temperatures[file] : FileTemperature.NORMAL;
  }
}
