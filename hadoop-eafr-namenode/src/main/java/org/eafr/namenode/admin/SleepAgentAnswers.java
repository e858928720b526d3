package org.eafr.namenode.admin;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.config.DataNodeName;
import org.eafr.namenode.power.PowerCommand;
import org.eafr.namenode.power.SleepRequests;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers a DataNode's in-band power agent ({@code sleep poll UUID}, {@code sleep take UUID}) with a
 * {@link SleepAnswerLine}: the DataNode's admin state as this NameNode sees it and the sleep request the power manager
 * recorded for its host. A poll attaches the agent (the manager may then record Wake-on-LAN power-offs for it); a
 * take removes the request, which the agent does just before it acts; {@code sleep failed UUID REASON} reports that
 * the agent could not carry out the request it took (it could not arm Wake-on-LAN), which fails the power manager's
 * attempt with that reason (the host's last error in {@code hdfs eafr power status}). A NameNode that is not active
 * answers no request.
 *
 * <p>Who may ask: the DataNode itself, i.e. on a secure cluster its own Kerberos principal
 * ({@code dfs.datanode.kerberos.principal} with {@code _HOST} as that DataNode's host name), and the HDFS superuser
 * (the NameNode's user or {@code dfs.permissions.superusergroup}; on an unsecured cluster DataNodes usually run as it).
 * Anyone else, and any caller authenticated by a delegation token, is refused, naming the caller.
 */
final class SleepAgentAnswers {
  private static final Logger LOG = LoggerFactory.getLogger(SleepAgentAnswers.class);

  private final NameNode nameNode;
  private final SleepRequests sleepRequests;

  SleepAgentAnswers(NameNode nameNode, SleepRequests sleepRequests) {
    this.nameNode = nameNode;
    this.sleepRequests = sleepRequests;
  }

  String answer(AdminRequest request) throws IOException {
    String uuid = request.operands().get(0);
    DatanodeDescriptor dataNode = nameNode.getNamesystem().getBlockManager().getDatanodeManager().getDatanode(uuid);
    if (dataNode == null) {
      throw new IllegalArgumentException("no DataNode with UUID " + uuid + " is registered with this NameNode");
    }
    DataNodeName name = ServerTranslator.nameOf(dataNode);
    checkCaller(nameNode.getConf(), dataNode, "'" + request.verb().words() + "' for DataNode " + name);
    sleepRequests.attach(name);
    if (request.verb() == AdminRequest.Verb.SLEEP_FAILED) {
      String reason = request.operands().get(1);
      String host = sleepRequests.failed(name, reason).orElseThrow(() -> new IllegalArgumentException("the agent"
          + " of DataNode " + name + " took no sleep request from this NameNode; its report is ignored"));
      LOG.error("EAFR power: the agent of DataNode {} ({}) could not carry out the sleep request for host {}, which"
          + " stays up: {}", name, callerText(), host, reason);
    }
    boolean take = request.verb() == AdminRequest.Verb.SLEEP_TAKE;
    // only the active NameNode hands out a power-off: one recorded before this NameNode left the active state is not
    Optional<Map.Entry<String, PowerCommand>> sleep = !nameNode.isActiveState() ? Optional.empty()
        : take ? sleepRequests.takeFor(name) : sleepRequests.pendingFor(name);
    if (take && sleep.isPresent()) {
      sleepRequests.detach(name);
      LOG.info("EAFR power: the agent of DataNode {} ({}) took the {} request for host {}; HDFS shows it {}", name,
          callerText(), sleep.get().getValue().label(), sleep.get().getKey(), dataNode.getAdminState());
    }
    return SleepAnswerLine.encode(uuid, name.toString(), dataNode.getAdminState().name(), dataNode.isAlive(),
        sleep.map(entry -> entry.getValue().label()).orElse(SleepAnswerLine.NO_REQUEST),
        sleep.map(Map.Entry::getKey).orElse(SleepAnswerLine.NO_HOST));
  }

  /**
   * Refuses, naming the caller, unless the call came from inside the NameNode, from the HDFS superuser, or from
   * {@code dataNode}'s own Kerberos principal.
   */
  static void checkCaller(Configuration conf, DatanodeDescriptor dataNode, String action) throws IOException {
    UserGroupInformation caller = Server.getRemoteUser();
    if (caller == null) {
      return;
    }
    String ownPrincipal = UserGroupInformation.isSecurityEnabled()
        ? SecurityUtil.getServerPrincipal(conf.get(DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY, ""),
            dataNode.getHostName())
        : "";
    String refusal = refusal(caller.getUserName(), caller.getAuthenticationMethod(),
        SuperuserCheck.isSuperuser(conf, caller), ownPrincipal);
    if (refusal != null) {
      throw new AccessControlException(refusal + " may not ask " + action + ": only that DataNode's own principal"
          + (ownPrincipal.isEmpty() ? "" : " " + ownPrincipal) + " or the HDFS superuser ("
          + SuperuserCheck.superuserText(conf) + ") may");
    }
  }

  /**
   * Null when a caller with this user name, authentication and superuser standing may ask about the DataNode whose
   * principal is {@code ownPrincipal} (empty on an unsecured cluster); else the caller as the refusal names it.
   */
  static String refusal(String userName, AuthenticationMethod method, boolean superuser, String ownPrincipal) {
    String named = "user " + userName + " (authenticated by " + method + ")";
    if (method == AuthenticationMethod.TOKEN) {
      return named + ", a delegation token,";
    }
    if (superuser || (!ownPrincipal.isEmpty() && ownPrincipal.equals(userName)
        && method == AuthenticationMethod.KERBEROS)) {
      return null;
    }
    return named;
  }

  private static String callerText() {
    UserGroupInformation caller = Server.getRemoteUser();
    return caller == null ? "in-process" : "caller " + caller.getUserName() + " from " + Server.getRemoteAddress();
  }
}
