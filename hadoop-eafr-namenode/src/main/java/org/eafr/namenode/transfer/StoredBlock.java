package org.eafr.namenode.transfer;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * One block of a file as the NameNode's replica map holds it now: its id, its length and the ids of the DataNodes
 * that hold a replica, in the block map's order. The {@link TransferTracker}'s and the replication monitor's view of
 * HDFS, free of Hadoop types so the tracker can be tested with plain values.
 */
public final class StoredBlock {
  private final long id;
  private final long length;
  private final Set<String> holders;

  public StoredBlock(long id, long length, Collection<String> holders) {
    this.id = id;
    this.length = length;
    this.holders = Collections.unmodifiableSet(new LinkedHashSet<>(holders));
  }

  public long id() {
    return id;
  }

  public long length() {
    return length;
  }

  public Set<String> holders() {
    return holders;
  }

  @Override
  public String toString() {
    return "block " + id + " (" + length + " B) on " + holders;
  }
}
