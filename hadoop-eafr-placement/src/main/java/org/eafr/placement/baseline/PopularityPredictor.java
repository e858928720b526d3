package org.eafr.placement.baseline;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * AptStore's Popularity Prediction Algorithm (Krish et al., AptStore, Sec. III-C, Eq. 1-2, Algorithm 1): each access
 * raises a file's popularity, more when accesses come close together, when the cluster is lightly loaded and when the
 * file is small; at the end of every reference time RT all popularities fall by the mean increase, and the next RT's
 * popularity is predicted by linear extrapolation.
 *
 * <ul>
 *   <li>Access i+1 to f: P_{i+1}(f) = P_i(f) + c / (a(f) * l * b(f) * P_i(f)) (Eq. 1), clamped to [P_min, P_max];
 *       IP += P_{i+1}(f) - P_i(f). A file's first access sets P to AVG(P), the mean over tracked files (the initial
 *       popularity when there are none), and adds nothing to IP: the file joins at the mean.
 *   <li>Deletion of f: IP += AVG(P) - P(f), with AVG(P) taken before f leaves; f is dropped. Deleting a file never
 *       accessed is a no-op: it was never tracked.
 *   <li>End of RT: MIP = IP / |F|; every file's P -= MIP / s (Eq. 2), clamped; P_predicted = P_now + (P_now -
 *       P_previousRT), clamped; IP resets. Algorithm 1 prints "P_i + (P(f) - P_i)", which is always P(f); the text
 *       describes linear extrapolation, so we read it as that. A file first accessed in this RT extrapolates from the
 *       popularity it joined with.
 * </ul>
 *
 * <p>Where the paper leaves the functions open, we choose: a(f) = seconds since f's previous access, at least 1 s, so
 * concurrent accesses give the largest increase and never divide by zero; b(f) = the number of blocks,
 * max(1, ceil(size / block size)); l = AVG(P) at the start of the RT divided by the initial popularity (1 when nothing
 * has changed, dimensionless), fixed for the whole RT. Memory is one small record per tracked file.
 *
 * <p>Worked example: c = 1, s = 2, initial popularity 1. File f is read at 0 s (P = AVG(P) = 1) and at 2 s with one
 * block and l = 1: P = 1 + 1 / (2 * 1 * 1 * 1) = 1.5, IP = 0.5. At the end of the RT, MIP = 0.5 / 1, P = 1.5 - 0.5 / 2
 * = 1.25, and P_predicted = 1.25 + (1.25 - 1) = 1.5.
 *
 * <p>Mutable and not thread-safe: it replays an audit log in order.
 */
public final class PopularityPredictor {
  private static final double MILLIS_PER_SECOND = 1000.0;
  private static final double MIN_ACCESS_INTERVAL_SECONDS = 1.0;

  private final double popularityConstant;
  private final double scalabilityConstant;
  private final double minPopularity;
  private final double maxPopularity;
  private final double initialPopularity;
  private final long blockSizeBytes;

  private final Map<String, FileState> files = new LinkedHashMap<>();
  private double popularitySum;
  private double increase;
  private double clusterLoad = 1.0;

