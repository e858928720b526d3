package org.eafr.namenode.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.NodeBase;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.namenode.transfer.ScheduledCopies;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.destination.PlacementRequest;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.policy.GearedParts;
import org.eafr.placement.popularity.FileTemperature;

/**
 * EAFR's block placement for a stock NameNode ({@code dfs.block.replicator.classname}), as three small hooks on
 * HDFS's default policy, which keeps its rack rules (the first replicas span at least two racks when the cluster has
 * them, at most the default number per rack), its storage, load and staleness checks, and its pipeline order.
 * <ol>
 *   <li><b>Where a new block goes</b> ({@link #chooseDataNode}): wherever the default policy draws a random node in a
 *       scope (a rack, or all but a rack), EAFR's destination selection (EWMA transfer speed and spare service
 *       capacity, Eq. 10-12, {@code DestinationSelector}) picks among d eligible nodes of that scope drawn at random
 *       ({@code CandidateSample}, {@code eafr.destination.sample-size}), so a choice costs O(d), not O(DataNodes):
 *       hot servers for ordinary files, standby servers for files under {@code eafr.cold.paths} and for migrations.
 *       DataNodes are translated for the core at most once a second ({@link TranslatedNodes}). When the scope has no
 *       eligible node the default's random choice stands, so a block is never left short of replicas by EAFR.</li>
 *   <li><b>Re-replication</b> (chooseTarget from the RedundancyMonitor: no write flags, live replicas given): each
 *       missing replica goes to the replication monitor's pending target for the file (the core's Eq. 10-12 choice)
 *       if it has one, else to the next server of EAFR Alg. 4's round robin ({@code RecoveryPlanner}) over the hot
 *       pool (standby for cold paths and migrations), skipping holders, excluded nodes and racks the default's rack
 *       rules forbid; the default then checks that server. Sleeping servers (HDFS maintenance) are never in a
 *       pool. In a geared layout, a block whose missing replicas sleep at their homes, unseen by this NameNode since
 *       it started, gets no target ({@link SleepingReplicaCheck}): no copy storm after a restart in a low gear. With the
 *       random layout, no re-replication gets a target while switched-off cold servers this NameNode holds no
 *       replica of wake to report ({@code ColdHosts#holdReReplication}).</li>
 *   <li><b>Excess deletion</b> ({@link #chooseReplicaToDelete}): the replica a relayout move in flight copies
 *       off ({@code RelayoutDrops}, keyed by block) when its target holds the block and the rest span two racks;
 *       else among the replicas whose loss keeps the rack spread (HDFS's own candidate set), at the top gear of an
 *       equal-work layout one whose loss leaves the block on its homes, then a reflected block's offloaded copy, then
 *       a migration's draining source, else the one on the server with the
 *       least remaining service capacity (Eq. 7, {@code ExcessReplicaSelector}) other than a draining migration's
 *       target, keeping eps replicas on hot servers and never touching a sleeping server.</li>
 * </ol>
 * The Balancer, the Mover and fsck build this policy with no topology: it then behaves exactly as the default, but for
 * {@link #isMovable}, which keeps a geared layout.
 *
 * <p>The default policy's helpers carry no request context, so the file a decision is for travels in a per-instance
 * ThreadLocal set around each chooseTarget call; the instance is shared by all NameNode handler threads.
 */
public class EafrBlockPlacementPolicy extends BlockPlacementPolicyDefault implements Configurable {
  private final ThreadLocal<Request> current = new ThreadLocal<>();
  private Configuration conf;
  private EafrRuntime runtime;
  private ServerTranslator translator;
  private volatile TranslatedNodes translated;
  private volatile GearedNodes geared;
  private SleepingReplicaCheck sleepers;
  private LayoutMoveCheck moves;
  private ExcessReplicaChoice excessChoice;

