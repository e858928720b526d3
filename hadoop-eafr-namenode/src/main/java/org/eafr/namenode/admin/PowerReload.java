package org.eafr.namenode.admin;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.eafr.namenode.config.DataNodeName;
import org.eafr.namenode.gear.GearRecord;
import org.eafr.namenode.power.InventoryEntry;
import org.eafr.namenode.power.PowerInventory;
import org.eafr.namenode.power.PowerManager;
import org.eafr.namenode.runtime.EafrRuntime;

/**
 * {@code hdfs eafr power reload}: re-reads {@code eafr.power.inventory.file} and the BMC passwords from the
 * CredentialProvider, checks all of it as at NameNode start, and puts it in force only if all of it is good and it
 * strands no host the gears put to sleep or that is switching ({@link PowerManager#reload}); otherwise refused, naming
 * the entry, field, alias or host, with the inventory in force unchanged.
 */
final class PowerReload {
  private PowerReload() {
  }

  static String reload(EafrRuntime runtime, boolean json) {
    PowerManager power = GearCommands.powerManager(runtime);
    PowerInventory before = power.inventory();
    PowerInventory next;
    try {
      next = power.reload(sleepingHosts(runtime, before));
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new IllegalArgumentException("power reload refused: " + e.getMessage() + "; the power inventory in force"
          + " (" + before.source() + ", " + before.entries().size() + " hosts) is unchanged", e);
    }
    Map<String, Integer> drivers = new TreeMap<>();
    next.entries().values().forEach(entry -> drivers.merge(entry.driver().label(), 1, Integer::sum));
    if (json) {
      Map<String, Object> answer = new LinkedHashMap<>();
      answer.put("inventoryFile", next.source());
      answer.put("hosts", next.entries().size());
      answer.put("drivers", drivers);
      return ClusterReport.json(answer);
    }
    return "EAFR power inventory reloaded from " + next.source() + ": " + next.entries().size() + " hosts " + drivers
        + ", passwords read again; actions under way finish with the drivers they started with";
  }

  /** The inventory hosts of the DataNodes the gear state records asleep (entries as in {@code inventory}). */
  private static Set<String> sleepingHosts(EafrRuntime runtime, PowerInventory inventory) {
    GearRecord state = runtime.gears().state();
    Set<String> hosts = new HashSet<>();
    for (String id : state.sleeping()) {
      int colon = id.lastIndexOf(':');
      String ip = id.substring(0, colon);
      String host = state.chain().stream().filter(entry -> entry.id().equals(id)).map(GearRecord.ChainEntry::host)
          .filter(name -> !name.isEmpty()).findFirst().orElse(ip);
      InventoryEntry entry = inventory.entryFor(new DataNodeName(ip, host, Integer.parseInt(id.substring(colon + 1))));
      if (entry != null) {
        hosts.add(entry.host());
      }
    }
    return hosts;
  }
}
