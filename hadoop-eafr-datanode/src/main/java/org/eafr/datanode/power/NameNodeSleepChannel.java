package org.eafr.datanode.power;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RefreshResponse;
import org.apache.hadoop.ipc.protocolPB.GenericRefreshProtocolClientSideTranslatorPB;
import org.apache.hadoop.ipc.protocolPB.GenericRefreshProtocolPB;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's way to the NameNode: Hadoop IPC to each NameNode RPC address of the DataNode's own configuration (the
 * addresses its block pools report to), through the generic refresh protocol under the EAFR admin handler's
 * identifier, as the given user (the DataNode's login user: on a secure cluster its Kerberos principal). No port is
 * opened. Only answers from the EAFR handler of an active NameNode that parse as {@link SleepAnswer}s count; anything
 * else is logged and ignored.
 */
final class NameNodeSleepChannel {
  private static final Logger LOG = LoggerFactory.getLogger(NameNodeSleepChannel.class);

  private final Configuration conf;
  private final List<InetSocketAddress> nameNodes;
  private final UserGroupInformation user;

  NameNodeSleepChannel(Configuration dataNodeConf, UserGroupInformation user) throws IOException {
    this.conf = new Configuration(dataNodeConf);
    // the server principal of these calls is the NameNode's, as for hdfs dfsadmin -refresh
    conf.set(CommonConfigurationKeys.HADOOP_SECURITY_SERVICE_USER_NAME_KEY,
        conf.get(DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY, ""));
    RPC.setProtocolEngine(conf, GenericRefreshProtocolPB.class, ProtobufRpcEngine2.class);
    this.nameNodes = new ArrayList<>();
    for (Map<String, InetSocketAddress> nameservice : DFSUtil.getNNServiceRpcAddressesForCluster(dataNodeConf)
        .values()) {
      nameNodes.addAll(nameservice.values());
    }
    this.user = user;
  }

  List<InetSocketAddress> nameNodes() {
    return nameNodes;
  }

  /**
   * Sends {@code verb} for DataNode {@code uuid} to every NameNode and returns the answers of the active ones' EAFR
   * handlers. A NameNode that cannot be reached or refuses is logged (naming it and its message) and skipped.
   */
  List<SleepAnswer> ask(String[] verb, String uuid) {
    List<SleepAnswer> answers = new ArrayList<>();
    for (InetSocketAddress nameNode : nameNodes) {
      try {
        for (RefreshResponse response : send(nameNode, verb, uuid)) {
          accept(nameNode, response).ifPresent(answers::add);
        }
      } catch (IOException | RuntimeException e) {
        LOG.warn("EAFR power agent: '{} {}' to NameNode {} failed: {}", String.join(" ", verb), uuid, nameNode,
            e.toString());
      }
    }
    return answers;
  }

  /**
   * Tells every NameNode that the sleep request DataNode {@code uuid} took could not be carried out, and why
   * ({@code reason}, already scrubbed of secrets); a NameNode that cannot be reached or refuses is logged and skipped.
   */
  void reportFailure(String uuid, String reason) {
    for (InetSocketAddress nameNode : nameNodes) {
      try {
        for (RefreshResponse response : send(nameNode, SleepAnswer.FAILED, uuid, reason)) {
          accept(nameNode, response);
        }
      } catch (IOException | RuntimeException e) {
        LOG.warn("EAFR power agent: reporting the failed sleep of {} to NameNode {} failed: {}", uuid, nameNode,
            e.toString());
      }
    }
  }

  private Optional<SleepAnswer> accept(InetSocketAddress nameNode, RefreshResponse response) {
    String sender = String.valueOf(response.getSenderName());
    if (!sender.startsWith(SleepAnswer.SENDER_PREFIX)) {
      LOG.warn("EAFR power agent: ignoring an answer from {} sent by '{}', not the EAFR admin handler", nameNode,
          sender);
      return Optional.empty();
    }
    if (response.getReturnCode() != SleepAnswer.ACTIVE_ANSWER) {
      if (response.getReturnCode() == 1) { // refused or failed: say why
        LOG.warn("EAFR power agent: NameNode {} refused: {}", nameNode, response.getMessage());
      }
      return Optional.empty(); // 3: a standby's answer, 4: another NameNode of the same JVM
    }
    try {
      return Optional.of(SleepAnswer.parse(response.getMessage()));
    } catch (IllegalArgumentException e) {
      LOG.warn("EAFR power agent: ignoring an answer from {}: {}", nameNode, e.getMessage());
      return Optional.empty();
    }
  }

  private Collection<RefreshResponse> send(InetSocketAddress nameNode, String[] verb, String... operands)
      throws IOException {
    GenericRefreshProtocolPB proxy = RPC.getProxy(GenericRefreshProtocolPB.class,
        RPC.getProtocolVersion(GenericRefreshProtocolPB.class), nameNode, user, conf,
        NetUtils.getDefaultSocketFactory(conf), 0);
    try (GenericRefreshProtocolClientSideTranslatorPB client = new GenericRefreshProtocolClientSideTranslatorPB(
        proxy)) {
      List<String> args = new ArrayList<>(List.of(verb));
      args.addAll(List.of(operands));
      return client.refresh(SleepAnswer.IDENTIFIER, args.toArray(new String[0]));
    }
  }
}
