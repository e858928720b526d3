package org.eafr.namenode.power;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.placement.power.PowerOffGuard;

/**
 * {@link HostView} of one NameNode: the adapter of the core's {@link PowerOffGuard}. An inventory entry names a host
 * (every DataNode registered there, matched by IP address or host name, the name also resolved to its addresses so a
 * DataNode registered under another name of the host is found) or one DataNode ({@code HOST:PORT}, its transfer
 * port). The facts come from the DatanodeManager, the {@link MaintenanceWitness} and the block lists of the host's
 * DataNodes ({@link HostBlockScan}).
 *
 * <p>Federation: a NameNode sees only its own block pool. When {@code dfs.nameservices} lists other nameservices the
 * DataNodes may serve ({@code dfs.internal.nameservices} when set), their pools cannot be checked here and every
 * power-off is refused.
 */
public final class NameNodeHostView implements HostView {
  private final NameNode nameNode;
  private final DatanodeManager dataNodes;
  private final MaintenanceWitness witness;
  private final HostBlockScan blocks;

  public NameNodeHostView(NameNode nameNode) {
    this.nameNode = nameNode;
    this.dataNodes = nameNode.getNamesystem().getBlockManager().getDatanodeManager();
    this.witness = new MaintenanceWitness(dataNodes);
    this.blocks = new HostBlockScan(nameNode);
  }

  /**
   * Refuses {@code dfs.namenode.maintenance.replication.min} below 1 in {@code conf} (IllegalArgumentException naming
   * the key): HDFS would then put DataNodes IN_MAINTENANCE keeping no replica of their blocks elsewhere.
   */
  public static void checkMaintenanceMinimum(Configuration conf) {
    PowerOffGuard.requireMaintenanceMinimum(DFSConfigKeys.DFS_NAMENODE_MAINTENANCE_REPLICATION_MIN_KEY,
        conf.getInt(DFSConfigKeys.DFS_NAMENODE_MAINTENANCE_REPLICATION_MIN_KEY,
            DFSConfigKeys.DFS_NAMENODE_MAINTENANCE_REPLICATION_MIN_DEFAULT));
  }

  @Override
  public boolean active() {
    return nameNode.isActiveState();
  }

  @Override
  public void checkMayPowerOff(InventoryEntry entry) throws PowerRefusedException {
    witness.look();
    List<DatanodeDescriptor> matches = matching(entry);
    List<PowerOffGuard.Member> members = new ArrayList<>();
    for (DatanodeDescriptor dn : matches) {
      members.add(new PowerOffGuard.Member(ServerTranslator.nameOf(dn).toString(), dn.getAdminState().name(),
          dn.isAlive(), dn.checkBlockReportReceived(), witness.seenAliveInMaintenance(dn)));
    }
    Optional<String> refused = PowerOffGuard.refusal(entry.host(), haState(), otherBlockPools(), members);
    if (refused.isEmpty()) {
      try {
        refused = blocks.check(entry.host(), matches);
      } catch (IOException | RuntimeException e) {
        refused = Optional.of("refusing to power off " + entry.host() + ": its blocks could not be checked: " + e);
      }
    }
    if (refused.isPresent()) {
      throw new PowerRefusedException(refused.get());
    }
  }

  @Override
  public PowerState heartbeatState(InventoryEntry entry) {
    List<DatanodeDescriptor> matches = matching(entry);
    if (matches.isEmpty()) {
      return PowerState.UNKNOWN;
    }
    return matches.stream().anyMatch(DatanodeDescriptor::isAlive) ? PowerState.ON : PowerState.OFF;
  }

  @Override
  public void close() {
    witness.close();
  }

  private String haState() {
    return nameNode.isActiveState() ? "ACTIVE" : String.valueOf(nameNode.getState()).toUpperCase(Locale.ROOT);
  }

  /** The nameservices other than this NameNode's that its DataNodes may serve (federation); empty without it. */
  private Set<String> otherBlockPools() {
    Configuration conf = nameNode.getConf();
    Collection<String> served = conf.getTrimmedStringCollection(DFSConfigKeys.DFS_INTERNAL_NAMESERVICES_KEY);
    if (served.isEmpty()) {
      served = conf.getTrimmedStringCollection(DFSConfigKeys.DFS_NAMESERVICES);
    }
    Set<String> others = new HashSet<>(served);
    String own = DFSUtil.getNamenodeNameServiceId(conf);
    if (own != null) {
      others.remove(own);
    }
    return served.size() <= 1 ? Set.of() : others;
  }

  /** The DataNodes {@code entry} switches: all on its host, or the one at its HOST:PORT. */
  private List<DatanodeDescriptor> matching(InventoryEntry entry) {
    String name = entry.host();
    int colon = name.lastIndexOf(':');
    boolean withPort = colon > 0 && name.indexOf(':') == colon;
    String host = withPort ? name.substring(0, colon) : name;
    int port = withPort ? Integer.parseInt(name.substring(colon + 1)) : -1;
    Set<String> addresses = addressesOf(host);
    List<DatanodeDescriptor> matches = new ArrayList<>();
    for (DatanodeDescriptor dn : dataNodes.getDatanodeListForReport(DatanodeReportType.ALL)) {
      boolean onHost = dn.getIpAddr().equals(host) || dn.getHostName().equalsIgnoreCase(host)
          || addresses.contains(dn.getIpAddr());
      if (onHost && (port < 0 || dn.getXferPort() == port)) {
        matches.add(dn);
      }
    }
    return matches;
  }

  private static Set<String> addressesOf(String host) {
    Set<String> addresses = new HashSet<>();
    try {
      for (InetAddress address : InetAddress.getAllByName(host)) {
        addresses.add(address.getHostAddress());
      }
    } catch (UnknownHostException e) {
      // matched by its registered IP address or host name only
    }
    return addresses;
  }
}
