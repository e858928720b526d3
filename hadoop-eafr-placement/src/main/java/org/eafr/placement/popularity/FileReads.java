package org.eafr.placement.popularity;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The reads of one file f_i in one interval T (EAFR Sec. 3.2.2, Eq. 1), as bounds: the true v_i lies in
 * [{@link #readsLowerBound()}, {@link #readsUpperBound()}] and the true v_ij of the replica on server s in
 * [{@link #replicaReadsLowerBound(String) replicaReadsLowerBound(s)}, {@link #replicaReadsUpperBound(String)
 * replicaReadsUpperBound(s)}]. The bounds are exact (lower = upper) unless {@link ReadStatistics} had to forget files
 * to stay within its memory bound; {@link #error()} is how many reads may have gone uncounted.
 *
 * <p>v_i = sum of v_ij + unattributed reads: a read whose replica is unknown (the NameNode audit log sees the file, not
 * the DataNode) counts towards v_i only. Reads recorded on a server that no longer holds a replica still count
 * towards v_i.
 *
 * <p>Worked example: recorded reads s1 = 5, s2 = 7, 1 unattributed, error 2 give v_i in [13, 15], v_i1 in [5, 7],
 * v_i2 in [7, 9], and on server s3, which recorded nothing, v_i3 in [0, 2].
 *
 * <p>Immutable. Per-replica counts are two small parallel arrays: a file has 1 to 10 replicas, so a linear scan beats
 * a map in both time and memory.
 */
public final class FileReads {
  private static final String[] NO_SERVERS = {};
  private static final long[] NO_READS = {};

  private final String fileId;
  private final String[] servers;
  private final long[] replicaReads;
  private final long unattributedReads;
  private final long error;
  private final long recordedReads;

  private FileReads(Builder builder) {
    this.fileId = builder.fileId;
    this.servers = builder.replicas == 0 ? NO_SERVERS : Arrays.copyOf(builder.servers, builder.replicas);
    this.replicaReads = builder.replicas == 0 ? NO_READS : Arrays.copyOf(builder.replicaReads, builder.replicas);
    this.unattributedReads = builder.unattributedReads;
    this.error = builder.error;
    long sum = unattributedReads;
    for (long reads : replicaReads) {
      sum += reads;
    }
    this.recordedReads = sum;
  }

  /**
   * A file with no recorded reads that may have had up to {@code floor} reads, on the file and on each replica: what
   * {@link IntervalReads} reports for a file it does not track.
   */
  public static FileReads untracked(String fileId, long floor) {
    requireNotNegative("floor", floor);
    return builder(fileId).error(floor).build();
  }

  /** Starts an exact (error 0) set of reads for {@code fileId}; set {@link Builder#error(long)} for bounds. */
  public static Builder builder(String fileId) {
    return new Builder(fileId);
  }

  public String fileId() {
    return fileId;
  }

  /** Guaranteed lower bound of v_i: every recorded read, attributed or not. */
  public long readsLowerBound() {
    return recordedReads;
  }

  /** Guaranteed upper bound of v_i. */
  public long readsUpperBound() {
    return recordedReads + error;
  }

  /** Guaranteed lower bound of v_ij for the replica on {@code serverId}; 0 when it recorded no reads. */
  public long replicaReadsLowerBound(String serverId) {
    int index = indexOf(serverId);
    return index < 0 ? 0 : replicaReads[index];
  }

  /** Guaranteed upper bound of v_ij for the replica on {@code serverId}; {@link #error()} when it recorded none. */
  public long replicaReadsUpperBound(String serverId) {
    return replicaReadsLowerBound(serverId) + error;
  }

  /** Recorded reads with no known replica; the true number is at most this plus {@link #error()}. */
  public long unattributedReads() {
    return unattributedReads;
  }

  /** How many reads of this file, and of each replica, may have gone unrecorded. */
  public long error() {
    return error;
  }

  /** The servers with at least one recorded read, in first-read order. */
  public List<String> recordedServers() {
    return Collections.unmodifiableList(Arrays.asList(servers));
  }

  private int indexOf(String serverId) {
    Objects.requireNonNull(serverId, "serverId");
    for (int i = 0; i < servers.length; i++) {
      if (servers[i].equals(serverId)) {
        return i;
      }
    }
    return -1;
  }

  private static void requireNotNegative(String name, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(name + " " + value + " is not allowed: expected >= 0");
    }
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof FileReads)) {
      return false;
    }
    FileReads other = (FileReads) o;
    return fileId.equals(other.fileId) && Arrays.equals(servers, other.servers)
        && Arrays.equals(replicaReads, other.replicaReads) && unattributedReads == other.unattributedReads
        && error == other.error;
  }

  @Override
  public int hashCode() {
    return Objects.hash(fileId, Arrays.hashCode(servers), Arrays.hashCode(replicaReads), unattributedReads,
        error);
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder(fileId).append(": reads ")
        .append(bounds(recordedReads));
    for (int i = 0; i < servers.length; i++) {
      text.append(", ").append(servers[i]).append(' ').append(bounds(replicaReads[i]));
    }
    return text.append(", unattributed ").append(bounds(unattributedReads)).toString();
  }

  private String bounds(long lower) {
    return error == 0 ? String.valueOf(lower) : "[" + lower + ", " + (lower + error) + "]";
  }

  /** Collects per-replica reads in order; a server may appear once. */
  public static final class Builder {
    private final String fileId;
    private String[] servers = NO_SERVERS;
    private long[] replicaReads = NO_READS;
    private int replicas;
    private long unattributedReads;
    private long error;

    private Builder(String fileId) {
      this.fileId = Objects.requireNonNull(fileId, "fileId");
    }

    /** v_ij recorded for the replica on {@code serverId}. */
    public Builder replicaReads(String serverId, long reads) {
      Objects.requireNonNull(serverId, "serverId");
      requireNotNegative("reads of file " + fileId + " on " + serverId, reads);
      for (int i = 0; i < replicas; i++) {
        if (servers[i].equals(serverId)) {
          throw new IllegalArgumentException("file " + fileId + ": server " + serverId + " is given twice");
        }
      }
      if (replicas == servers.length) {
        servers = Arrays.copyOf(servers, Math.max(4, replicas * 2));
        replicaReads = Arrays.copyOf(replicaReads, Math.max(4, replicas * 2));
      }
      servers[replicas] = serverId;
      replicaReads[replicas++] = reads;
      return this;
    }

    /** Reads of the file whose replica is unknown. */
    public Builder unattributedReads(long reads) {
      requireNotNegative("unattributedReads", reads);
      this.unattributedReads = reads;
      return this;
    }

    /** How many reads may have gone unrecorded. */
    public Builder error(long error) {
      requireNotNegative("error", error);
      this.error = error;
      return this;
    }

    public FileReads build() {
      return new FileReads(this);
    }
  }
}