  /**
   * Hadoop calls this (the policy is built by ReflectionUtils) before initialize: the settings and the roles file are
   * validated here, so a bad value stops the NameNode. The Balancer, Mover and fsck read the same hdfs-site.xml.
   */
  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    this.runtime = EafrRuntime.of(conf);
    this.translator = runtime.translator();
    this.sleepers = new SleepingReplicaCheck(runtime.gears(), System::nanoTime);
    this.moves = new LayoutMoveCheck(conf, runtime, System::nanoTime);
    this.excessChoice = new ExcessReplicaChoice(translator, runtime.gears(), runtime.pending(), runtime.excess(),
        () -> clusterMap.getNumOfRacks());
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  public DatanodeStorageInfo[] chooseTarget(String srcPath, int numOfReplicas, Node writer,
      List<DatanodeStorageInfo> chosen, boolean returnChosenNodes, Set<Node> excludedNodes, long blocksize,
      BlockStoragePolicy storagePolicy, EnumSet<AddBlockFlag> flags) {
    if (clusterMap == null || runtime == null) {
      return super.chooseTarget(srcPath, numOfReplicas, writer, chosen, returnChosenNodes, excludedNodes, blocksize,
          storagePolicy, flags);
    }
    String path = srcPath == null ? "" : srcPath;
    Optional<GearedParts> parts = runtime.gears().parts();
    Optional<GearedLayout> layout = parts.map(GearedParts::layout);
    if (parts.isPresent() && numOfReplicas > 0 && (chosen == null || chosen.isEmpty())) {
      return chooseGeared(parts.get(), path, numOfReplicas, writer, excludedNodes, blocksize, storagePolicy, flags);
    }
    ServerRole pool = runtime.settings().isUnderColdPath(path) || plannedRole(path) == ServerRole.STANDBY
        ? ServerRole.STANDBY : ServerRole.HOT;
    boolean reReplication = flags == null && !returnChosenNodes && chosen != null && !chosen.isEmpty();
    if (reReplication && layout.isPresent() && sleepers.holdBack(layout.get(), chosen, excludedNodes,
        numOfReplicas)) {
      return new DatanodeStorageInfo[0]; // its missing replicas sleep at home: HDFS asks again next interval
    }
    if (reReplication && layout.isEmpty() && runtime.coldHosts().holdReReplication()) {
      return new DatanodeStorageInfo[0]; // cold servers this NameNode has not heard from are waking to report
    }
    if (reReplication) {
      return chooseRecoveryTargets(new Request(path, blocksize, pool, null), numOfReplicas, writer, chosen,
          excludedNodes, storagePolicy);
    }
    return within(new Request(path, blocksize, pool, null), () -> super.chooseTarget(srcPath, numOfReplicas, writer,
        chosen, returnChosenNodes, excludedNodes, blocksize, storagePolicy, flags));
  }

