package org.eafr.namenode.power;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * Builds the driver of every host of an inventory at once (passwords read, tools found), or throws
 * {@link IllegalArgumentException} naming the entry, field, alias or tool that is wrong. The manager reloads its
 * inventory through it; {@code org.eafr.namenode.power.driver.PowerDrivers::build} is the one a NameNode uses.
 */
@FunctionalInterface
public interface DriverFactory {
  Map<String, PowerDriver> build(PowerInventory inventory, PowerSettings settings, Configuration conf,
      SleepRequests sleepRequests, HostView hosts);
}
