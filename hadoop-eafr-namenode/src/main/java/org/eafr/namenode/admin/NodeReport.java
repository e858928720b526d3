package org.eafr.namenode.admin;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.energy.NodeEnergy;
import org.eafr.placement.cluster.Server;

/**
 * One DataNode as {@code hdfs eafr nodes} shows it: the core's view of it (role, load against its service capacity,
 * storage) beside HDFS's own (admin state, liveness), so an operator sees both what EAFR decides on and why; and its
 * gear group, power state, utilization and estimated draw from the energy sample taken for the report.
 */
final class NodeReport {
  final String host;
  final String id;
  final String rack;
  final String role;
  final String adminState;
  final boolean alive;
  final boolean putToSleepByEafr;
  final int load;
  final int serviceCapacity;
  final long capacityBytes;
  final long usedBytes;
  /** From the energy sample taken for this report; null when it has none for the DataNode. */
  final NodeEnergy energy;

  private NodeReport(DatanodeDescriptor dataNode, Server server, EafrRuntime runtime, NodeEnergy energy) {
    this.host = dataNode.getHostName();
    this.id = server.id();
    this.rack = server.rack();
    this.role = server.role().name();
    this.adminState = dataNode.getAdminState().name();
    this.alive = dataNode.isAlive();
    this.putToSleepByEafr = runtime.roles().isSleeping(server.id());
    this.load = server.concurrentReads();
    this.serviceCapacity = server.serviceCapacity();
    this.capacityBytes = server.storageCapacity();
    this.usedBytes = server.storageUsed();
    this.energy = energy;
  }

  static NodeReport of(DatanodeDescriptor dataNode, ServerTranslator translator, EafrRuntime runtime,
      NodeEnergy energy) {
    return new NodeReport(dataNode, translator.toServer(dataNode), runtime, energy);
  }

  String powerState() {
    return energy == null ? "n/a" : energy.powerState().name();
  }

  /** The gear that switches it on (0: primary), or "-" outside the gears. */
  String gearGroup() {
    return energy == null || energy.gearGroup() == null ? "-" : String.valueOf(energy.gearGroup());
  }

  /** Load h / c_c, the utilization EAFR's Eq. 6 compares with its overload threshold. */
  double loadFraction() {
    return serviceCapacity == 0 ? 0 : (double) load / serviceCapacity;
  }

  double storageFraction() {
    return capacityBytes == 0 ? 0 : (double) usedBytes / capacityBytes;
  }

  Map<String, Object> toMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("host", host);
    map.put("id", id);
    map.put("rack", rack);
    map.put("role", role);
    map.put("adminState", adminState);
    map.put("alive", alive);
    map.put("putToSleepByEafr", putToSleepByEafr);
    map.put("load", load);
    map.put("serviceCapacity", serviceCapacity);
    map.put("loadFraction", loadFraction());
    map.put("capacityBytes", capacityBytes);
    map.put("usedBytes", usedBytes);
    map.put("storageFraction", storageFraction());
    map.put("gearGroup", energy == null ? null : energy.gearGroup());
    map.put("powerState", energy == null ? null : energy.powerState().name());
    map.put("utilization", energy == null ? null : energy.utilization());
    map.put("watts", energy == null ? null : energy.watts());
    map.put("measuredWatts", energy == null ? null : energy.measuredWatts());
    return map;
  }
}
