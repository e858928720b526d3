package org.eafr.namenode.cluster;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the replication monitor has asked HDFS to do and the placement policy must honour: the destination the core
 * chose for a file's next replica (EAFR Eq. 10-12, used when HDFS re-replicates the file after setReplication), and
 * the servers a migration drains (preferred when HDFS deletes the file's excess replica). Kept in memory only: after a
 * NameNode restart the policy falls back to its own choices (round robin, Eq. 7), which keep every guarantee.
 */
public final class PendingActions {
  private final Map<String, String> targets = new ConcurrentHashMap<>();
  private final Map<String, Integer> draining = new ConcurrentHashMap<>();

  public void target(String path, String serverId) {
    targets.put(path, serverId);
  }

  public Optional<String> targetOf(String path) {
    return Optional.ofNullable(targets.get(path));
  }

  public void clearTarget(String path) {
    targets.remove(path);
  }

  /** One more migration drains {@code serverId}. */
  public void drain(String serverId) {
    draining.merge(serverId, 1, Integer::sum);
  }

  /** One migration from {@code serverId} has finished or was given up. */
  public void undrain(String serverId) {
    draining.computeIfPresent(serverId, (id, count) -> count > 1 ? count - 1 : null);
  }

  public boolean isDraining(String serverId) {
    return draining.containsKey(serverId);
  }

  /** Forgets everything, as a NameNode restart does. */
  public void clear() {
    targets.clear();
    draining.clear();
  }
}
