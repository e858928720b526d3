package org.eafr.namenode.read;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.net.DFSNetworkTopology;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.net.Node;
import org.eafr.namenode.cluster.EafrRuntime;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.placement.cluster.Server;

/**
 * The order in which the NameNode lists a block's replicas to a reader ({@code dfs.net.topology.impl}), by EAFR Alg. 3
 * ({@code ReaderSelector}): replicas on the reader's rack first, then the rest; within each, the shortest read queue
 * (heartbeat xceiver count plus the reads this NameNode recently directed there); ties hot before standby. A client
 * reads the replica listed first, so each ordering counts one directed read for it ({@link ReadAttribution}).
 *
 * <p>Only the replicas HDFS counts as active (the first {@code activeLen}: not stale, slow, decommissioning or entering
 * maintenance) are reordered; the rest keep HDFS's order behind them. A replica the core would not list (a cold
 * server) stays, after the ordered ones, so no replica is ever hidden from a reader. A node-local replica gets no
 * special place: it competes with its rack by queue, as in Alg. 3. Placement (chooseRandom...) is DFSNetworkTopology's.
 * A block with no location at all is reported to the gear service, which may wake the group holding it.
 */
public class EafrNetworkTopology extends DFSNetworkTopology implements Configurable {
  private Configuration conf;
  private EafrRuntime runtime;
  private ServerTranslator translator;

  /** Called by ReflectionUtils when the NameNode builds its topology; validates the settings. */
  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    this.runtime = EafrRuntime.of(conf);
    this.translator = ServerTranslator.of(runtime);
    runtime.attribution().orderingInstalled();
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  public <T extends Node> void sortByDistance(Node reader, T[] nodes, int activeLen,
      Consumer<List<T>> secondarySort) {
    order(reader, nodes, activeLen);
  }

  @Override
  public <T extends Node> void sortByDistanceUsingNetworkLocation(Node reader, T[] nodes, int activeLen,
      Consumer<List<T>> secondarySort) {
    order(reader, nodes, activeLen);
  }

  private <T extends Node> void order(Node reader, T[] nodes, int activeLen) {
    if (activeLen < 1) {
      if (nodes.length == 0) { // every replica sleeps (in maintenance) or is gone: maybe a group must wake
        runtime.gears().readFoundNoReplica();
      }
      return;
    }
    String readerRack = reader == null ? null : reader.getNetworkLocation();
    List<Server> servers = new ArrayList<>(activeLen);
    List<T> active = new ArrayList<>(activeLen);
    for (int i = 0; i < activeLen; i++) {
      active.add(nodes[i]);
      servers.add(translator.toServer((DatanodeInfo) nodes[i]));
    }
    int next = 0;
    boolean[] placed = new boolean[activeLen];
    for (Server server : runtime.readers().order(readerRack, servers)) {
      int index = indexOf(servers, server);
      placed[index] = true;
      nodes[next++] = active.get(index);
    }
    for (int i = 0; i < activeLen; i++) {
      if (!placed[i]) {
        nodes[next++] = active.get(i);
      }
    }
    runtime.attribution().listedFirst(ServerTranslator.idOf((DatanodeInfo) nodes[0]));
  }

  /** By identity: the core returns the very Server objects it was given, and Server.equals compares every field. */
  private static int indexOf(List<Server> servers, Server server) {
    for (int i = 0; i < servers.size(); i++) {
      if (servers.get(i) == server) {
        return i;
      }
    }
    throw new IllegalStateException("the reader selector returned a server it was not given: " + server.id());
  }
}
