package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.eafr.namenode.power.PowerTestSupport.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.junit.jupiter.api.Test;

/**
 * The command driver with a real operator script ({@code SCRIPT on|off|force-off|status HOST}): what it is told, a
 * script that fails, and one that hangs past the command timeout and is killed.
 */
class CommandPowerTest {

  /** A script keeping the host's power in a file and logging each call; {@code extra} runs first. */
  static Path script(Path dir, String... extra) throws Exception {
    Path script = dir.resolve("power.sh");
    List<String> lines = new java.util.ArrayList<>(List.of("#!/bin/sh", "dir='" + dir + "'",
        "echo \"$1 $2\" >> \"$dir/calls\""));
    lines.addAll(List.of(extra));
    lines.addAll(List.of("[ -f \"$dir/state\" ] || echo off > \"$dir/state\"",
        "case \"$1\" in",
        "  on) echo on > \"$dir/state\" ;;",
        "  off|force-off) echo off > \"$dir/state\" ;;",
        "  status) cat \"$dir/state\" ;;",
        "  *) echo \"usage: $0 on|off|force-off|status HOST\" >&2; exit 2 ;;",
        "esac"));
    Files.write(script, lines, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script;
  }

  private static PowerManager manager(Path dir, Path script) throws Exception {
    Configuration conf = PowerTestSupport.fastConf(dir, "{\"nodes\": [{\"host\": \"dn6\", \"driver\": \"command\","
        + " \"script\": \"" + script + "\"}]}");
    return PowerDrivers.startManager(conf, PowerTestSupport.ANY_HOST_MAY_POWER_OFF, 2);
  }

  @Test
  void script_isToldOnOffAndForceOff_andReportsTheState() throws Exception {
    Path dir = TestDirs.create("command");
    try (PowerManager manager = manager(dir, script(dir))) {
      await(manager.powerOn("dn6", Requester.OPERATOR));
      await(manager.powerOff("dn6", false, Requester.OPERATOR));
      await(manager.powerOn("dn6", Requester.OPERATOR));
      await(manager.powerOff("dn6", true, Requester.OPERATOR));

      assertThat(Files.readAllLines(dir.resolve("calls")).stream().filter(call -> !call.startsWith("status")))
          .containsExactly("on dn6", "off dn6", "on dn6", "force-off dn6");
      assertThat(await(manager.readState("dn6"))).isEqualTo(PowerState.OFF);
    }
  }

  @Test
  void failingScript_andHangingScript_failTheAttempt_withinTheCommandTimeout() throws Exception {
    Path dir = TestDirs.create("command-fail");
    try (PowerManager manager = manager(dir, script(dir,
        "[ \"$1\" = on ] && { echo 'PDU outlet 7: access denied' >&2; exit 3; }"))) {
      assertThatThrownBy(() -> await(manager.powerOn("dn6", Requester.AUTOMATIC)))
          .hasMessageContaining("power script " + dir.resolve("power.sh") + " on dn6 failed (exit 3): PDU outlet 7:"
              + " access denied");
    }
    Path hanging = TestDirs.create("command-hang");
    try (PowerManager manager = manager(hanging, script(hanging, "[ \"$1\" = status ] && exec sleep 30"))) {
      long start = System.nanoTime();
      assertThatThrownBy(() -> await(manager.readState("dn6")))
          .hasMessageContaining("status dn6 did not finish within 3000 ms (eafr.power.command-timeout.ms) and was"
              + " killed");
      assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(10_000);
    }
  }
}
