package org.eafr.namenode.cluster;

import java.nio.file.Path;
import java.util.Collection;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eafr.namenode.config.DataNodeName;
import org.eafr.namenode.config.RolesFile;
import org.eafr.placement.cluster.ServerRole;

/**
 * The roles in force: the operator's roles file, replaced whole on a reload that passes every check, so a bad file
 * changes nothing; plus the servers EAFR has put to sleep (Eq. 8), which {@code EafrHostConfigManager} reports to HDFS
 * as in maintenance. HDFS's own admin state overrides both in {@link ServerTranslator} (maintenance means cold).
 */
public final class ServerRoles {
  private volatile RolesFile file;
  private final Set<String> sleeping = ConcurrentHashMap.newKeySet();

  public ServerRoles(RolesFile file) {
    this.file = Objects.requireNonNull(file, "file");
  }

  /** The role the roles file gives {@code dataNode}. */
  public ServerRole roleOf(DataNodeName dataNode) {
    return file.roleOf(dataNode);
  }

  public RolesFile file() {
    return file;
  }

  /**
   * Reads {@code path}, checks that it names only {@code dataNodes}, and only then puts it in force.
   *
   * @throws IllegalArgumentException naming the file, line or host at fault; the old roles stay
   */
  public RolesFile reload(Path path, Collection<DataNodeName> dataNodes) {
    RolesFile next = RolesFile.read(path).checkNamesDataNodes(dataNodes);
    file = next;
    return next;
  }

  /** Marks the server {@code id} as put to sleep (cold) by EAFR (Eq. 8). */
  public void sleep(String id) {
    sleeping.add(id);
  }

  /** Whether EAFR has put the server {@code id} to sleep. */
  public boolean isSleeping(String id) {
    return sleeping.contains(id);
  }

  /** How many servers EAFR has put to sleep. */
  public int sleepingCount() {
    return sleeping.size();
  }

  /** The servers EAFR has put to sleep. */
  public Set<String> sleeping() {
    return Set.copyOf(sleeping);
  }

  /** Checks the roles in force against the registered DataNodes, e.g. once they have all registered. */
  public void check(Collection<DataNodeName> dataNodes) {
    file.checkNamesDataNodes(dataNodes);
  }
}
