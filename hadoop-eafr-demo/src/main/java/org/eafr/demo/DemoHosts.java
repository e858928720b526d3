package org.eafr.demo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.eafr.namenode.gear.GearRecord;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.placement.cluster.Server;

/**
 * The demo's DataNode hosts: names, racks, ports, where each sits in the equal-work expansion chain, and which BMC
 * switches it. Every host shares 127.0.0.1, so a DataNode is known by its transfer address, as the NameNode's gear
 * service names it.
 *
 * <p>Drivers follow the chain: the NameNode fixes the chain from the live DataNodes with
 * {@link GearRuntime#chainOf} (one DataNode of each rack in turn, by rack then id), and this class calls the same
 * method, so it knows which hosts are primaries (always on, gear 0) and which gear group each other host is in. The
 * first host after the primaries is woken by Wake-on-LAN, the {@code demo.redfish-hosts} after it have Redfish BMCs,
 * every other host an IPMI BMC. So a gear-down to 0 puts hosts of every kind to sleep, and a gear-up to the gear of
 * the first IPMI host after them wakes every kind.
 *
 * <p>Worked example (the defaults: 9 DataNodes, 3 racks, p = 3, g = 1, 2 Redfish, 1 WoL): DataNode i is on rack
 * i mod 3 and transfer ports rise with i, so the chain is dn0, dn1, dn2 (primaries), then dn3 ... dn8 (gear groups 1
 * to 6); dn3 is WoL, dn4 and dn5 are Redfish, dn0-dn2 and dn6-dn8 IPMI.
 */
public record DemoHosts(List<Host> hosts, int primaries, int groupSize) {
  /** How a host's power is switched. */
  public enum Driver {
    IPMI, REDFISH, WOL;

    public String inventoryName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** One DataNode host. {@code bmcPort}: ipmi_sim's UDP port, the sushy emulator's HTTPS port, or 0 for WoL. */
  public record Host(int index, String name, String rack, int xferPort, int ipcPort, int httpPort, int chainPosition,
      int gearGroup, Driver driver, int bmcPort) {
    /** The DataNode's id in the NameNode: its transfer address. */
    public String id() {
      return "127.0.0.1:" + xferPort;
    }

    /** A locally administered MAC for Wake-on-LAN, unique per host. */
    public String mac() {
      return String.format(Locale.ROOT, "02:ea:f7:00:00:%02x", index);
    }
  }

  public DemoHosts {
    hosts = List.copyOf(hosts);
  }

  /**
   * Plans the hosts of {@code settings}; ports come from {@code ports} in ascending order per kind, so transfer
   * ports rise with the host's index (same number of digits: string order is number order).
   */
  public static DemoHosts plan(DemoSettings settings, Ports ports) {
    int n = settings.integer("demo.datanodes");
    int racks = settings.integer("demo.racks");
    int primaries = settings.integer("demo.gear.primaries");
    int groupSize = settings.integer("demo.gear.group-size");
    int redfish = settings.integer("demo.redfish-hosts");
    int wol = settings.integer("demo.wol-hosts");
    int[][] daemonPorts = new int[n][];
    List<Server> servers = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      daemonPorts[i] = new int[] {ports.tcp(), ports.tcp(), ports.tcp()};
      servers.add(Server.builder("127.0.0.1:" + daemonPorts[i][0]).rack(rackOf(i, racks)).build());
    }
    Map<String, Integer> positions = new HashMap<>();
    List<GearRecord.ChainEntry> chain = GearRuntime.chainOf(servers);
    for (int p = 0; p < chain.size(); p++) {
      positions.put(chain.get(p).id(), p);
    }
    List<Host> hosts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int position = positions.get(servers.get(i).id());
      int group = position < primaries ? 0 : 1 + (position - primaries) / groupSize;
      Driver driver = position < primaries ? Driver.IPMI : position < primaries + wol ? Driver.WOL
          : position < primaries + wol + redfish ? Driver.REDFISH : Driver.IPMI;
      int bmcPort = driver == Driver.IPMI ? ports.udp() : driver == Driver.REDFISH ? ports.tcp() : 0;
      hosts.add(new Host(i, "dn" + i + ".eafr.local", rackOf(i, racks), daemonPorts[i][0], daemonPorts[i][1],
          daemonPorts[i][2], position, group, driver, bmcPort));
    }
    return new DemoHosts(hosts, primaries, groupSize);
  }

  static String rackOf(int index, int racks) {
    return "/rack" + (index % racks);
  }

  public List<Host> withDriver(Driver driver) {
    return hosts.stream().filter(host -> host.driver() == driver).toList();
  }

  public Host byName(String name) {
    return hosts.stream().filter(host -> host.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("host " + name + " is not one of the demo's hosts"));
  }

  public Host byMac(String mac) {
    return hosts.stream().filter(host -> host.mac().equalsIgnoreCase(mac)).findFirst().orElse(null);
  }

  /** DataNodes on in {@code gear}: the primaries and gear groups 1..gear. */
  public int onInGear(int gear) {
    return primaries + gear * groupSize;
  }
}