  /**
   * A new block in a geared layout: the geared policy's write placement names the holders among the DataNodes on (the
   * layout's primary, gear and recovery groups, with Rabbit's write offloading or SpringFS's offload set on top; homes
   * that sleep are offloaded to servers on), and one default chooseTarget call places the
   * block, checking each holder as it checks a node it drew ({@link #chooseTargetInOrder}: in service, not stale, load,
   * rack limits, storage type and space). A holder it refuses, or a replica the layout could not place, goes where the
   * default chooses among the DataNodes on (HDFS never targets one in maintenance). A block with a replica away from
   * its home, or a home asleep that the layout left without its replica (Accordion writes only the low gear's copies),
   * is recorded as owed, to be reflected after the next gear-up.
   */
  private DatanodeStorageInfo[] chooseGeared(GearedParts parts, String path, int numOfReplicas, Node writer,
      Set<Node> excludedNodes, long blocksize, BlockStoragePolicy storagePolicy, EnumSet<AddBlockFlag> flags) {
    GearedLayout layout = parts.layout();
    TranslatedNodes all = translatedNodes();
    GearedNodes view = gearedNodes(layout, all);
    int writerAt = writer instanceof DatanodeDescriptor
        ? layout.chain().position(ServerTranslator.idOf((DatanodeDescriptor) writer)) : -1;
    BlockRequest block = BlockRequest.of("new block of " + path, numOfReplicas).withPath(path).withWriter(writerAt);
    if (excludedNodes != null && !excludedNodes.isEmpty()) {
      block = block.excluding(view.positionsOf(excludedNodes));
    }
    BlockPlacement placement = parts.writes().place(block, view.on);
    DatanodeDescriptor[] holders = new DatanodeDescriptor[placement.size()];
    for (int i = 0; i < holders.length; i++) {
      holders[i] = all.node(layout.chain().id(placement.holder(i)));
    }
    EnumSet<AddBlockFlag> hints = withoutNoLocalWriteOnAHome(flags, writer, holders);
    DatanodeStorageInfo[] targets = within(new Request(path, blocksize, ServerRole.HOT, null, holders),
        () -> super.chooseTarget(path, numOfReplicas, writer, new ArrayList<>(numOfReplicas), false, excludedNodes,
            blocksize, storagePolicy, hints));
    if (placement.owesMoves()) { // a replica away from home, or one the layout owes to a home asleep (Accordion)
      runtime.gears().owe(path);
    }
    return targets;
  }

  /**
   * The client's flags, without NO_LOCAL_WRITE when the writer's DataNode is one of the layout's homes for the block.
   * HDFS takes the flag as advice (it writes locally when nothing else fits) and follows it by excluding the writer's
   * DataNode; a writer that is the block's primary would then lose the block's gear-0 replica, and gear 0 would be
   * refused for it. (Clients on a DataNode host, and every client of a one-host test cluster, whose DataNodes all
   * share the client's address, meet this.)
   */
  private static EnumSet<AddBlockFlag> withoutNoLocalWriteOnAHome(EnumSet<AddBlockFlag> flags, Node writer,
      DatanodeDescriptor[] holders) {
    if (flags == null || !flags.contains(AddBlockFlag.NO_LOCAL_WRITE) || !Arrays.asList(holders).contains(writer)) {
      return flags;
    }
    EnumSet<AddBlockFlag> kept = EnumSet.copyOf(flags);
    kept.remove(AddBlockFlag.NO_LOCAL_WRITE);
    return kept;
  }

  /**
   * Inside a geared chooseTarget: the layout's holders first, each offered to the default's own check of a drawn node
   * (chooseRandom over the holder's rack with only the holder eligible, so isGoodDatanode and the storage choice run
   * as for any node it draws, with the block's rack limit and storage types); then, for the replicas still missing,
   * the default's own order among all DataNodes. A refused holder costs one NotEnoughReplicasException; an accepted
   * one no more than the default's own random draw.
   */
  @Override
  protected Node chooseTargetInOrder(int numOfReplicas, Node writer, Set<Node> excludedNodes, long blocksize,
      int maxNodesPerRack, List<DatanodeStorageInfo> results, boolean avoidStaleNodes, boolean newBlock,
      EnumMap<StorageType, Integer> storageTypes) throws NotEnoughReplicasException {
    Request request = current.get();
    if (request == null || request.holders == null) {
      return super.chooseTargetInOrder(numOfReplicas, writer, excludedNodes, blocksize, maxNodesPerRack, results,
          avoidStaleNodes, newBlock, storageTypes);
    }
    int wanted = results.size() + numOfReplicas;
    try {
      for (DatanodeDescriptor holder : request.holders) {
        if (results.size() < wanted && holder != null && !excludedNodes.contains(holder)) {
          current.set(request.onlyOn(holder));
          offerHolder(holder, excludedNodes, blocksize, maxNodesPerRack, results, avoidStaleNodes, storageTypes);
        }
      }
      current.set(request.rest()); // the rest: HDFS's own choice (within the pool for a recovery)
      return results.size() < wanted ? super.chooseTargetInOrder(wanted - results.size(), writer, excludedNodes,
          blocksize, maxNodesPerRack, results, avoidStaleNodes, newBlock, storageTypes) : writer;
    } finally {
      current.set(request);
    }
  }

