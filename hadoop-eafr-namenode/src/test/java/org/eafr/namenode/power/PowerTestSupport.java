package org.eafr.namenode.power;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.eafr.namenode.power.driver.PowerDrivers;

/** Shared pieces of the power tests over real BMCs: fast settings, a permissive host view, waiting for a result. */
public final class PowerTestSupport {
  /** A host view that lets every host be powered off (the maintenance check has its own MiniDFSCluster test). */
  public static final HostView ANY_HOST_MAY_POWER_OFF = new HostView() {
    @Override
    public boolean active() {
      return true;
    }

    @Override
    public void checkMayPowerOff(InventoryEntry entry) {
    }

    @Override
    public PowerState heartbeatState(InventoryEntry entry) {
      return PowerState.UNKNOWN;
    }
  };

  private PowerTestSupport() {
  }

  /** Settings for BMCs on this machine: short intervals and timeouts, one retry, quarantine after two failures. */
  static Configuration fastConf(Path dir, String inventoryJson) throws IOException {
    Path inventory = dir.resolve("power-inventory.json");
    Files.write(inventory, inventoryJson.getBytes(StandardCharsets.UTF_8));
    Configuration conf = new Configuration(false);
    conf.set(PowerSettings.INVENTORY_FILE_KEY, inventory.toString());
    conf.set("eafr.power.min-command-interval.ms", "50");
    conf.set("eafr.power.poll.initial.ms", "100");
    conf.set("eafr.power.poll.max.ms", "400");
    conf.set("eafr.power.state-timeout.ms", "2000");
    conf.set("eafr.power.command-timeout.ms", "3000");
    conf.set("eafr.power.retries", "1");
    conf.set("eafr.power.quarantine-after", "2");
    return conf;
  }

  /** The result of {@code action}, or its failure's message, waiting at most a minute. */
  static <T> T await(CompletableFuture<T> action) throws Exception {
    try {
      return action.get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception) {
        throw (Exception) e.getCause();
      }
      throw e;
    }
  }

  /**
   * A manager over one host of the {@code command} driver whose script is {@code scriptLines} (written to {@code dir}),
   * with {@code settings} (eafr.power.* keys) over fast defaults, behind {@link #ANY_HOST_MAY_POWER_OFF}.
   */
  public static PowerManager scriptedManager(Path dir, String host, java.util.List<String> scriptLines,
      java.util.Map<String, String> settings) throws IOException {
    Path script = dir.resolve("power-script.sh");
    Files.write(script, scriptLines, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(script, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
    Configuration conf = fastConf(dir, "{\"nodes\": [{\"host\": \"" + host + "\", \"driver\": \"command\","
        + " \"script\": \"" + script + "\"}]}");
    settings.forEach(conf::set);
    return PowerDrivers.startManager(conf, ANY_HOST_MAY_POWER_OFF, 1);
  }
}
