package org.eafr.placement.recovery;

import java.util.Objects;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.popularity.FileTemperature;

/**
 * One file that lost a replica with a failed server, and its temperature, which picks the pool the new replica goes
 * to (EAFR Sec. 3.6). Immutable.
 */
public final class LostReplica {
  private final ReplicatedFile file;
  private final FileTemperature temperature;

  public LostReplica(ReplicatedFile file, FileTemperature temperature) {
    this.file = Objects.requireNonNull(file, "file");
    this.temperature = Objects.requireNonNull(temperature, "temperature");
  }

  public static LostReplica of(ReplicatedFile file, FileTemperature temperature) {
    return new LostReplica(file, temperature);
  }

  /** The file, with its replica servers as they were, the failed server included. */
  public ReplicatedFile file() {
    return file;
  }

  public FileTemperature temperature() {
    return temperature;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof LostReplica)) {
      return false;
    }
    LostReplica l = (LostReplica) o;
    return file.equals(l.file) && temperature == l.temperature;
  }

  @Override
  public int hashCode() {
    return Objects.hash(file, temperature);
  }

  @Override
  public String toString() {
    return file + " " + temperature;
  }
}