  /** The default's check of one drawn node, for {@code holder}; when it passes, the holder is added to results. */
  private void offerHolder(DatanodeDescriptor holder, Set<Node> excludedNodes, long blocksize, int maxNodesPerRack,
      List<DatanodeStorageInfo> results, boolean avoidStaleNodes, EnumMap<StorageType, Integer> storageTypes) {
    int before = results.size();
    try {
      chooseRandom(1, holder.getNetworkLocation(), excludedNodes, blocksize, maxNodesPerRack, results,
          avoidStaleNodes, storageTypes);
    } catch (NotEnoughReplicasException refused) {
      // refused: the default has counted and logged the reason; the next holder or the default's own order follows
    }
    if (results.size() == before && considerLoad) {
      acceptDespiteLoad(holder, excludedNodes, blocksize, maxNodesPerRack, results, avoidStaleNodes, storageTypes);
    }
  }

  /**
   * A home the default refused while {@code dfs.namenode.redundancy.considerLoad} is on: HDFS's load rule (xceivers
   * above {@code considerLoad.factor} times the average) refuses the equal-work layout's primaries by design, since a
   * primary takes a replica of 1/p of all blocks and an average DataNode r/N of them, and on a small idle cluster one
   * open pipeline already lifts a node above twice the average. A block whose primary is dropped so keeps no replica in
   * gear 0, and gear 0 is refused for it. So a home is never dropped for load alone: it is taken when every other check
   * of the default passes (in service, not stale, the block's rack limit, not a slow node when those are excluded, a
   * storage of a wanted type with room for the block). Load spreading stays with EAFR's destination choice (Eq. 10-12)
   * for the replicas the layout leaves open, and with the reader ordering.
   */
  private void acceptDespiteLoad(DatanodeDescriptor holder, Set<Node> excludedNodes, long blocksize,
      int maxNodesPerRack, List<DatanodeStorageInfo> results, boolean avoidStaleNodes,
      EnumMap<StorageType, Integer> storageTypes) {
    long onRack = results.stream()
        .filter(r -> r.getDatanodeDescriptor().getNetworkLocation().equals(holder.getNetworkLocation())).count();
    if (!holder.isInService() || (avoidStaleNodes && holder.isStale(staleIntervalMillis())) || onRack >= maxNodesPerRack
        || (getExcludeSlowNodesEnabled()
            && DatanodeManager.getSlowNodesUuidSet()
                .contains(holder.getDatanodeUuid()))) {
      return;
    }
    for (Map.Entry<StorageType, Integer> type : storageTypes.entrySet()) {
      DatanodeStorageInfo storage = holder.chooseStorage4Block(type.getKey(), blocksize, getMinBlocksForWrite());
      if (storage != null) {
        results.add(storage);
        addToExcludedNodes(holder, excludedNodes);
        if (type.getValue() == 1) {
          storageTypes.remove(type.getKey());
        } else {
          type.setValue(type.getValue() - 1);
        }
        return;
      }
    }
  }

  private long staleIntervalMillis() {
    return conf.getLong(DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_KEY,
        DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_DEFAULT);
  }

  /** The chain's DataNodes that are on (alive, in service), rebuilt with the translated view (at most once a second). */
  private GearedNodes gearedNodes(GearedLayout layout, TranslatedNodes all) {
    GearedNodes view = geared;
    if (view == null || view.layout != layout || view.nodes != all) {
      view = new GearedNodes(layout, all);
      geared = view;
    }
    return view;
  }

