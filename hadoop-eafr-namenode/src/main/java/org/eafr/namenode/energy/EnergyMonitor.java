package org.eafr.namenode.energy;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.eafr.namenode.cluster.ColdHosts;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.namenode.power.DataNodePower;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.power.ClusterEnergy;
import org.eafr.placement.power.PowerModel;
import org.eafr.placement.settings.EafrSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Estimates the cluster's draw and integrates it since the NameNode started: every {@code eafr.energy.sample.ms} (and
 * whenever {@code hdfs eafr status} or {@code nodes} asks) it takes each DataNode's power state ({@link DataNodePower})
 * and utilization (h / c_c: heartbeat xceivers plus recently directed reads over {@code eafr.server.service-capacity},
 * the load EAFR's Eq. 6 uses), draws each with the core's {@link PowerModel} ({@code eafr.energy.*}), and feeds the
 * core's {@link ClusterEnergy}, which integrates kWh used and kWh with every DataNode on. Where a host's BMC measured
 * its draw ({@link DataNodePower#hostMeasuredWatts}, read by the {@code BmcPoller}), the reading split evenly over the
 * host's DataNodes replaces the model's figure for them; the rest is the model's. A draw holds until the next
 * sample, so the energy is exact for draws that change only at samples and otherwise off by at most one period's
 * change.
 */
public final class EnergyMonitor implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EnergyMonitor.class);

  private final Supplier<Collection<DatanodeDescriptor>> dataNodes;
  private final ServerTranslator translator;
  private final GearRuntime gears;
  private final ColdHosts coldHosts;
  private final ClusterEnergy energy;
  private volatile EnergySnapshot last;
  private ScheduledExecutorService sampler;

  /**
   * @param dataNodes every DataNode the NameNode knows (live, dead, in maintenance), read at each sample
   * @param core the power model's settings ({@code eafr.energy.*})
   * @param translator each DataNode as the core's server (its load)
   * @param gears the DataNodes the gears put to sleep, and their power manager
   * @param coldHosts EAFR's cold servers switched off
   */
  public EnergyMonitor(Supplier<Collection<DatanodeDescriptor>> dataNodes, EafrSettings core,
      ServerTranslator translator, GearRuntime gears, ColdHosts coldHosts, Clock clock) {
    this.dataNodes = dataNodes;
    this.translator = translator;
    this.gears = gears;
    this.coldHosts = coldHosts;
    this.energy = new ClusterEnergy(PowerModel.of(core), clock);
    this.last = EnergySnapshot.empty(energy.last());
  }

  /** Samples now and then every {@code periodMillis} on a daemon thread until {@link #close}. */
  public synchronized EnergyMonitor start(long periodMillis) {
    sample();
    sampler = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "eafr-energy");
      thread.setDaemon(true);
      return thread;
    });
    sampler.scheduleWithFixedDelay(this::sampleQuietly, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    return this;
  }

  /** Takes a sample of every DataNode now; the energy so far is counted with the previous sample's draws. */
  public synchronized EnergySnapshot sample() {
    Set<String> sleeping = new HashSet<>(gears.state().sleeping());
    sleeping.addAll(coldHosts.asleep()); // cold servers switched off: off too until a BMC read says else
    Optional<GearedLayout> layout = gears.layout();
    Map<String, NodeEnergy> nodes = new LinkedHashMap<>();
    List<Server> drawn = new ArrayList<>();
    Map<String, DataNodePower> powers = new LinkedHashMap<>();
    Map<String, Integer> perHost = new HashMap<>();
    for (DatanodeDescriptor dataNode : dataNodes.get()) {
      DataNodePower power = DataNodePower.of(dataNode, gears.power(), sleeping);
      Server server = power.forPowerModel(translator.toServer(dataNode), dataNode.isAlive());
      drawn.add(server);
      powers.put(server.id(), power);
      if (power.hostMeasuredWatts() != null) {
        perHost.merge(power.host(), 1, Integer::sum);
      }
    }
    Map<String, Double> measured = new HashMap<>();
    for (Server server : drawn) {
      DataNodePower power = powers.get(server.id());
      Double share = power.hostMeasuredWatts() == null ? null
          : power.hostMeasuredWatts() / perHost.get(power.host()); // a host's reading split over its DataNodes
      if (share != null) {
        measured.put(server.id(), share);
      }
      double utilization = server.role().servesReads() ? Math.min(1.0, Math.max(0.0, server.utilization())) : 0.0;
      nodes.put(server.id(), new NodeEnergy(server.id(), power.state(), gearGroup(layout, server.id()), utilization,
          energy.model().watts(server), share));
    }
    last = new EnergySnapshot(energy.sample(drawn, measured), nodes);
    gears.grid().energyUsed(last.sample().kilowattHours());
    return last;
  }

  /** The latest sample, as the metrics show it. */
  public EnergySnapshot last() {
    return last;
  }

  private static Integer gearGroup(Optional<GearedLayout> layout, String id) {
    if (layout.isEmpty()) {
      return null;
    }
    int position = layout.get().chain().position(id);
    return position < 0 ? null : layout.get().gearOf(position);
  }

  private void sampleQuietly() {
    try {
      sample();
    } catch (RuntimeException e) { // keep sampling; the next sample counts the time since the last good one
      LOG.warn("EAFR energy sample failed: {}", e.toString());
    }
  }

  @Override
  public synchronized void close() {
    if (sampler != null) {
      sampler.shutdownNow();
      sampler = null;
    }
  }
}
