package org.eafr.namenode.cluster;

import java.nio.file.Path;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.eafr.namenode.config.DataNodeName;
import org.eafr.namenode.config.RolesFile;
import org.eafr.placement.cluster.ServerRole;

/**
 * The roles in force: the operator's roles file, replaced whole on a reload that passes every check, so a bad file
 * changes nothing; plus the servers EAFR has put to sleep (Eq. 8), which {@code EafrHostConfigManager} reports to HDFS
 * as in maintenance. HDFS's own admin state overrides both in {@link ServerTranslator} (maintenance means cold).
 */
public final class ServerRoles {
  private final int minHotReplicas;
  private volatile RolesFile file;
  /** Each DataNode's role from {@link #file}, by transfer address; replaced with the file. */
  private volatile ConcurrentMap<String, CachedRole> cachedRoles = new ConcurrentHashMap<>();
  /** Why the file in force does not fit the registered DataNodes, or null (fits, or not checked yet). */
  private volatile String problem;
  private volatile boolean fits;
  private final Set<String> sleeping = ConcurrentHashMap.newKeySet();

  /**
   * @param minHotReplicas eps ({@code eafr.min-hot-replicas}): a file that makes no DataNode hot is refused when it is
   *     at least 1, here and on every reload
   */
  public ServerRoles(RolesFile file, int minHotReplicas) {
    this.minHotReplicas = minHotReplicas;
    this.file = Objects.requireNonNull(file, "file").checkHasHot(minHotReplicas);
  }

  /** The role the roles file gives {@code dataNode}. */
  public ServerRole roleOf(DataNodeName dataNode) {
    return file.roleOf(dataNode);
  }

  /**
   * The role the roles file gives {@code dataNode}, remembered per DataNode: the reader ordering asks for every
   * replica of every block read, and the file's lookup builds and hashes four strings per ask. A DataNode that
   * re-registers under another host name is looked up again; a reload starts a new cache with the new file.
   */
  public ServerRole roleOf(DatanodeID dataNode) {
    return roleOf(dataNode, dataNode.getXferAddr());
  }

  /** {@link #roleOf(DatanodeID)} with the DataNode's transfer address {@code address} given by the caller. */
  public ServerRole roleOf(DatanodeID dataNode, String address) {
    ConcurrentMap<String, CachedRole> cache = cachedRoles;
    CachedRole cached = cache.get(address);
    if (cached == null || !cached.hostName.equals(dataNode.getHostName())) {
      RolesFile inForce = file;
      cached = new CachedRole(inForce, dataNode.getHostName(), inForce.roleOf(ServerTranslator.nameOf(dataNode)));
      if (inForce == file) {
        cache.put(address, cached);
      }
    }
    return cached.role;
  }

  /**
   * The same role for a caller that keeps one answer per DataNode (the reader ordering, which asks for every replica
   * of every block read) and so skips the lookup by address: {@code known}, a previous answer for this DataNode (or
   * null), while it still holds (the same file in force, the same host name), else a new answer.
   */
  public CachedRole roleOf(DatanodeID dataNode, CachedRole known) {
    RolesFile inForce = file;
    String hostName = dataNode.getHostName();
    if (known != null && known.file == inForce && (known.hostName == hostName || known.hostName.equals(hostName))) {
      return known;
    }
    return new CachedRole(inForce, hostName, inForce.roleOf(ServerTranslator.nameOf(dataNode)));
  }

  public RolesFile file() {
    return file;
  }

  /**
   * Reads {@code path}, checks that it names only {@code dataNodes} and makes one of them hot, and only then puts it
   * in force.
   *
   * @throws IllegalArgumentException naming the file, line or host at fault; the old roles stay
   */
  public RolesFile reload(Path path, Collection<DataNodeName> dataNodes) {
    RolesFile next = RolesFile.read(path).checkHasHot(minHotReplicas).checkNamesDataNodes(dataNodes)
        .checkHotAmong(dataNodes, minHotReplicas);
    file = next;
    cachedRoles = new ConcurrentHashMap<>();
    problem = null;
    fits = true;
    return next;
  }

  /** Marks the server {@code id} as put to sleep (cold) by EAFR (Eq. 8). */
  public void sleep(String id) {
    sleeping.add(id);
  }

  /** Marks the server {@code id} as awake again (a gear-up took it out of maintenance). */
  public void wake(String id) {
    sleeping.remove(id);
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

  /**
   * Checks the roles in force against the registered DataNodes, as a reload does, until it passes once: the file read
   * at startup names hosts before any DataNode has registered. Returns the problem (the same message a reload would
   * give), or empty when the file fits.
   */
  public Optional<String> checkAgainst(Collection<DataNodeName> dataNodes) {
    if (!fits) {
      try {
        file.checkNamesDataNodes(dataNodes).checkHotAmong(dataNodes, minHotReplicas);
        problem = null;
        fits = true;
      } catch (IllegalArgumentException e) {
        problem = e.getMessage();
      }
    }
    return Optional.ofNullable(problem);
  }

  /** The last problem {@link #checkAgainst} found, or empty. */
  public Optional<String> problem() {
    return Optional.ofNullable(problem);
  }

  /** The role the roles file {@code file} gives a DataNode under host name {@code hostName}; immutable. */
  public static final class CachedRole {
    private final RolesFile file;
    private final String hostName;
    private final ServerRole role;

    CachedRole(RolesFile file, String hostName, ServerRole role) {
      this.file = file;
      this.hostName = hostName;
      this.role = role;
    }

    public ServerRole role() {
      return role;
    }
  }

}