  /**
   * The missing replicas of a block in one default chooseTarget call: the round-robin destinations are picked first,
   * one per missing replica, each under the rack rules with the ones picked before it counted as placed; then the
   * default places the block offering them in order, each checked as a node it drew ({@link #chooseTargetInOrder}),
   * and chooses any replica still missing itself within the file's pool.
   */
  private DatanodeStorageInfo[] chooseRecoveryTargets(Request request, int numOfReplicas, Node writer,
      List<DatanodeStorageInfo> chosen, Set<Node> excludedNodes, BlockStoragePolicy storagePolicy) {
    Set<Node> excluded = excludedNodes == null ? new HashSet<>() : excludedNodes;
    List<DatanodeDescriptor> placed = new ArrayList<>();
    chosen.forEach(storage -> placed.add(storage.getDatanodeDescriptor()));
    List<DatanodeDescriptor> destinations = new ArrayList<>();
    for (int i = 0; i < numOfReplicas; i++) {
      Optional<DatanodeDescriptor> destination = recoveryDestination(request, placed, excluded, numOfReplicas - i);
      if (destination.isEmpty()) {
        break; // the round robin found no server the rack rules allow: the default chooses the rest in the pool
      }
      placed.add(destination.get());
      destinations.add(destination.get());
    }
    DatanodeStorageInfo[] result = within(request.withHolders(destinations.toArray(new DatanodeDescriptor[0])),
        () -> super.chooseTarget(request.path, numOfReplicas, writer, chosen, false, new HashSet<>(excluded),
            request.size, storagePolicy, null));
    ScheduledCopies.record(runtime.transfers(), request.path, request.size, writer, chosen, result); // Eq. 9 inputs
    return result;
  }

  private Optional<DatanodeDescriptor> recoveryDestination(Request request, List<DatanodeDescriptor> placed,
      Set<Node> excluded, int stillNeeded) {
    Map<String, Integer> perRack = new HashMap<>();
    Set<String> blocked = new LinkedHashSet<>();
    for (DatanodeDescriptor holder : placed) {
      perRack.merge(holder.getNetworkLocation(), 1, Integer::sum);
      blocked.add(ServerTranslator.idOf(holder));
    }
    int maxPerRack = getMaxNodesPerRack(placed.size(), stillNeeded)[1];
    boolean needOtherRack = clusterMap.getNumOfRacks() > 1 && perRack.size() == 1;
    TranslatedNodes all = translatedNodes();
    for (int i = 0; i < all.nodes.length; i++) {
      DatanodeDescriptor node = all.nodes[i];
      int onRack = perRack.getOrDefault(node.getNetworkLocation(), 0);
      if (excluded.contains(node) || onRack >= maxPerRack || (needOtherRack && onRack > 0)) {
        blocked.add(all.servers[i].id());
      }
    }
    Optional<String> planned = runtime.pending().targetOf(request.path);
    if (planned.isPresent() && all.node(planned.get()) != null && !blocked.contains(planned.get())) {
      return Optional.of(all.node(planned.get())); // the replication monitor's choice (Eq. 10-12)
    }
    ReplicatedFile file = new ReplicatedFile(request.path, request.size, new ArrayList<>(blocked));
    FileTemperature temperature = request.pool == ServerRole.STANDBY ? FileTemperature.COLD : FileTemperature.HOT;
    return runtime.recovery().nextDestination(file, temperature, all.byId).map(s -> all.node(s.id()));
  }

  /** The writer's own node takes the first replica only when it is in the file's pool (or the client favored it). */
  @Override
  protected DatanodeStorageInfo chooseLocalOrFavoredStorage(Node localOrFavoredNode, boolean isFavoredNode,
      Set<Node> excludedNodes, long blocksize, int maxNodesPerRack, List<DatanodeStorageInfo> results,
      boolean avoidStaleNodes, EnumMap<StorageType, Integer> storageTypes) throws NotEnoughReplicasException {
    Request request = current.get();
    if (request != null && request.only != null && localOrFavoredNode != request.only) {
      return null;
    }
    if (request != null && !isFavoredNode && localOrFavoredNode instanceof DatanodeDescriptor
        && roleOf((DatanodeDescriptor) localOrFavoredNode) != request.pool) {
      return null;
    }
    return super.chooseLocalOrFavoredStorage(localOrFavoredNode, isFavoredNode, excludedNodes, blocksize,
        maxNodesPerRack, results, avoidStaleNodes, storageTypes);
  }

