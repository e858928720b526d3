package org.eafr.namenode.cluster;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the replication monitor has asked HDFS to do and the placement policy must honour: the destination the core
 * chose for a file's next replica (EAFR Eq. 10-12, used when HDFS re-replicates the file after setReplication), the
 * servers a migration drains (preferred when HDFS deletes the file's excess replica), and the servers a draining
 * migration has just copied to (their new replicas are deleted last: a block the source does not hold must keep its
 * copy on the target). Kept in memory only: after a
 * NameNode restart the policy falls back to its own choices (round robin, Eq. 7), which keep every guarantee.
 */
public final class PendingActions {
  private final Map<String, String> targets = new ConcurrentHashMap<>();
  private final Map<String, Integer> draining = new ConcurrentHashMap<>();
  private final Map<String, Integer> receiving = new ConcurrentHashMap<>();

  public void target(String path, String serverId) {
    targets.put(path, serverId);
  }

  public Optional<String> targetOf(String path) {
    return Optional.ofNullable(targets.get(path));
  }

  public void clearTarget(String path) {
    targets.remove(path);
  }

  /** One more migration drains {@code source} after copying to {@code target}. */
  public void drain(String source, String target) {
    draining.merge(source, 1, Integer::sum);
    receiving.merge(target, 1, Integer::sum);
  }

  /** One migration from {@code source} to {@code target} has finished or was given up. */
  public void undrain(String source, String target) {
    draining.computeIfPresent(source, (id, count) -> count > 1 ? count - 1 : null);
    receiving.computeIfPresent(target, (id, count) -> count > 1 ? count - 1 : null);
  }

  /** A deletion the monitor planned leaves from {@code source}: its replica goes first, as a migration's source. */
  public void trim(String source) {
    draining.merge(source, 1, Integer::sum);
  }

  /** That deletion has finished or was given up. */
  public void trimmed(String source) {
    draining.computeIfPresent(source, (id, count) -> count > 1 ? count - 1 : null);
  }

  public boolean isDraining(String serverId) {
    return draining.containsKey(serverId);
  }

  /** Whether a draining migration has copied to {@code serverId}. */
  public boolean isReceiving(String serverId) {
    return receiving.containsKey(serverId);
  }

  /** Forgets everything, as a NameNode restart does. */
  public void clear() {
    targets.clear();
    draining.clear();
    receiving.clear();
  }
}
