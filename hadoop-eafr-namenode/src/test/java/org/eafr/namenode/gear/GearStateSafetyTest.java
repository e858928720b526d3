package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.util.ExitUtil;
import org.eafr.namenode.monitor.ReplicationMonitorPlugin;
import org.eafr.namenode.power.PowerManager;
import org.eafr.namenode.power.PowerQuarantine;
import org.eafr.namenode.power.PowerState;
import org.eafr.namenode.power.PowerTestSupport;
import org.eafr.namenode.power.Requester;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.eafr.placement.gear.shift.ShiftState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * What the gear state keeps beyond the gears, on a MiniDFSCluster's namespace: the power quarantine survives a
 * NameNode restart and is restored into a new power manager (and an operator's clear reaches the store); a NameNode
 * configured so that DataNodes the gears put to sleep would be left untracked (gears off, the state directory moved
 * or deleted) is refused, naming the sleepers and the fix, and a NameNode started so is stopped.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GearStateSafetyTest {
  private static final String DIR = "/system/eafr";
  private static final String SLEEPER = "10.0.0.9:9866";
  private static EafrCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = EafrCluster.start(EafrCluster.baseConf("gear-state-safety"), new String[] {"/r1", "/r1"});
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @Test
  @Order(1)
  void quarantine_isPersistedWithTheGearState_andRestoredAfterARestart() throws Exception {
    Path dir = Files.createTempDirectory("quarantine");
    PowerQuarantine quarantined;
    try (PowerManager first = failingManager(dir)) {
      assertThatThrownBy(() -> first.powerOn("dn7", Requester.AUTOMATIC).get(60, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class);
      assertThat(first.quarantines()).hasSize(1);
      quarantined = first.quarantines().get(0);
      new QuarantineSync(new GearStore(cluster.nameNode(), DIR), () -> first).step(true);
    }
    cluster.mini().restartNameNode(0);

    try (PowerManager second = failingManager(dir)) {
      QuarantineSync sync = new QuarantineSync(new GearStore(cluster.nameNode(), DIR), () -> second);
      assertThat(second.status("dn7").quarantined()).isFalse();
      sync.step(true);
      assertThat(second.status("dn7").quarantined()).as("restored from the namespace").isTrue();
      assertThat(second.quarantines()).containsExactly(quarantined);
      assertThat(quarantined.target()).isEqualTo(PowerState.ON);

      second.clearQuarantine("dn7");
      sync.step(true);
      assertThat(new GearStore(cluster.nameNode(), DIR).readQuarantines()).isEmpty();
    }
  }

  @Test
  @Order(2)
  void sleepersLeftUntracked_areRefusedNamingThemAndTheFix() throws Exception {
    recordSleeper();
    GearStateCheck.refuseUntrackedSleepers(cluster.nameNode(), settings("equal-work", DIR)); // as configured

    assertThatThrownBy(() -> GearStateCheck.refuseUntrackedSleepers(cluster.nameNode(), settings("random", DIR)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("eafr.layout is random (gears off), but the gear state in /system/eafr has 1 DataNodes"
            + " asleep [" + SLEEPER + "]")
        .hasMessageContaining("Set eafr.layout back to equal-work");
    assertThatThrownBy(() -> GearStateCheck.refuseUntrackedSleepers(cluster.nameNode(),
        settings("equal-work", "/elsewhere")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("eafr.gear.state.dir is /elsewhere, but the gear state, with 1 DataNodes asleep ["
            + SLEEPER + "], is in /system/eafr: set eafr.gear.state.dir back to /system/eafr");

    cluster.fs().delete(new org.apache.hadoop.fs.Path(DIR), true);
    assertThatThrownBy(() -> GearStateCheck.refuseUntrackedSleepers(cluster.nameNode(), settings("equal-work", DIR)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("the gear state directory /system/eafr (eafr.gear.state.dir) is gone, but 1 DataNodes"
            + " asleep [" + SLEEPER + "] were powered off by the gears");
  }

  /**
   * A NameNode started with gears off while the gear state records sleepers stops (exit status 1 through Hadoop's
   * ExitUtil, which the MiniDFSCluster turns into a recorded exception), naming the sleepers and the fix; it does not
   * run on without EAFR.
   */
  @Test
  @Order(3)
  void aNameNodeStartedWithSleepersUntracked_stops() throws Exception {
    recordSleeper();
    Configuration conf = cluster.mini().getConfiguration(0);
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReplicationMonitorPlugin.class.getName());
    conf.set(GearSettings.LAYOUT_KEY, "random");
    ExitUtil.resetFirstExitException();
    try {
      cluster.mini().restartNameNode(0);
      assertThat(ExitUtil.terminateCalled()).as("the NameNode was stopped").isTrue();
      assertThat(ExitUtil.getFirstExitException().getExitCode()).isEqualTo(1);
      assertThat(ExitUtil.getFirstExitException().getMessage()).startsWith("EAFR stops the NameNode: eafr.layout is"
          + " random (gears off), but the gear state in /system/eafr has 1 DataNodes asleep [" + SLEEPER + "]")
          .contains("Set eafr.layout back to equal-work");
    } finally {
      ExitUtil.resetFirstExitException();
      conf.unset(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY);
      conf.unset(GearSettings.LAYOUT_KEY);
    }
  }

  /** Gear state in {@value #DIR} (equal-work) with {@value #SLEEPER} asleep, and its record on the root. */
  private static void recordSleeper() throws java.io.IOException {
    GearStore store = new GearStore(cluster.nameNode(), DIR);
    GearRecord state = new GearRecord(List.of(new GearRecord.ChainEntry(SLEEPER, "/r1")),
        new ShiftState(0, 0, ShiftPhase.STEADY, Set.of(SLEEPER), Set.of()));
    store.write(state);
    store.writeHome("equal-work", state);
  }

  private static GearSettings settings(String layout, String stateDir) {
    return GearSettings.from(Map.of(GearSettings.LAYOUT_KEY, layout, GearSettings.STATE_DIR_KEY, stateDir)::get);
  }

  /** A manager over one host, dn7, whose script always fails: one failed attempt quarantines it. */
  private static PowerManager failingManager(Path dir) throws Exception {
    return PowerTestSupport.scriptedManager(dir, "dn7", List.of("#!/bin/sh", "echo 'BMC unreachable' >&2", "exit 1"),
        Map.of("eafr.power.min-command-interval.ms", "0", "eafr.power.retries", "0",
            "eafr.power.quarantine-after", "1"));
  }
}
