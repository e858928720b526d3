package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.eafr.namenode.power.PowerTestSupport.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.junit.jupiter.api.Test;

/**
 * The ipmi driver against a real BMC: OpenIPMI's ipmi_sim driven by the real ipmitool over lanplus, with the password
 * from a CredentialProvider store. Each test starts its own BMC on a free port and stops it. Every log line and every
 * exception message of these tests is checked for the password.
 */
class IpmiPowerTest {
  private static final String PASSWORD = "Bmc-pw-7f3a9c";
  private static final String WRONG_PASSWORD = "Wrong-pw-51d2e";

  private final List<String> messages = new ArrayList<>();

  private PowerManager manager(Path dir, int port, String storedPassword, Configuration extra) throws Exception {
    Configuration conf = PowerTestSupport.fastConf(dir, "{\"nodes\": [{\"host\": \"dn1\", \"driver\": \"ipmi\","
        + " \"address\": \"127.0.0.1\", \"port\": " + port + ", \"user\": \"" + IpmiSimBmc.USER + "\","
        + " \"credential\": \"eafr.bmc.dn1\", \"cipher-suite\": 3}]}");
    if (extra != null) {
      extra.forEach(entry -> conf.set(entry.getKey(), entry.getValue()));
    }
    TestCredentials.store(conf, dir, "eafr.bmc.dn1", storedPassword);
    return PowerDrivers.startManager(conf, PowerTestSupport.ANY_HOST_MAY_POWER_OFF, 2);
  }

