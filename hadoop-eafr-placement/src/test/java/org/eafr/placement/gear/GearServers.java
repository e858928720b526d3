package org.eafr.placement.gear;

import java.util.ArrayList;
import java.util.List;
import org.eafr.placement.cluster.Server;

/** Test servers for geared layouts: ids s0..s(n-1), spread round-robin over {@code racks} racks r0..r(racks-1). */
public final class GearServers {
  private GearServers() {
  }

  public static List<Server> servers(int count, int racks) {
    List<Server> servers = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      servers.add(Server.builder("s" + i).rack("r" + (i % racks)).serviceCapacity(10).build());
    }
    return servers;
  }

  /** A chain of {@code count} servers in id order. */
  public static ExpansionChain chain(int count, int racks) {
    return ExpansionChain.of(servers(count, racks));
  }
}