  /** The role of the server the replication monitor chose for {@code path}'s next replica, if any. */
  private ServerRole plannedRole(String path) {
    Optional<String> target = runtime.pending().targetOf(path);
    DatanodeDescriptor node = target.isEmpty() ? null : translatedNodes().node(target.get());
    return node == null ? null : translator.roleOf(node);
  }

  /** A node's role as of the translated view (refreshed every second), or translated now if it joined since. */
  private ServerRole roleOf(DatanodeDescriptor node) {
    TranslatedNodes all = translatedNodes();
    int index = all.indexOf(node);
    return index >= 0 ? all.servers[index].role() : translator.roleOf(node);
  }

  @Override
  protected DatanodeDescriptor chooseDataNode(String scope, Collection<Node> excludedNodes) {
    Request request = current.get();
    return request == null ? super.chooseDataNode(scope, excludedNodes)
        : choose(request, scope, excludedNodes, null).orElseGet(() -> request.only != null ? null
            : super.chooseDataNode(scope, excludedNodes));
  }

  @Override
  protected DatanodeDescriptor chooseDataNode(String scope, Collection<Node> excludedNodes, StorageType type) {
    Request request = current.get();
    return request == null ? super.chooseDataNode(scope, excludedNodes, type)
        : choose(request, scope, excludedNodes, type).orElseGet(() -> request.only != null ? null
            : super.chooseDataNode(scope, excludedNodes, type));
  }

  private Optional<DatanodeDescriptor> choose(Request request, String scope, Collection<Node> excludedNodes,
      StorageType type) {
    TranslatedNodes all = translatedNodes();
    if (request.only != null) {
      DatanodeDescriptor only = request.only;
      boolean allowed = inScope(only, scope) && !excludedNodes.contains(only)
          && (type == null || all.hasStorageType(only, type));
      return allowed ? Optional.of(only) : Optional.empty();
    }
    int[] members = all.members(request.pool, scope);
    PlacementRequest placement = new PlacementRequest(request.path, request.size, null, Set.of());
    int chosen = runtime.destinations().chooseIndex(placement, members.length, m -> all.servers[members[m]], m -> {
      DatanodeDescriptor node = all.nodes[members[m]];
      return inScope(node, scope) && !excludedNodes.contains(node)
          && (type == null || all.storageTypes[members[m]].contains(type));
    });
    return chosen < 0 ? Optional.empty() : Optional.of(all.nodes[members[chosen]]);
  }

  private TranslatedNodes translatedNodes() {
    TranslatedNodes current = translated;
    int sleeping = runtime.roles().sleepingCount();
    if (current == null || !current.isCurrent(clusterMap, runtime.roles().file(), sleeping)) {
      current = TranslatedNodes.of(clusterMap, translator, runtime.roles().file(), sleeping);
      translated = current;
    }
    return current;
  }

  private static boolean inScope(Node node, String scope) {
    if (scope.startsWith("~")) {
      return !inScope(node, scope.substring(1));
    }
    String location = node.getNetworkLocation();
    return scope.isEmpty() || scope.equals(NodeBase.PATH_SEPARATOR_STR) || location.equals(scope)
        || location.startsWith(scope + NodeBase.PATH_SEPARATOR_STR);
  }

