package org.eafr.placement.replication;

import java.util.Objects;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.popularity.FileTemperature;

/** A file with its class for this interval: the planner's per-file input. Immutable. */
public final class ClassifiedFile {
  private final ReplicatedFile file;
  private final FileTemperature temperature;

  public ClassifiedFile(ReplicatedFile file, FileTemperature temperature) {
    this.file = Objects.requireNonNull(file, "file");
    this.temperature = Objects.requireNonNull(temperature, "temperature");
  }

  public ReplicatedFile file() {
    return file;
  }

  public FileTemperature temperature() {
    return temperature;
  }

  @Override
  public String toString() {
    return temperature + " " + file;
  }
}
