package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricType;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.junit.jupiter.api.Test;

/**
 * The manager's rules on a manual clock: calls to one BMC spaced by the min command interval, state polls with
 * doubling waits, one action per node, bounded retries, quarantine with one error line, the maintenance check before
 * a power-off, and the metrics that count it all.
 */
class PowerManagerTest {
  private final ManualScheduler clock = new ManualScheduler();
  private final Set<String> mayPowerOff = new HashSet<>();
  private final java.util.concurrent.atomic.AtomicBoolean active = new java.util.concurrent.atomic.AtomicBoolean(true);
  private final HostView hosts = new HostView() {
    @Override
    public boolean active() {
      return active.get();
    }

    @Override
    public void checkMayPowerOff(InventoryEntry entry) throws PowerRefusedException {
      if (!mayPowerOff.contains(entry.host())) {
        throw new PowerRefusedException("refusing to power off " + entry.host() + ": not IN_MAINTENANCE");
      }
    }

    @Override
    public PowerState heartbeatState(InventoryEntry entry) {
      return PowerState.UNKNOWN;
    }
  };

  private PowerManager manager(Map<String, String> keys, Map<String, ScriptedDriver> drivers) {
    PowerManager manager = new PowerManager(PowerSettings.from(keys::get), new Configuration(false), hosts,
        new SleepRequests(), clock, PowerDrivers::build);
    StringBuilder json = new StringBuilder("{\"nodes\": [");
    int mac = 0; // one MAC per host, as the inventory requires
    for (String host : drivers.keySet()) {
      json.append(json.length() > 11 ? "," : "").append("{\"host\": \"").append(host)
          .append("\", \"driver\": \"wol\", \"mac\": \"00:11:22:33:44:").append(String.format("%02x", mac++))
          .append("\"}");
    }
    manager.install(PowerInventory.parse("test-inventory", json.append("]}").toString()), new HashMap<>(drivers));
    return manager;
  }

  @Test
  void powerOn_spacesCallsByTheMinCommandInterval_andPollsUntilReached() throws Exception {
    ScriptedDriver dn1 = new ScriptedDriver("bmc1:623", clock);
    dn1.readsUntilReached = 3;
    PowerManager manager = manager(Map.of(), Map.of("dn1", dn1));
    long start = clock.nowMillis();

    CompletableFuture<PowerResult> on = manager.powerOn("dn1", Requester.AUTOMATIC);
    clock.runFor(60_000);

    assertThat(on).isCompleted();
    assertThat(on.get().changed()).isTrue();
    assertThat(on.get().state()).isEqualTo(PowerState.ON);
    assertThat(dn1.calls).containsExactly("status", "on", "status", "status", "status");
    // polls wait 1 s, 2 s, 4 s after the command, but never less than 5 s after the previous BMC call
    assertThat(dn1.callTimes).containsExactly(start, start + 5_000, start + 10_000, start + 15_000, start + 20_000);
    assertThat(manager.status("dn1").lastKnown()).isEqualTo(PowerState.ON);
    assertThat(manager.metrics().commands()).isEqualTo(1);
    assertThat(manager.metrics().poweredOn()).isEqualTo(1);
  }

  @Test
  void statePolls_backOffByDoubling_upToThePollMaximum() throws Exception {
    ScriptedDriver dn1 = new ScriptedDriver("bmc1:623", clock);
    dn1.readsUntilReached = 6;
    PowerManager manager = manager(Map.of("eafr.power.min-command-interval.ms", "0"), Map.of("dn1", dn1));
    long start = clock.nowMillis();

    CompletableFuture<PowerResult> on = manager.powerOn("dn1", Requester.AUTOMATIC);
    clock.runFor(60_000);

    assertThat(on.get().elapsedMillis()).isEqualTo(1_000 + 2_000 + 4_000 + 8_000 + 10_000 + 10_000);
    assertThat(dn1.callTimes).containsExactly(start, start, start + 1_000, start + 3_000, start + 7_000,
        start + 15_000, start + 25_000, start + 35_000);
  }