  /**
   * The Balancer's and the Mover's question before each move: the default's rack rule, then, with a geared layout,
   * whether the move keeps it ({@link LayoutMoveCheck}: no replica up the chain, a block at home stays in its recovery
   * group). Built by the Balancer or the Mover (no host map), the layout is read from the namespace.
   */
  @Override
  public boolean isMovable(Collection<DatanodeInfo> candidates, DatanodeInfo source, DatanodeInfo target) {
    return super.isMovable(candidates, source, target)
        && (moves == null || moves.allows(candidates, source, target, host2datanodeMap != null));
  }

  @Override
  public DatanodeStorageInfo chooseReplicaToDelete(Collection<DatanodeStorageInfo> moreThanOne,
      Collection<DatanodeStorageInfo> exactlyOne, List<StorageType> excessTypes,
      Map<String, List<DatanodeStorageInfo>> rackMap) {
    Optional<DatanodeStorageInfo> chosen = excessChoice == null ? Optional.empty()
        : excessChoice.choose(List.of(moreThanOne, exactlyOne), pickupReplicaSet(moreThanOne, exactlyOne, rackMap),
            excessTypes);
    if (chosen.isEmpty()) {
      // Only sleeping or eps-protected replicas may go: HDFS's own choice, so the excess still shrinks.
      return super.chooseReplicaToDelete(moreThanOne, exactlyOne, excessTypes, rackMap);
    }
    excessTypes.remove(chosen.get().getStorageType());
    return chosen.get();
  }

  /** A geared layout's chain over the translated DataNodes: which positions are on, and position lookup. */
  private static final class GearedNodes {
    final GearedLayout layout;
    final TranslatedNodes nodes;
    final ActiveSet on;

    GearedNodes(GearedLayout layout, TranslatedNodes nodes) {
      this.layout = layout;
      this.nodes = nodes;
      this.on = GearRuntime.serversOn(layout, id -> {
        DatanodeDescriptor node = nodes.node(id);
        return node != null && node.isAlive() && node.isInService();
      });
    }

    int[] positionsOf(Set<Node> excluded) {
      return excluded.stream().filter(DatanodeDescriptor.class::isInstance)
          .mapToInt(node -> layout.chain().position(ServerTranslator.idOf((DatanodeDescriptor) node)))
          .filter(position -> position >= 0).toArray();
    }
  }

  private <T> T within(Request request, Supplier<T> call) {
    Request outer = current.get();
    current.set(request);
    try {
      return call.get();
    } finally {
      current.set(outer);
    }
  }

  /**
   * What one chooseTarget call places: a file's block, into a pool, onto one chosen node only, or onto a geared
   * layout's holders first.
   */
  private static final class Request {
    final String path;
    final long size;
    final ServerRole pool;
    final DatanodeDescriptor only;
    /** The geared layout's holders in replica order (an entry is null for a node no longer registered), or null. */
    final DatanodeDescriptor[] holders;
    /** Whether the replicas the holders do not take are chosen within {@link #pool} (a recovery). */
    final boolean restInPool;

    Request(String path, long size, ServerRole pool, DatanodeDescriptor only) {
      this(path, size, pool, only, null);
    }

    Request(String path, long size, ServerRole pool, DatanodeDescriptor only, DatanodeDescriptor[] holders) {
      this(path, size, pool, only, holders, false);
    }

    private Request(String path, long size, ServerRole pool, DatanodeDescriptor only, DatanodeDescriptor[] holders,
        boolean restInPool) {
      this.path = path;
      this.size = size;
      this.pool = pool;
      this.only = only;
      this.holders = holders;
      this.restInPool = restInPool;
    }

    Request onlyOn(DatanodeDescriptor node) {
      return new Request(path, size, pool, node);
    }

    /** A recovery offering {@code destinations} first; the replicas they do not take stay within the pool. */
    Request withHolders(DatanodeDescriptor[] destinations) {
      return new Request(path, size, pool, null, destinations, true);
    }

    /** What places the replicas the holders did not take: the pool (a recovery), or HDFS's own choice (null). */
    Request rest() {
      return restInPool ? new Request(path, size, pool, null) : null;
    }
  }
}
