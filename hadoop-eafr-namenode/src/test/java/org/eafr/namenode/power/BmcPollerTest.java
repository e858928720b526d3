package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.junit.jupiter.api.Test;

/**
 * The BMC poller on a manual clock with scripted drivers (the drivers' readings are tested against real BMCs and
 * fixtures elsewhere). Worked example: poll interval 60 s, 5 s between two calls to one BMC; dn1's BMC measures
 * 212 W, dn2's has no meter. The state is read at 60 s and the reading 5 s later (the next call the BMC's spacing
 * allows); dn2's "not offered" is remembered, so at 120 s it gets a state read only. An action started at 118 s
 * runs exactly as without the poller (status 118, on 123, status 128, 133), and dn1's next poll waits until the
 * action is done and its BMC has been idle 5 s (state at 140 s, reading at 145 s).
 */
class BmcPollerTest {
  private final ManualScheduler clock = new ManualScheduler();
  private final AtomicBoolean active = new AtomicBoolean(true);
  private final HostView hosts = new HostView() {
    @Override
    public boolean active() {
      return active.get();
    }

    @Override
    public void checkMayPowerOff(InventoryEntry entry) {
    }

    @Override
    public PowerState heartbeatState(InventoryEntry entry) {
      return PowerState.UNKNOWN;
    }
  };

  private PowerManager manager(Map<String, ScriptedDriver> drivers) {
    PowerManager manager = new PowerManager(PowerSettings.from(Map.of("eafr.power.bmc-poll.interval.ms", "60000")::get),
        new Configuration(false), hosts, new SleepRequests(), clock, PowerDrivers::build);
    StringBuilder json = new StringBuilder("{\"nodes\": [");
    int entries = 0;
    for (String host : drivers.keySet()) {
      json.append(entries++ > 0 ? "," : "").append("{\"host\": \"").append(host)
          .append("\", \"driver\": \"command\", \"script\": \"/bin/true\"}");
    }
    manager.install(PowerInventory.parse("test-inventory", json.append("]}").toString()), new HashMap<>(drivers));
    return manager;
  }

  private BmcPoller poller(PowerManager manager) {
    BmcPoller poller = new BmcPoller(manager, manager.settings().bmcPollIntervalMillis(), clock);
    poller.begin();
    return poller;
  }

  private static List<String> timed(ScriptedDriver driver, long start) {
    return java.util.stream.IntStream.range(0, driver.calls.size())
        .mapToObj(i -> driver.calls.get(i) + "@" + (driver.callTimes.get(i) - start) / 1000)
        .collect(Collectors.toList());
  }

  @Test
  void workedExample_stateThenReading_notOfferedRemembered_actionsFirst() throws Exception {
    ScriptedDriver dn1 = new ScriptedDriver("bmc1:623", clock);
    dn1.reading = PowerReading.watts(212);
    dn1.state = PowerState.OFF;
    ScriptedDriver dn2 = new ScriptedDriver("bmc2:623", clock);
    PowerManager manager = manager(Map.of("dn1", dn1, "dn2", dn2));
    long start = clock.nowMillis();
    poller(manager);

    clock.runFor(66_000);
    assertThat(manager.status("dn1").lastKnown()).isEqualTo(PowerState.OFF);
    assertThat(manager.status("dn1").lastReadMillis()).isEqualTo(start + 60_000);
    assertThat(manager.measured().watts("dn1", PowerState.OFF)).isEqualTo(OptionalDouble.of(212));
    assertThat(manager.measured().watts("dn1", PowerState.ON)).as("read while OFF").isEmpty();
    assertThat(manager.measured().noReading("dn2")).isEqualTo("not offered: scripted has no power meter");

    clock.runFor(118_000 - 66_000);
    CompletableFuture<PowerResult> on = manager.powerOn("dn1", Requester.OPERATOR);
    clock.runFor(150_000 - 118_000);

    assertThat(on).isCompleted();
    assertThat(timed(dn1, start)).containsExactly("status@60", "reading@65", "status@118", "on@123", "status@128",
        "status@133", "status@140", "reading@145");
    assertThat(timed(dn2, start)).containsExactly("status@60", "reading@65", "status@120");
    assertThat(manager.measured().watts("dn1", PowerState.ON)).isEqualTo(OptionalDouble.of(212));
    assertThat(manager.metrics().counters()).containsEntry("PowerMeasurements", 2L)
        .containsEntry("PowerPollErrors", 0L);
  }

  @Test
  void failedPolls_areCounted_neverQuarantine_andAStandbyPollsNothing() throws Exception {
    ScriptedDriver dn1 = new ScriptedDriver("bmc1:623", clock);
    dn1.failReadsWith = "BMC unreachable";
    PowerManager manager = manager(Map.of("dn1", dn1));
    poller(manager);

    clock.runFor(60_000 * 5);

    assertThat(manager.metrics().counters().get("PowerPollErrors")).isEqualTo(5L);
    assertThat(manager.measured().lastPollError("dn1")).isEqualTo("BMC unreachable");
    assertThat(manager.status("dn1").quarantined()).isFalse();
    assertThat(manager.status("dn1").consecutiveFailures()).isZero();

    active.set(false);
    int calls = dn1.calls.size();
    clock.runFor(60_000 * 5);
    assertThat(dn1.calls).hasSize(calls);
  }

  @Test
  void wakeOnLanHosts_areNotPolled() throws Exception {
    ScriptedDriver dn1 = new ScriptedDriver("wol", "255.255.255.255:9", clock);
    PowerManager manager = new PowerManager(PowerSettings.from(Map.of("eafr.power.bmc-poll.interval.ms", "60000")::get),
        new Configuration(false), hosts, new SleepRequests(), clock, PowerDrivers::build);
    manager.install(PowerInventory.parse("test-inventory", "{\"nodes\": [{\"host\": \"dn1\", \"driver\": \"wol\","
        + " \"mac\": \"00:11:22:33:44:55\"}]}"), new HashMap<>(Map.of("dn1", dn1)));
    poller(manager);

    clock.runFor(60_000 * 3);

    assertThat(dn1.calls).isEmpty();
  }

  @Test
  void aReadingGoesStale_afterThreeIntervalsWithoutANewOne() throws Exception {
    ScriptedDriver dn1 = new ScriptedDriver("bmc1:623", clock);
    dn1.reading = PowerReading.watts(150);
    PowerManager manager = manager(Map.of("dn1", dn1));
    poller(manager);
    clock.runFor(66_000);
    assertThat(manager.measured().watts("dn1", PowerState.OFF)).isEqualTo(OptionalDouble.of(150));

    active.set(false); // no further polls: the reading taken at 65 s counts until 65 + 180 s
    clock.runFor(245_000 - 66_000);
    assertThat(manager.measured().watts("dn1", PowerState.OFF)).isEqualTo(OptionalDouble.of(150));
    clock.runFor(1_000);
    assertThat(manager.measured().watts("dn1", PowerState.OFF)).isEmpty();
  }
}