  @Test
  void hostAlreadyInTheState_getsNoCommand() throws Exception {
    ScriptedDriver dn1 = new ScriptedDriver("bmc1:623", clock);
    dn1.state = PowerState.ON;
    PowerManager manager = manager(Map.of(), Map.of("dn1", dn1));

    CompletableFuture<PowerResult> on = manager.powerOn("dn1", Requester.AUTOMATIC);
    clock.runFor(10_000);

    assertThat(on.get().changed()).isFalse();
    assertThat(dn1.calls).containsExactly("status");
    assertThat(manager.metrics().commands()).isZero();
  }

  @Test
  void secondRequestForABusyNode_isRefused_andTheFirstGoesOn() throws Exception {
    ScriptedDriver dn1 = new ScriptedDriver("bmc1:623", clock);
    mayPowerOff.add("dn1");
    PowerManager manager = manager(Map.of(), Map.of("dn1", dn1));

    CompletableFuture<PowerResult> on = manager.powerOn("dn1", Requester.AUTOMATIC);
    CompletableFuture<PowerResult> off = manager.powerOff("dn1", true, Requester.OPERATOR);

    assertThat(off).isCompletedExceptionally();
    assertThatThrownBy(off::get).hasCauseInstanceOf(PowerRefusedException.class)
        .hasMessageContaining("dn1 is busy with on (one power action per node at a time)");
    assertThat(manager.status("dn1").inFlight()).isEqualTo(PowerCommand.ON);
    clock.runFor(60_000);
    assertThat(on.get().state()).isEqualTo(PowerState.ON);
    assertThat(manager.status("dn1").inFlight()).isNull();
    assertThat(manager.metrics().refusals()).isEqualTo(1);
  }

  @Test
  void twoNodesBehindOneBmc_shareItsCommandInterval() throws Exception {
    ScriptedDriver blade1 = new ScriptedDriver("chassis:623", clock);
    ScriptedDriver blade2 = new ScriptedDriver("chassis:623", clock);
    blade1.state = PowerState.ON;
    blade2.state = PowerState.ON;
    PowerManager manager = manager(Map.of(), Map.of("blade1", blade1, "blade2", blade2));
    long start = clock.nowMillis();

    CompletableFuture<PowerResult> first = manager.powerOn("blade1", Requester.AUTOMATIC);
    CompletableFuture<PowerResult> second = manager.powerOn("blade2", Requester.AUTOMATIC);
    clock.runFor(20_000);

    assertThat(first.get().changed()).isFalse();
    assertThat(second.get().changed()).isFalse();
    assertThat(blade1.callTimes).containsExactly(start);
    assertThat(blade2.callTimes).containsExactly(start + 5_000);
  }

  @Test
  void hostNeverReachingTheState_isRetried_thenQuarantinedWithOneErrorLine() throws Exception {
    ScriptedDriver dn1 = new ScriptedDriver("bmc1:623", clock);
    dn1.neverReaches = true;
    PowerManager manager = manager(Map.of("eafr.power.state-timeout.ms", "20000"), Map.of("dn1", dn1));
    CompletableFuture<PowerResult> on;
    try (LogCapture log = new LogCapture()) {
      on = manager.powerOn("dn1", Requester.AUTOMATIC);
      clock.runFor(600_000);

      assertThat(log.text().lines().filter(line -> line.startsWith("ERROR"))).containsExactly(
          "ERROR PowerManager - EAFR power: node dn1 quarantined after 3 consecutive failed attempts: driver scripted"
              + " (bmc1:623), command on, error: dn1 did not reach ON within 20000 ms"
              + " (eafr.power.state-timeout.ms) after on; last state OFF; it will not be powered automatically"
              + " until an operator clears it");
    }
    assertThatThrownBy(on::get).isInstanceOf(ExecutionException.class)
        .hasMessageContaining("on dn1 through scripted bmc1:623 failed after 3 attempts (node quarantined)");
    assertThat(dn1.calls.stream().filter("on"::equals)).hasSize(3);
    assertThat(manager.status("dn1").quarantined()).isTrue();
    assertThat(manager.metrics().failedAttempts()).isEqualTo(3);
    assertThat(manager.metrics().retries()).isEqualTo(2);
    assertThat(manager.metrics().quarantines()).isEqualTo(1);

    int callsBefore = dn1.calls.size();
    CompletableFuture<PowerResult> automatic = manager.powerOn("dn1", Requester.AUTOMATIC);
    clock.runFor(60_000);
    assertThatThrownBy(automatic::get).hasCauseInstanceOf(PowerRefusedException.class)
        .hasMessageContaining("dn1 is quarantined (after 3 consecutive failed attempts; last: on through scripted"
            + " bmc1:623 failed: dn1 did not reach ON within 20000 ms")
        .hasMessageContaining("and is OFF, not ON: an automatic on is not sent to it; once its BMC works, clear it"
            + " with 'hdfs eafr power clear dn1'");
    assertThat(dn1.calls.subList(callsBefore, dn1.calls.size())).as("its state is read, no command is sent")
        .containsExactly("status");

    dn1.neverReaches = false;
    manager.clearQuarantine("dn1");
    CompletableFuture<PowerResult> afterClear = manager.powerOn("dn1", Requester.AUTOMATIC);
    clock.runFor(60_000);
    assertThat(afterClear.get().state()).isEqualTo(PowerState.ON);
    assertThat(manager.status("dn1").consecutiveFailures()).isZero();
  }

