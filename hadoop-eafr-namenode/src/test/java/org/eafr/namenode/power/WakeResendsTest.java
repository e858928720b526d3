package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.conf.Configuration;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.junit.jupiter.api.Test;

/**
 * The manager's Wake-on-LAN resends on a manual clock, the worked example of {@link WakeResends}: interval 5 s, polls
 * after 1, 2, 4, 8 s: packets at 0, 5, 10, 15 s and polls at 1, 3, 5, 10, 15 s while the host stays off; none once it
 * is on; an IPMI-like driver's command is never resent.
 */
class WakeResendsTest {
  private final ManualScheduler clock = new ManualScheduler();

  private PowerManager manager(ScriptedDriver driver) {
    Map<String, String> keys = Map.of("eafr.power.min-command-interval.ms", "0", "eafr.power.poll.initial.ms", "1000",
        "eafr.power.poll.max.ms", "10000", "eafr.power.state-timeout.ms", "60000",
        PowerSettings.WOL_RESEND_INTERVAL_MS.key(), "5000");
    PowerManager manager = new PowerManager(PowerSettings.from(keys::get), new Configuration(false),
        PowerTestSupport.ANY_HOST_MAY_POWER_OFF, new SleepRequests(), clock, PowerDrivers::build);
    manager.install(PowerInventory.parse("test-inventory", "{\"nodes\": [{\"host\": \"dn5\", \"driver\": \"wol\","
        + " \"mac\": \"00:11:22:33:44:55\"}]}"), new HashMap<>(Map.of("dn5", driver)));
    return manager;
  }

  private final long start = clock.nowMillis();

  /** When {@code driver} got {@code call}, in milliseconds since the test began. */
  private List<Long> times(ScriptedDriver driver, String call) {
    List<Long> times = new ArrayList<>();
    for (int i = 0; i < driver.calls.size(); i++) {
      if (driver.calls.get(i).equals(call)) {
        times.add(driver.callTimes.get(i) - start);
      }
    }
    return times;
  }

  @Test
  void wakeNotAnswered_isResentEveryInterval_andPolledAsOften() {
    ScriptedDriver wol = new ScriptedDriver("wol", "255.255.255.255:9", clock);
    wol.neverReaches = true;
    CompletableFuture<PowerResult> on = manager(wol).powerOn("dn5", Requester.AUTOMATIC);
    clock.runFor(16_000);

    assertThat(times(wol, "on")).containsExactly(0L, 5_000L, 10_000L, 15_000L);
    assertThat(times(wol, "status")).containsExactly(0L, 1_000L, 3_000L, 5_000L, 10_000L, 15_000L);
    assertThat(on).isNotDone();

    wol.state = PowerState.ON; // the host booted from the last packet
    clock.runFor(5_000);
    assertThat(on).isCompleted();
    assertThat(times(wol, "on")).as("no packet once the host is on").hasSize(4);
  }

  @Test
  void bmcCommands_areNeverResent() {
    ScriptedDriver bmc = new ScriptedDriver("ipmi", "bmc1:623", clock);
    bmc.neverReaches = true;
    manager(bmc).powerOn("dn5", Requester.AUTOMATIC);
    clock.runFor(16_000);

    assertThat(times(bmc, "on")).containsExactly(0L);
  }
}
