package org.eafr.namenode.monitor;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.energy.EnergyMonitor;
import org.eafr.namenode.energy.NodeEnergy;

/** The {@link EafrDataNodesMXBean}: roles read now, power states from the energy estimate's last sample. */
public final class EafrDataNodes implements EafrDataNodesMXBean {
  public static final String NAME = "EafrDataNodes";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final DatanodeManager dataNodes;
  private final EafrRuntime runtime;

  public EafrDataNodes(DatanodeManager dataNodes, EafrRuntime runtime) {
    this.dataNodes = dataNodes;
    this.runtime = runtime;
  }

  @Override
  public String getDataNodeRoles() {
    ServerTranslator translator = runtime.translator();
    Map<String, String> roles = new TreeMap<>();
    for (DatanodeDescriptor dn : dataNodes.getDatanodeListForReport(DatanodeReportType.ALL)) {
      roles.put(ServerTranslator.idOf(dn), translator.roleOf(dn).name());
    }
    return json(roles);
  }

  @Override
  public String getDataNodePowerStates() {
    Map<String, String> states = new TreeMap<>();
    EnergyMonitor energy = runtime.energy();
    if (energy != null) {
      for (NodeEnergy node : energy.last().nodes().values()) {
        states.put(node.id(), node.powerState().name());
      }
    }
    return json(states);
  }

  private static String json(Map<String, String> map) {
    try {
      return JSON.writeValueAsString(map);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