  @Test
  void quarantinedNodeFoundInTheStateItsFailedCommandAskedFor_passesAndIsLifted_refusalsLoggedOncePerQuarantine()
      throws Exception {
    ScriptedDriver dn1 = new ScriptedDriver("bmc1:623", clock);
    dn1.neverReaches = true;
    PowerManager manager = manager(Map.of("eafr.power.retries", "0", "eafr.power.quarantine-after", "1"),
        Map.of("dn1", dn1));
    CompletableFuture<PowerResult> timedOut = manager.powerOn("dn1", Requester.AUTOMATIC);
    clock.runFor(600_000);
    assertThatThrownBy(timedOut::get).hasMessageContaining("(node quarantined)");

    try (LogCapture log = new LogCapture()) {
      for (int step = 0; step < 3; step++) { // a gear-up asks again every step while the host is still off
        CompletableFuture<PowerResult> refused = manager.powerOn("dn1", Requester.AUTOMATIC);
        clock.runFor(60_000);
        assertThatThrownBy(refused::get).hasCauseInstanceOf(PowerRefusedException.class);
      }
      assertThat(log.text().lines().filter(line -> line.startsWith("WARN") && line.contains("refused"))).hasSize(1);
    }

    dn1.state = PowerState.ON; // the host finished booting after the timeout: its power-on took effect late
    dn1.neverReaches = false;
    int callsBefore = dn1.calls.size();
    CompletableFuture<PowerResult> on;
    try (LogCapture log = new LogCapture()) {
      on = manager.powerOn("dn1", Requester.AUTOMATIC);
      clock.runFor(60_000);
      assertThat(log.text()).contains("INFO PowerManager - EAFR power: quarantine of dn1 lifted: it is ON now, the"
          + " state its failed command asked for (it took effect late) (was: after 1 consecutive failed attempts;"
          + " last: on through scripted bmc1:623 failed: dn1 did not reach ON");
    }
    assertThat(on.get().state()).isEqualTo(PowerState.ON);
    assertThat(on.get().changed()).isFalse();
    assertThat(dn1.calls.subList(callsBefore, dn1.calls.size())).containsExactly("status");
    assertThat(manager.status("dn1").quarantined()).isFalse();

    mayPowerOff.add("dn1");
    CompletableFuture<PowerResult> off = manager.powerOff("dn1", false, Requester.AUTOMATIC);
    clock.runFor(60_000);
    assertThat(off.get().changed()).as("automatic commands reach it again").isTrue();
    assertThat(manager.clearQuarantine("dn1").quarantined()).isFalse();
    assertThatThrownBy(() -> manager.clearQuarantine("dn9")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("host dn9 is not in the power inventory test-inventory").hasMessageContaining("[dn1]");
  }

  @Test
  void quarantinedNodeFoundInAnotherState_passesThatRequest_butStaysQuarantined() throws Exception {
    ScriptedDriver dn1 = new ScriptedDriver("bmc1:623", clock);
    PowerManager manager = quarantinedByARefusedPowerOn(dn1);

    mayPowerOff.add("dn1");
    CompletableFuture<PowerResult> off = manager.powerOff("dn1", false, Requester.AUTOMATIC);
    clock.runFor(60_000);
    assertThat(off.get().changed()).isFalse();
    assertThat(manager.status("dn1").quarantined()).as("OFF says nothing of the failed power-on's BMC").isTrue();
    CompletableFuture<PowerResult> on = manager.powerOn("dn1", Requester.AUTOMATIC);
    clock.runFor(60_000);
    assertThatThrownBy(on::get).hasMessageContaining("dn1 is quarantined").hasMessageContaining("is OFF, not ON");
    assertThat(dn1.calls).containsOnly("status", "on").filteredOn("on"::equals).hasSize(1);
  }

  /** A manager over {@code dn1} (OFF) whose BMC refused an automatic power-on: quarantined after that one attempt. */
  private PowerManager quarantinedByARefusedPowerOn(ScriptedDriver dn1) throws Exception {
    dn1.failCommandsWith = "BMC answered: insufficient privilege";
    PowerManager manager = manager(Map.of("eafr.power.retries", "0", "eafr.power.quarantine-after", "1"),
        Map.of("dn1", dn1));
    CompletableFuture<PowerResult> failed = manager.powerOn("dn1", Requester.AUTOMATIC);
    clock.runFor(60_000);
    assertThatThrownBy(failed::get).hasMessageContaining("failed after 1 attempt (node quarantined):"
        + " BMC answered: insufficient privilege");
    return manager;
  }

  @Test
  void quarantinedNode_switchedByAnOperatorThroughItsBmc_isNoLongerQuarantined() throws Exception {
    ScriptedDriver dn1 = new ScriptedDriver("bmc1:623", clock);
    PowerManager manager = quarantinedByARefusedPowerOn(dn1);

    dn1.failCommandsWith = null; // the BMC's account was fixed; the operator tries it
    mayPowerOff.add("dn1");
    dn1.state = PowerState.ON;
    CompletableFuture<PowerResult> byOperator = manager.powerOff("dn1", false, Requester.OPERATOR);
    clock.runFor(60_000);
    assertThat(byOperator.get().changed()).isTrue();
    assertThat(manager.status("dn1").quarantined()).as("its BMC just carried out a command").isFalse();
  }

  @Test
  void leavingTheActiveState_endsAnActionBeforeItsRetry_andRefusesNewRequests() throws Exception {
    ScriptedDriver dn1 = new ScriptedDriver("bmc1:623", clock);
    dn1.failCommandsWith = "BMC busy";
    PowerManager manager = manager(Map.of(), Map.of("dn1", dn1));

    CompletableFuture<PowerResult> on = manager.powerOn("dn1", Requester.AUTOMATIC);
    clock.runFor(6_000); // read at 0, the command fails at 5 s, the retry waits for the BMC's next slot at 10 s
    assertThat(dn1.calls).containsExactly("status", "on");
    active.set(false); // a failover: this NameNode is standby now
    clock.runFor(60_000);

    assertThatThrownBy(on::get).hasCauseInstanceOf(PowerRefusedException.class)
        .hasMessageContaining("on dn1 cancelled at attempt 2: this NameNode is no longer active");
    assertThat(dn1.calls).as("nothing after the failover").containsExactly("status", "on");
    assertThatThrownBy(() -> manager.powerOn("dn1", Requester.OPERATOR).get())
        .hasCauseInstanceOf(PowerRefusedException.class).hasMessageContaining("this NameNode is not active");
    assertThat(dn1.calls).hasSize(2);
  }

  @Test
  void powerOff_isRefusedUnlessTheHostViewAllowsIt_alsoWhenMaintenanceEndsBeforeTheCommand() throws Exception {
    ScriptedDriver dn1 = new ScriptedDriver("bmc1:623", clock);
    dn1.state = PowerState.ON;
    PowerManager manager = manager(Map.of(), Map.of("dn1", dn1));

    CompletableFuture<PowerResult> refused = manager.powerOff("dn1", false, Requester.OPERATOR);
    clock.runFor(10_000);
    assertThatThrownBy(refused::get).hasCauseInstanceOf(PowerRefusedException.class)
        .hasMessageContaining("refusing to power off dn1: not IN_MAINTENANCE");
    assertThat(dn1.calls).as("its state is read, no command sent").containsExactly("status");

    mayPowerOff.add("dn1");
    CompletableFuture<PowerResult> late = manager.powerOff("dn1", false, Requester.OPERATOR);
    mayPowerOff.remove("dn1"); // maintenance ends while the action waits for its BMC slot
    clock.runFor(60_000);
    assertThatThrownBy(late::get).hasCauseInstanceOf(PowerRefusedException.class);
    assertThat(dn1.calls).containsExactly("status", "status");
    assertThat(manager.status("dn1").consecutiveFailures()).as("a refusal is no failure").isZero();

    mayPowerOff.add("dn1");
    CompletableFuture<PowerResult> allowed = manager.powerOff("dn1", false, Requester.OPERATOR);
    clock.runFor(60_000);
    assertThat(allowed.get().state()).isEqualTo(PowerState.OFF);
    assertThat(dn1.calls).contains("graceful-off");
    assertThat(manager.metrics().poweredOff()).isEqualTo(1);
  }

  @Test
  void powerOff_hdfsDoesNotAllow_butTheHostIsOffAlready_succeedsWithNoCommand() throws Exception {
    ScriptedDriver dn1 = new ScriptedDriver("bmc1:623", clock);
    dn1.state = PowerState.OFF; // e.g. asleep since before a NameNode restart: its DataNode never registered since

    CompletableFuture<PowerResult> off = manager(Map.of(), Map.of("dn1", dn1)).powerOff("dn1", false,
        Requester.AUTOMATIC);
    clock.runFor(10_000);

    assertThat(off.get().state()).isEqualTo(PowerState.OFF);
    assertThat(off.get().changed()).isFalse();
    assertThat(dn1.calls).containsExactly("status");
  }

  @Test
  void unknownHost_isRefusedNamingTheInventoryHosts() {
    PowerManager manager = manager(Map.of(), Map.of("dn1", new ScriptedDriver("bmc1:623", clock)));
    assertThatThrownBy(() -> manager.powerOn("dn9", Requester.OPERATOR).get())
        .hasMessageContaining("host dn9 is not in the power inventory test-inventory (eafr.power.inventory.file);"
            + " its hosts are [dn1]");
  }

  @Test
  void metrics2Record_countsCommandsChangesFailuresAndNodesPerState() throws Exception {
    ScriptedDriver dn1 = new ScriptedDriver("bmc1:623", clock);
    ScriptedDriver dn2 = new ScriptedDriver("bmc2:623", clock);
    dn2.failCommandsWith = "connection refused";
    PowerManager manager = manager(Map.of("eafr.power.retries", "0"), Map.of("dn1", dn1, "dn2", dn2));
    manager.powerOn("dn1", Requester.AUTOMATIC);
    manager.powerOn("dn2", Requester.AUTOMATIC);
    clock.runFor(60_000);

    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    manager.metrics().getMetrics(collector, true);
    MetricsRecord record = collector.getRecords().get(0);
    Map<String, Number> values = new HashMap<>();
    for (AbstractMetric metric : record.metrics()) {
      values.put(metric.name(), metric.value());
    }
    assertThat(record.name()).isEqualTo("EafrPower");
    assertThat(values).containsEntry("CommandsTotal", 2L).containsEntry("PoweredOnTotal", 1L)
        .containsEntry("FailedAttemptsTotal", 1L).containsEntry("NodesOn", 1L)
        .containsEntry("NodesOff", 1L).containsEntry("NodesQuarantined", 0L)
        .containsEntry("ActionsInFlight", 0L);
    for (AbstractMetric metric : record.metrics()) {
      assertThat(metric.type()).as(metric.name())
          .isEqualTo(metric.name().endsWith("Total") ? MetricType.COUNTER : MetricType.GAUGE);
    }
    assertThat(List.of(manager.status("dn2").lastError())).containsExactly("connection refused");
  }

  @Test
  void close_failsTheActionsUnderWay() {
    ScriptedDriver dn1 = new ScriptedDriver("bmc1:623", clock);
    PowerManager manager = manager(Map.of(), Map.of("dn1", dn1));
    CompletableFuture<PowerResult> on = manager.powerOn("dn1", Requester.AUTOMATIC);
    clock.runFor(6_000); // state read and command sent, polling

    manager.close();

    assertThatThrownBy(on::get).hasMessageContaining("on dn1 stopped: the power manager was closed");
    assertThat(manager.status("dn1").inFlight()).isNull();
  }
}
