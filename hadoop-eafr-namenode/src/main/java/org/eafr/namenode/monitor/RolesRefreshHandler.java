package org.eafr.namenode.monitor;

import java.io.IOException;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.ipc.RefreshHandler;
import org.apache.hadoop.ipc.RefreshResponse;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.UserGroupInformation;
import org.eafr.namenode.cluster.EafrRuntime;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.config.DataNodeName;
import org.eafr.namenode.config.RolesFile;

/**
 * Reloads the roles file on {@code hdfs dfsadmin -refresh NN_HOST:RPC_PORT eafr-roles}: the file named by
 * {@code eafr.roles.file} is read, checked against the registered DataNodes, and only then put in force; any error
 * leaves the old roles and is returned to the caller. Only the NameNode's user or a member of the superuser group
 * may call it (Hadoop's refresh channel checks nobody itself).
 */
public final class RolesRefreshHandler implements RefreshHandler {
  public static final String IDENTIFIER = "eafr-roles";

  private final NameNode nameNode;
  private final EafrRuntime runtime;

  public RolesRefreshHandler(NameNode nameNode, EafrRuntime runtime) {
    this.nameNode = nameNode;
    this.runtime = runtime;
  }

  @Override
  public RefreshResponse handleRefresh(String identifier, String[] args) {
    try {
      checkSuperuser();
    } catch (IOException e) {
      return new RefreshResponse(1, e.getMessage());
    }
    if (runtime.settings().rolesFile().isEmpty()) {
      return new RefreshResponse(1, "no roles file configured: set eafr.roles.file");
    }
    try {
      RolesFile file = runtime.roles().reload(Paths.get(runtime.settings().rolesFile()), dataNodes());
      return new RefreshResponse(0, "EAFR roles reloaded from " + file.source() + ": " + file.entries().size()
          + " entries, unlisted DataNodes " + file.unlistedRole());
    } catch (IllegalArgumentException e) {
      return new RefreshResponse(1, e.getMessage() + "; the roles in force are unchanged");
    }
  }

  private List<DataNodeName> dataNodes() {
    List<DataNodeName> names = new ArrayList<>();
    for (DatanodeDescriptor dn : nameNode.getNamesystem().getBlockManager().getDatanodeManager()
        .getDatanodeListForReport(DatanodeReportType.ALL)) {
      names.add(ServerTranslator.nameOf(dn));
    }
    return names;
  }

  private void checkSuperuser() throws IOException {
    UserGroupInformation caller = Server.getRemoteUser();
    if (caller == null) {
      return; // called inside the NameNode
    }
    String superuser = UserGroupInformation.getLoginUser().getShortUserName();
    String supergroup = nameNode.getConf().get(DFSConfigKeys.DFS_PERMISSIONS_SUPERUSERGROUP_KEY,
        DFSConfigKeys.DFS_PERMISSIONS_SUPERUSERGROUP_DEFAULT);
    if (!caller.getShortUserName().equals(superuser) && !Arrays.asList(caller.getGroupNames()).contains(supergroup)) {
      throw new IOException("user " + caller.getShortUserName() + " may not reload the EAFR roles: only "
          + superuser + " or members of " + supergroup + " may");
    }
  }
}