  private PopularityPredictor(Builder b) {
    this.popularityConstant = positive("popularityConstant", b.popularityConstant);
    this.scalabilityConstant = positive("scalabilityConstant", b.scalabilityConstant);
    this.minPopularity = positive("minPopularity", b.minPopularity);
    this.maxPopularity = positive("maxPopularity", b.maxPopularity);
    this.initialPopularity = b.initialPopularity;
    checkBounds(minPopularity, maxPopularity, initialPopularity);
    if (b.blockSizeBytes < 1) {
      throw new IllegalArgumentException("blockSizeBytes " + b.blockSizeBytes + " is not allowed: expected at least 1");
    }
    this.blockSizeBytes = b.blockSizeBytes;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Access i+1 to {@code fileId} of {@code sizeBytes} at {@code timeMillis} (Eq. 1); a file's time never goes back. */
  public void recordAccess(String fileId, long sizeBytes, long timeMillis) {
    Objects.requireNonNull(fileId, "fileId");
    if (sizeBytes < 0) {
      throw new IllegalArgumentException("sizeBytes " + sizeBytes + " of file " + fileId
          + " is not allowed: expected at least 0");
    }
    FileState file = files.get(fileId);
    if (file == null) {
      join(fileId, timeMillis);
    } else {
      raise(fileId, file, sizeBytes, timeMillis);
    }
  }

  /** {@code fileId} was deleted: IP += AVG(P) - P(f) and the file is dropped. */
  public void recordDeletion(String fileId) {
    FileState file = files.get(fileId);
    if (file == null) {
      return;
    }
    increase += averagePopularity() - file.popularity;
    popularitySum -= file.popularity;
    files.remove(fileId);
  }

  /**
   * Ends the reference time: applies Eq. 2 to every file, predicts the next RT's popularity, resets IP and fixes l for
   * the next RT.
   *
   * @return each tracked file's predicted popularity, in the order files were first accessed
   */
  public Map<String, Double> endReferenceTime() {
    double meanIncrease = files.isEmpty() ? 0.0 : increase / files.size();
    Map<String, Double> predicted = new LinkedHashMap<>();
    popularitySum = 0;
    for (Map.Entry<String, FileState> entry : files.entrySet()) {
      FileState file = entry.getValue();
      double now = clamp(file.popularity - meanIncrease / scalabilityConstant);
      predicted.put(entry.getKey(), clamp(now + (now - file.previousPopularity)));
      file.popularity = now;
      file.previousPopularity = now;
      popularitySum += now;
    }
    increase = 0;
    clusterLoad = averagePopularity() / initialPopularity;
    return Collections.unmodifiableMap(predicted);
  }

  /** P(f) now; a file never accessed (or deleted) throws. */
  public double popularity(String fileId) {
    FileState file = files.get(fileId);
    if (file == null) {
      throw new IllegalArgumentException("file " + fileId + " is not allowed: it is not tracked; expected a file"
          + " accessed and not deleted");
    }
    return file.popularity;
  }

  public boolean tracks(String fileId) {
    return files.containsKey(fileId);
  }

  public int trackedFiles() {
    return files.size();
  }

  /** AVG(P) over tracked files; the initial popularity when there are none. */
  public double averagePopularity() {
    return files.isEmpty() ? initialPopularity : popularitySum / files.size();
  }

  /** IP: the popularity increase so far in this RT. */
  public double popularityIncrease() {
    return increase;
  }

  /** l for this RT: AVG(P) at its start over the initial popularity. */
  public double clusterLoad() {
    return clusterLoad;
  }

  /** b(f) = max(1, ceil(size / block size)). */
  public long blocks(long sizeBytes) {
    long whole = sizeBytes / blockSizeBytes;
    return Math.max(1, sizeBytes % blockSizeBytes == 0 ? whole : whole + 1);
  }

  /** Eq. 1, clamped; IP grows by the clamped increase. */
  private void raise(String fileId, FileState file, long sizeBytes, long timeMillis) {
    double seconds = accessIntervalSeconds(fileId, file, timeMillis);
    double p = file.popularity;
    double next = clamp(p + popularityConstant / (seconds * clusterLoad * blocks(sizeBytes) * p));
    increase += next - p;
    setPopularity(file, next);
    file.lastAccessMillis = timeMillis;
  }

  /** A file's first access: it joins at AVG(P) and adds nothing to IP. */
  private void join(String fileId, long timeMillis) {
    double p = clamp(averagePopularity());
    files.put(fileId, new FileState(p, timeMillis));
    popularitySum += p;
  }

  /** a(f): seconds since the previous access, at least 1 s. */
  private static double accessIntervalSeconds(String fileId, FileState file, long timeMillis) {
    if (timeMillis < file.lastAccessMillis) {
      throw new IllegalArgumentException("access time " + timeMillis + " ms of file " + fileId + " is not allowed:"
          + " expected at least its previous access time " + file.lastAccessMillis + " ms");
    }
    return Math.max(MIN_ACCESS_INTERVAL_SECONDS, (timeMillis - file.lastAccessMillis) / MILLIS_PER_SECOND);
  }

  private void setPopularity(FileState file, double p) {
    popularitySum += p - file.popularity;
    file.popularity = p;
  }

  private double clamp(double p) {
    return Math.min(maxPopularity, Math.max(minPopularity, p));
  }

  private static void checkBounds(double min, double max, double initial) {
    if (!(min < max)) {
      throw new IllegalArgumentException("maxPopularity " + max + " is not allowed: expected above minPopularity "
          + min);
    }
    if (!(initial >= min && initial <= max)) {
      throw new IllegalArgumentException("initialPopularity " + initial + " is not allowed: expected a number in ["
          + min + ", " + max + "]");
    }
  }

  private static double positive(String name, double value) {
    if (!(value > 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException(name + " " + value + " is not allowed: expected a finite number above 0");
    }
    return value;
  }

  /** One tracked file: its popularity now, at the end of the previous RT, and its latest access. */
  private static final class FileState {
    private double popularity;
    private double previousPopularity;
    private long lastAccessMillis;

    private FileState(double popularity, long lastAccessMillis) {
      this.popularity = popularity;
      this.previousPopularity = popularity;
      this.lastAccessMillis = lastAccessMillis;
    }
  }

  /**
   * Collects the constants. AptStore gives no values; the defaults are ours: c = 1, s = 1, P in [0.1, 100], initial
   * popularity 1, block size 128 MiB (HDFS's default).
   */
  public static final class Builder {
    private double popularityConstant = 1.0;
    private double scalabilityConstant = 1.0;
    private double minPopularity = 0.1;
    private double maxPopularity = 100.0;
    private double initialPopularity = 1.0;
    private long blockSizeBytes = 128L << 20;

    private Builder() {
    }

    /** c of Eq. 1, above 0. */
    public Builder popularityConstant(double value) {
      this.popularityConstant = value;
      return this;
    }

    /** s of Eq. 2, above 0: above 1 keeps more data popular, below 1 less. */
    public Builder scalabilityConstant(double value) {
      this.scalabilityConstant = value;
      return this;
    }

    /** P_min and P_max: 0 &lt; min &lt; max. */
    public Builder bounds(double min, double max) {
      this.minPopularity = min;
      this.maxPopularity = max;
      return this;
    }

    /** AVG(P) while no file is tracked, and the unit of the cluster load l; within the bounds. */
    public Builder initialPopularity(double value) {
      this.initialPopularity = value;
      return this;
    }

    /** The block size that b(f) counts in, at least 1 byte. */
    public Builder blockSizeBytes(long value) {
      this.blockSizeBytes = value;
      return this;
    }

    /** Validates every constant; a bad one throws naming it. */
    public PopularityPredictor build() {
      return new PopularityPredictor(this);
    }
  }
}
