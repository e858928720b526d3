package org.eafr.namenode.power;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A BMC for one test: OpenIPMI's ipmi_sim on a free UDP port of 127.0.0.1, whose chassis_control script keeps the
 * host's power in a file and writes every {@code set power} it is told to a log the test reads. With {@link #stick}
 * the host accepts commands but never changes state (a board that does not power up). {@link #start} makes a host
 * that is off and rejects soft-off (ipmi_sim passes {@code chassis power soft} to the script as {@code set shutdown
 * 1}); {@link #startHostOn} one that is on and whose operating system powers the host off on that ACPI request.
 */
public final class IpmiSimBmc implements AutoCloseable {
  static final String USER = "ipmiusr";

  private final Path dir;
  private final int port;
  private final String password;
  private final boolean on;
  private final String userPrivilege;
  private Process process;

  private IpmiSimBmc(Path dir, int port, String password, boolean on, String userPrivilege) {
    this.dir = dir;
    this.port = port;
    this.password = password;
    this.on = on;
    this.userPrivilege = userPrivilege;
  }

  /** Starts a BMC whose user {@link #USER} has {@code password}, with the host off, and waits until it answers. */
  static IpmiSimBmc start(Path dir, String password) throws Exception {
    return start(dir, password, false, "admin");
  }

  /** As {@link #start}, but the BMC user's highest privilege level is OPERATOR (least privilege for power). */
  static IpmiSimBmc startWithOperatorUser(Path dir, String password) throws Exception {
    return start(dir, password, false, "operator");
  }

  /**
   * Starts a BMC (user {@link #USER}, {@code password}) in {@code dir} whose host is on and handles ACPI soft-off
   * (a host whose operating system shuts down and powers off), and waits until it answers.
   */
  public static IpmiSimBmc startHostOn(Path dir, String password) throws Exception {
    return start(dir, password, true, "admin");
  }

  private static IpmiSimBmc start(Path dir, String password, boolean on, String userPrivilege) throws Exception {
    IpmiSimBmc bmc = new IpmiSimBmc(dir, TestDirs.freeUdpPort(), password, on, userPrivilege);
    bmc.writeFiles();
    bmc.launch();
    return bmc;
  }

  private void writeFiles() throws IOException {
    Files.write(dir.resolve("power"), List.of(on ? "1" : "0"));
    Path script = dir.resolve("chassis-control.sh");
    Files.write(script, List.of("#!/bin/sh",
        "# ipmi_sim chassis_control: 'get power' prints power:0|1; 'set power 0|1' changes it",
        "# (the power file is replaced by a rename, so the host's poll never reads it half written)",
        "dir='" + dir + "'",
        "put() { echo \"$1\" > \"$dir/power.new\" && mv \"$dir/power.new\" \"$dir/power\"; }",
        "case \"$1 $2\" in",
        "  'get power') echo \"power:$(cat \"$dir/power\")\" ;;",
        "  'set power') echo \"set power $3\" >> \"$dir/told\"",
        "               [ -f \"$dir/stuck\" ] || put \"$3\" ;;",
        on ? "  'set shutdown') echo \"set shutdown $3\" >> \"$dir/told\"; put 0 ;;" : "",
        "  *) exit 1 ;;",
        "esac"), StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    Files.write(dir.resolve("lan.conf"), List.of("name \"dn\"", "set_working_mc 0x20", "  startlan 1",
        "    addr 127.0.0.1 " + port, "    priv_limit admin", "    guid a123456789abcdefa123456789abcdef",
        "  endlan", "  chassis_control \"" + script + "\"",
        "  user 2 true \"" + USER + "\" \"" + password + "\" " + userPrivilege + " 10 none md2 md5 straight"),
        StandardCharsets.UTF_8);
    Files.write(dir.resolve("sim.emu"), List.of("mc_setbmc 0x20",
        "mc_add 0x20 0 no-device-sdrs 0x23 9 8 0x9f 0x1291 0xf02 persist_sdr", "mc_enable 0x20"),
        StandardCharsets.UTF_8);
    Files.createDirectories(dir.resolve("state"));
  }

  private void launch() throws Exception {
    String ipmiSim = ExternalTools.require("ipmi_sim", "openipmi");
    String ipmitool = ExternalTools.require("ipmitool", "ipmitool");
    process = new ProcessBuilder(ipmiSim, "-c", dir.resolve("lan.conf").toString(), "-f",
        dir.resolve("sim.emu").toString(), "-s", dir.resolve("state").toString(), "-n")
        .redirectErrorStream(true).redirectOutput(dir.resolve("ipmi_sim.log").toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (System.nanoTime() < deadline) {
      ProcessBuilder probe = new ProcessBuilder(ipmitool, "-I", "lanplus", "-C", "3", "-N", "1", "-R", "1", "-H",
          "127.0.0.1", "-p", String.valueOf(port), "-U", USER, "-L", "OPERATOR", "-E", "chassis", "power", "status")
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
      probe.environment().putAll(Map.of("IPMI_PASSWORD", password));
      if (probe.start().waitFor() == 0) {
        return;
      }
      if (!process.isAlive()) {
        break;
      }
    }
    close();
    throw new IllegalStateException("ipmi_sim did not answer on 127.0.0.1:" + port + "; its log: "
        + Files.readString(dir.resolve("ipmi_sim.log")));
  }

  public int port() {
    return port;
  }

  /** Every {@code set power N} the BMC passed to the host, in order. */
  public List<String> told() throws IOException {
    Path told = dir.resolve("told");
    return Files.exists(told) ? Files.readAllLines(told) : List.of();
  }

  /** The host's power as the BMC sees it: 0 or 1. */
  public int power() throws IOException {
    return Integer.parseInt(Files.readString(dir.resolve("power")).trim());
  }

  /**
   * Rotates the BMC user's password as an operator would, through the BMC itself ({@code ipmitool user set password},
   * an ADMINISTRATOR session with the {@code current} password); from then on only {@code next} is accepted.
   */
  void rotatePassword(String current, String next) throws Exception {
    ProcessBuilder rotate = new ProcessBuilder(ExternalTools.require("ipmitool", "ipmitool"), "-I", "lanplus", "-C",
        "3", "-H", "127.0.0.1", "-p", String.valueOf(port), "-U", USER, "-L", "ADMINISTRATOR", "-E", "user", "set",
        "password", "2", next).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    rotate.environment().put("IPMI_PASSWORD", current);
    Process process = rotate.start();
    if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IllegalStateException("ipmitool user set password failed on 127.0.0.1:" + port);
    }
  }

  /** The host reaches power {@code power} (0 or 1) by itself: a slow boot or shutdown that ends late. */
  void reach(int power) throws IOException {
    Path next = dir.resolve("power.next");
    Files.write(next, List.of(String.valueOf(power)));
    Files.move(next, dir.resolve("power"), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  /** From now on the host accepts power commands but never changes state. */
  void stick() throws IOException {
    Files.write(dir.resolve("stuck"), List.of("stuck"));
  }

  @Override
  public void close() throws InterruptedException {
    if (process != null) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