  /** Runs {@code action} and returns its failure, remembering the message for the password check. */
  private Exception failure(PowerManager manager, java.util.concurrent.CompletableFuture<?> action) {
    try {
      await(action);
    } catch (Exception e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        messages.add(String.valueOf(t.getMessage()));
      }
      return e;
    }
    throw new AssertionError("expected a failure");
  }

  private void assertNoPassword(LogCapture log) {
    assertThat(log.text()).doesNotContain(PASSWORD).doesNotContain(WRONG_PASSWORD).contains("EAFR power");
    assertThat(messages).isNotEmpty().allSatisfy(message -> assertThat(message).doesNotContain(PASSWORD)
        .doesNotContain(WRONG_PASSWORD));
  }

  @Test
  void onStatusOff_reachTheBmc_withThePasswordInTheEnvironmentOnly() throws Exception {
    Path dir = TestDirs.create("ipmi-on-off");
    Path argsSeen = dir.resolve("ipmitool-args");
    Path wrapper = dir.resolve("ipmitool-wrapper.sh");
    Path variablesSeen = dir.resolve("ipmitool-environment");
    Files.write(wrapper, List.of("#!/bin/sh", "echo \"$* | env:${IPMI_PASSWORD:+set}\" >> '" + argsSeen + "'",
        "echo $(env | cut -d= -f1 | sort) >> '" + variablesSeen + "'",
        "exec '" + ExternalTools.require("ipmitool", "ipmitool") + "' \"$@\""), StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwx------"));
    Configuration extra = new Configuration(false);
    extra.set(PowerSettings.IPMITOOL_KEY, wrapper.toString());
    try (LogCapture log = new LogCapture(); IpmiSimBmc bmc = IpmiSimBmc.start(dir, PASSWORD);
        PowerManager manager = manager(dir, bmc.port(), PASSWORD, extra)) {
      assertThat(await(manager.readState("dn1"))).isEqualTo(PowerState.OFF);

      PowerResult on = await(manager.powerOn("dn1", Requester.OPERATOR));
      assertThat(on.changed()).isTrue();
      assertThat(bmc.told()).containsExactly("set power 1");
      assertThat(await(manager.readState("dn1"))).isEqualTo(PowerState.ON);

      PowerResult off = await(manager.powerOff("dn1", true, Requester.OPERATOR));
      assertThat(off.state()).isEqualTo(PowerState.OFF);
      assertThat(bmc.told()).containsExactly("set power 1", "set power 0");
      assertThat(bmc.power()).isZero();

      List<String> invocations = Files.readAllLines(argsSeen);
      assertThat(invocations).contains("-I lanplus -C 3 -H 127.0.0.1 -p " + bmc.port() + " -U ipmiusr -L OPERATOR"
          + " -E chassis power on | env:set");
      assertThat(Files.readAllLines(variablesSeen)).as("ipmitool's environment: PATH, LANG and its password only"
          + " (the shell adds PWD)").isNotEmpty().allSatisfy(line -> assertThat(line.split(" "))
          .contains("IPMI_PASSWORD").isSubsetOf("IPMI_PASSWORD", "LANG", "PATH", "PWD"));
      assertThat(invocations).allSatisfy(line -> assertThat(line).doesNotContain(PASSWORD).endsWith("env:set"));
      assertThat(manager.metrics().poweredOn()).isEqualTo(1);
      assertThat(manager.metrics().poweredOff()).isEqualTo(1);

      // ipmi_sim's chassis control knows no soft-off: a command the BMC rejects, retried, then quarantine
      await(manager.powerOn("dn1", Requester.OPERATOR));
      Exception soft = failure(manager, manager.powerOff("dn1", false, Requester.OPERATOR));
      assertThat(soft).hasMessageContaining("ipmitool chassis power soft to BMC 127.0.0.1:" + bmc.port()
          + " as ipmiusr failed (exit 1): ");
      assertNoPassword(log);
    }
  }

  @Test
  void privilegeLevel_operatorByDefault_switchesTheHost_userLevelCannot() throws Exception {
    Path dir = TestDirs.create("ipmi-privilege");
    try (LogCapture log = new LogCapture(); IpmiSimBmc bmc = IpmiSimBmc.startWithOperatorUser(dir, PASSWORD)) {
      try (PowerManager manager = manager(dir, bmc.port(), PASSWORD, null)) {
        assertThat(await(manager.powerOn("dn1", Requester.OPERATOR)).state()).isEqualTo(PowerState.ON);
        assertThat(bmc.told()).containsExactly("set power 1");
      }
      Configuration conf = PowerTestSupport.fastConf(dir, "{\"nodes\": [{\"host\": \"dn1\", \"driver\": \"ipmi\","
          + " \"address\": \"127.0.0.1\", \"port\": " + bmc.port() + ", \"user\": \"" + IpmiSimBmc.USER + "\","
          + " \"credential\": \"eafr.bmc.dn1\", \"cipher-suite\": 3, \"privilege\": \"USER\"}]}");
      TestCredentials.store(conf, dir, "eafr.bmc.dn1", PASSWORD);
      try (PowerManager manager = PowerDrivers.startManager(conf, PowerTestSupport.ANY_HOST_MAY_POWER_OFF, 2)) {
        assertThat(await(manager.readState("dn1"))).as("USER may read the state").isEqualTo(PowerState.ON);
        Exception e = failure(manager, manager.powerOff("dn1", true, Requester.OPERATOR));
        assertThat(e).hasMessageContaining("ipmitool chassis power off to BMC 127.0.0.1:" + bmc.port()
            + " as ipmiusr failed (exit 1)");
        assertThat(bmc.told()).containsExactly("set power 1");
      }
      assertNoPassword(log);
    }
  }

  @Test
  void wrongPassword_failsEachAttempt_quarantinesTheNode_andNeverShowsEitherPassword() throws Exception {
    Path dir = TestDirs.create("ipmi-wrong-password");
    try (LogCapture log = new LogCapture(); IpmiSimBmc bmc = IpmiSimBmc.start(dir, PASSWORD);
        PowerManager manager = manager(dir, bmc.port(), WRONG_PASSWORD, null)) {
      Exception e = failure(manager, manager.powerOn("dn1", Requester.AUTOMATIC));

      assertThat(e).hasMessageContaining("on dn1 through ipmi 127.0.0.1:" + bmc.port() + " failed after 2 attempts"
          + " (node quarantined)").hasMessageContaining("ipmitool chassis power status to BMC 127.0.0.1:"
          + bmc.port() + " as ipmiusr failed (exit 1): ");
      assertThat(bmc.told()).isEmpty();
      assertThat(manager.status("dn1").quarantined()).isTrue();
      assertThat(log.text()).contains("ERROR PowerManager - EAFR power: node dn1 quarantined after 2 consecutive"
          + " failed attempts: driver ipmi (127.0.0.1:" + bmc.port() + "), command on, error: ipmitool chassis"
          + " power status to BMC 127.0.0.1:" + bmc.port() + " as ipmiusr failed (exit 1)");
      Exception refused = failure(manager, manager.powerOn("dn1", Requester.AUTOMATIC));
      assertThat(refused).isInstanceOf(PowerRefusedException.class).hasMessageContaining("quarantined");
      assertNoPassword(log);
    }
  }

  @Test
  void bmcDown_failsWithinTheCommandTimeout() throws Exception {
    Path dir = TestDirs.create("ipmi-down");
    int port;
    try (IpmiSimBmc bmc = IpmiSimBmc.start(dir, PASSWORD)) {
      port = bmc.port();
    } // stopped: nothing answers on its port any more
    try (LogCapture log = new LogCapture(); PowerManager manager = manager(dir, port, PASSWORD, null)) {
      long start = System.nanoTime();
      Exception e = failure(manager, manager.powerOn("dn1", Requester.AUTOMATIC));
      long millis = (System.nanoTime() - start) / 1_000_000;

      assertThat(e).hasMessageContaining("failed after 2 attempts (node quarantined)")
          .hasMessageContaining("ipmitool chassis power status to BMC 127.0.0.1:" + port + " as ipmiusr");
      assertThat(millis).as("two attempts, each bounded by the 3 s command timeout").isLessThan(10_000);
      assertNoPassword(log);
    }
  }

  @Test
  void hostNeverReachingTheState_timesOut_isRetried_thenQuarantined() throws Exception {
    Path dir = TestDirs.create("ipmi-stuck");
    try (LogCapture log = new LogCapture(); IpmiSimBmc bmc = IpmiSimBmc.start(dir, PASSWORD);
        PowerManager manager = manager(dir, bmc.port(), PASSWORD, null)) {
      bmc.stick();
      Exception e = failure(manager, manager.powerOn("dn1", Requester.AUTOMATIC));

      assertThat(e).hasMessageContaining("dn1 did not reach ON within 2000 ms (eafr.power.state-timeout.ms) after"
          + " on; last state OFF").hasMessageContaining("(node quarantined)");
      assertThat(bmc.told()).containsExactly("set power 1", "set power 1");
      assertThat(log.text().lines().filter(line -> line.startsWith("ERROR"))).hasSize(1);
      assertThat(manager.metrics().quarantines()).isEqualTo(1);
      assertNoPassword(log);
    }
  }
}
