package org.eafr.namenode.power;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The power inventory's one-to-one rules, checked entry by entry as the file is read: each DataNode host once, and
 * each BMC endpoint (or Wake-on-LAN MAC) for one host only, so a command meant for one host can never switch another
 * one that was never checked. Names are compared {@link #normalHost normalised}: {@code DN1.example.com.},
 * {@code dn1.example.com} and its address are one host; a whole-host entry and a {@code HOST:PORT} entry on the same
 * host conflict too.
 *
 * <p>Example: {@code dn1} (ipmi 10.0.1.11:623) and {@code DN1.} are one host; {@code dn2} (ipmi 10.0.1.11:623) shares
 * dn1's BMC; {@code dn3} (redfish bmc:443, system /redfish/v1/Systems/1) and {@code dn4} (redfish bmc:443, system
 * /redfish/v1/Systems/2) are two systems of one BMC and are allowed, while a third entry on bmc:443 without
 * {@code system} (the BMC's only system) is refused.
 */
final class InventoryConflicts {
  private final Map<String, Integer> hosts = new HashMap<>();
  private final Map<String, Integer> wholeHosts = new HashMap<>();
  private final Map<String, Integer> hostsWithPort = new HashMap<>();
  private final Map<String, Integer> endpoints = new HashMap<>();
  private final Map<String, Integer> redfishSystems = new HashMap<>();
  private final Map<String, Integer> macs = new HashMap<>();

  /** Records entry {@code index}; throws naming the earlier entry when it conflicts with one. */
  void check(InventoryEntry entry, int index, Failures failures) {
    checkHost(entry, index, failures);
    switch (entry.driver()) {
      case IPMI:
        claim(endpoints, normalHost(entry.address()) + ":" + entry.port(), index, failures, "address",
            entry.address() + ":" + entry.port(), "one host per BMC endpoint");
        break;
      case REDFISH:
        checkRedfish(entry, index, failures);
        break;
      case WOL:
        claim(macs, entry.macText(), index, failures, "mac", entry.macText(), "one host per MAC address");
        break;
      default:
        break;
    }
  }

  private void checkHost(InventoryEntry entry, int index, Failures failures) {
    String host = entry.host();
    int colon = host.lastIndexOf(':');
    String name = normalHost(colon < 0 ? host : host.substring(0, colon));
    String key = colon < 0 ? name : name + host.substring(colon);
    claim(hosts, key, index, failures, "host", host, "each host once");
    if (colon < 0) {
      claim(wholeHosts, name, index, failures, "host", host, "each host once");
      Integer withPort = hostsWithPort.get(name);
      if (withPort != null) {
        throw failures.invalid("host", host, "each host once; entry " + (withPort + 1) + " names a DataNode on it"
            + " by HOST:PORT");
      }
    } else {
      hostsWithPort.putIfAbsent(name, index);
      Integer whole = wholeHosts.get(name);
      if (whole != null) {
        throw failures.invalid("host", host, "each host once; entry " + (whole + 1) + " switches the whole host");
      }
    }
  }

  /** Several systems behind one BMC are allowed when each entry names its own; an entry without one takes the BMC. */
  private void checkRedfish(InventoryEntry entry, int index, Failures failures) {
    String endpoint = normalHost(entry.address()) + ":" + entry.port();
    String shown = entry.address() + ":" + entry.port();
    if (entry.system() == null) {
      claim(endpoints, endpoint, index, failures, "address", shown, "one host per BMC endpoint");
      Integer system = redfishSystems.get(endpoint);
      if (system != null) {
        throw failures.invalid("address", shown, "one host per BMC endpoint, or a \"system\" in each entry on it;"
            + " entry " + (system + 1) + " already switches a system of it");
      }
      return;
    }
    Integer whole = endpoints.get(endpoint);
    if (whole != null) {
      throw failures.invalid("address", shown, "one host per BMC endpoint; entry " + (whole + 1)
          + " already switches the BMC's only system");
    }
    redfishSystems.putIfAbsent(endpoint, index);
    claim(endpoints, endpoint + entry.system().toLowerCase(Locale.ROOT), index, failures, "system",
        entry.system(), "one host per system of a BMC");
  }

  private static void claim(Map<String, Integer> claimed, String key, int index, Failures failures, String field,
      String value, String rule) {
    Integer before = claimed.putIfAbsent(key, index);
    if (before != null && before != index) {
      throw failures.invalid(field, value, rule + "; entry " + (before + 1) + " already names it");
    }
  }

  /**
   * A host name as the duplicate checks compare it: lower case, without a trailing dot, and its IP address where it
   * resolves (so a name and its address are one host); an unresolvable name stays a name.
   */
  static String normalHost(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    String host = lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;
    try {
      return InetAddress.getByName(host).getHostAddress();
    } catch (UnknownHostException | SecurityException e) {
      return host;
    }
  }

  /** Builds the error for a field of the entry being read. */
  interface Failures {
    IllegalArgumentException invalid(String field, String value, String allowed);
  }
}
