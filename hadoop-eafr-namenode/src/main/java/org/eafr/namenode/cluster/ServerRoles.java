package org.eafr.namenode.cluster;

import java.nio.file.Path;
import java.util.Collection;
import java.util.Objects;
import org.eafr.namenode.config.DataNodeName;
import org.eafr.namenode.config.RolesFile;
import org.eafr.placement.cluster.ServerRole;

/**
 * The roles in force: the operator's roles file, replaced whole on a reload that passes every check, so a bad file
 * changes nothing. HDFS's own admin state overrides it in {@link ServerTranslator} (maintenance means cold).
 */
public final class ServerRoles {
  private volatile RolesFile file;

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

  /** Checks the roles in force against the registered DataNodes, e.g. once they have all registered. */
  public void check(Collection<DataNodeName> dataNodes) {
    file.checkNamesDataNodes(dataNodes);
  }
}
