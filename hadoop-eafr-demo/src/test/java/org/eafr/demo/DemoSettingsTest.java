package org.eafr.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoSettingsTest {
  @TempDir
  Path dir;

  @Test
  void defaultsGiveNineDataNodesInSevenGearsOnAuto() throws Exception {
    DemoSettings settings = DemoSettings.load(null, List.of());
    assertThat(settings.integer("demo.datanodes")).isEqualTo(9);
    assertThat(settings.maximumGear()).isEqualTo(6);
    assertThat(settings.gearMode()).isEqualTo(DemoSettings.GearMode.AUTO);
    assertThat(settings.gearSchedule().steps()).containsExactly(new GearSchedule.Step(0.0, 0),
        new GearSchedule.Step(0.62, 4), new GearSchedule.Step(0.83, 0));
  }

  @Test
  void fileThenSetsOverrideInOrderAndOtherKeysGoToHadoop() throws Exception {
    Path file = dir.resolve("demo.conf");
    Files.write(file, List.of("# comment", "demo.duration.s = 120", "dfs.blocksize=2097152", ""));
    DemoSettings settings = DemoSettings.load(file, List.of("demo.duration.s=90", "demo.gears=off"));
    assertThat(settings.integer("demo.duration.s")).isEqualTo(90);
    assertThat(settings.gearMode()).isEqualTo(DemoSettings.GearMode.OFF);
    assertThat(settings.hadoopOverrides()).containsEntry("dfs.blocksize", "2097152").hasSize(1);
  }

  @Test
  void misspelledKeyIsRefusedWithTheNearestKey() {
    assertThatThrownBy(() -> DemoSettings.load(null, List.of("demo.datanode=9")))
        .hasMessageContaining("--set demo.datanode=9: demo.datanode is not allowed: unknown key; did you mean"
            + " demo.datanodes?");
  }

  @Test
  void outOfRangeAndBadChoicesNameKeyValueAndRange() {
    assertThatThrownBy(() -> DemoSettings.load(null, List.of("demo.datanodes=2")))
        .hasMessage("demo.datanodes = 2 is not allowed: expected an integer in [3, 30]");
    assertThatThrownBy(() -> DemoSettings.load(null, List.of("demo.gears=sometimes")))
        .hasMessage("demo.gears = sometimes is not allowed: expected one of [auto, manual, off]");
    assertThatThrownBy(() -> DemoSettings.load(null, List.of("demo.gear.group-size=2")))
        .hasMessageContaining("demo.gear.group-size = 2 is not allowed: expected a divisor of demo.gear.primaries = 3");
    assertThatThrownBy(() -> DemoSettings.load(null, List.of("demo.gear.group-size=3")))
        .hasMessageContaining("demo.gear.group-size = 3 is not allowed: the equal-work layout refuses it with"
            + " demo.gear.primaries = 3 and demo.datanodes = 9: 2 gear groups of 3 servers are too few");
    assertThatThrownBy(() -> DemoSettings.load(null, List.of("demo.gears=manual", "demo.gear.schedule=0.5:7")))
        .hasMessageContaining("gear '7' does not exist: expected 0..6 or max");
    assertThatThrownBy(() -> DemoSettings.load(null, List.of("demo.redfish-hosts=6")))
        .hasMessageContaining("demo.redfish-hosts = 6 is not allowed: expected at most");
    assertThatThrownBy(() -> DemoSettings.load(null, List.of("demo.heap=lots")))
        .hasMessage("demo.heap = lots is not allowed: expected a JVM size such as 256m or 1g");
  }

  @Test
  void policyIsAGearedPolicyOfTheRegistryOrRandom() throws Exception {
    assertThatThrownBy(() -> DemoSettings.load(null, List.of("demo.policy=hdfs")))
        .hasMessage("demo.policy = hdfs is not allowed: expected one of [rabbit, springfs, accordion, eafr-geared,"
            + " random]");
    DemoSettings random = DemoSettings.load(null, List.of("demo.policy=random", "demo.gears=auto"));
    assertThat(random.geared()).isFalse();
    assertThat(random.gearMode()).isEqualTo(DemoSettings.GearMode.OFF);
    assertThat(random.runName()).isEqualTo("random");
    // Accordion's groups of p = 3 on 9 DataNodes: gears 0..2, so a schedule's gear 4 is refused.
    assertThat(DemoSettings.load(null, List.of("demo.policy=accordion")).maximumGear()).isEqualTo(2);
    assertThatThrownBy(() -> DemoSettings.load(null, List.of("demo.policy=accordion", "demo.gears=manual")))
        .hasMessageContaining("gear '4' does not exist: expected 0..2 or max");
  }

  @Test
  void controllerScalesWithTheReplayLength() {
    org.apache.hadoop.conf.Configuration site = new org.apache.hadoop.conf.Configuration(false);
    ClusterConfig.autoGears(site, 240);
    assertThat(site.get("eafr.gear.server.opens-per-second")).isEqualTo("5");
    assertThat(site.get("eafr.gear.server.write-bytes-per-second")).isEqualTo("1750000");
    assertThat(site.get("eafr.gear.auto.interval.ms")).isEqualTo("8000");
    assertThat(site.get("eafr.gear.min-dwell.ms")).isEqualTo("16000");
    // eafr-geared's read floor: 5 servers (p + (r - 1) g) cannot hold the equal-work shares, 6 can
    assertThat(ClusterConfig.readFloorShare(9, 3, 1)).isEqualTo("0.611111");
    assertThat(org.eafr.placement.gear.eafr.ReadFloor.of(Double.parseDouble(ClusterConfig.readFloorShare(9, 3, 1)), 9,
        3, 1, 3).servers()).isEqualTo(6);
    // a floor only where it shortens a burst: L(M, 1) = L(M, 3) = t while M <= c
    assertThat(ClusterConfig.readFloorFor(3, 64)).isFalse();
    assertThat(ClusterConfig.readFloorFor(64, 64)).isFalse();
    assertThat(ClusterConfig.readFloorFor(65, 64)).isTrue();
    assertThat(ClusterConfig.readFloorFor(1000, 15)).isTrue();
    ClusterConfig.autoGears(site, 600);
    assertThat(site.get("eafr.gear.server.opens-per-second")).isEqualTo("2");
    assertThat(site.get("eafr.gear.auto.interval.ms")).isEqualTo("20000");
  }

  @Test
  void scheduleFractionsMustIncrease() {
    assertThatThrownBy(() -> GearSchedule.parse("0.5:0,0.2:max", 6))
        .hasMessageContaining("fractions must increase, 0.2 does not");
    assertThatThrownBy(() -> GearSchedule.parse("1.0:0", 6)).hasMessageContaining("fraction 1.0 is not in [0, 1)");
    assertThat(GearSchedule.parse("", 6).steps()).isEmpty();
  }
}
