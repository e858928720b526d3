package org.eafr.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class DemoHostsTest {
  /** The worked example of the class Javadoc: the defaults' chain and drivers. */
  @Test
  void driversFollowTheExpansionChain() throws Exception {
    DemoHosts hosts = DemoHosts.plan(DemoSettings.load(null, List.of()), new Ports(30000));
    assertThat(hosts.hosts()).extracting(DemoHosts.Host::chainPosition).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8);
    assertThat(hosts.hosts()).extracting(DemoHosts.Host::rack).containsExactly("/rack0", "/rack1", "/rack2",
        "/rack0", "/rack1", "/rack2", "/rack0", "/rack1", "/rack2");
    assertThat(hosts.hosts()).extracting(DemoHosts.Host::gearGroup).containsExactly(0, 0, 0, 1, 2, 3, 4, 5, 6);
    assertThat(hosts.withDriver(DemoHosts.Driver.WOL)).extracting(DemoHosts.Host::name)
        .containsExactly("dn3.eafr.local");
    assertThat(hosts.withDriver(DemoHosts.Driver.REDFISH)).extracting(DemoHosts.Host::name)
        .containsExactly("dn4.eafr.local", "dn5.eafr.local");
    assertThat(hosts.withDriver(DemoHosts.Driver.IPMI)).hasSize(6);
    assertThat(hosts.onInGear(0)).isEqualTo(3);
    assertThat(hosts.onInGear(2)).isEqualTo(5);
    assertThat(hosts.byMac("02:EA:F7:00:00:08").name()).isEqualTo("dn8.eafr.local");
    assertThat(hosts.byName("dn6.eafr.local").driver()).isEqualTo(DemoHosts.Driver.IPMI);
  }

  @Test
  void primariesAreTheFirstDataNodeOfEachRackWithGearGroupsOfTwo() throws Exception {
    DemoHosts hosts = DemoHosts.plan(DemoSettings.load(null, List.of("demo.datanodes=10", "demo.racks=2",
        "demo.gear.primaries=4", "demo.gear.group-size=2", "demo.gear.schedule=0.1:0")), new Ports(30000));
    // racks /rack0 = dn0 dn2 dn4 dn6 dn8, /rack1 = dn1 dn3 ...: the chain alternates racks
    assertThat(hosts.hosts()).extracting(DemoHosts.Host::chainPosition).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    assertThat(hosts.hosts()).extracting(DemoHosts.Host::gearGroup).containsExactly(0, 0, 0, 0, 1, 1, 2, 2, 3, 3);
  }
}
