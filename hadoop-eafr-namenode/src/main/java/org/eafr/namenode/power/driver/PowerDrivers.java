package org.eafr.namenode.power.driver;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.hadoop.conf.Configuration;
import org.eafr.namenode.power.DriverFactory;
import org.eafr.namenode.power.DriverKind;
import org.eafr.namenode.power.HostView;
import org.eafr.namenode.power.InventoryEntry;
import org.eafr.namenode.power.PowerDriver;
import org.eafr.namenode.power.PowerInventory;
import org.eafr.namenode.power.PowerManager;
import org.eafr.namenode.power.PowerSettings;
import org.eafr.namenode.power.SleepRequests;

/**
 * Builds the driver of every inventory entry at once, reading each BMC password from the CredentialProvider and
 * finding each driver's tool, so a missing alias, an unreadable truststore or a missing ipmitool is found when the
 * inventory is loaded, not when a host must wake. {@link #checkConfigured} does the same at NameNode start, where a
 * failure stops the NameNode as a bad {@code eafr.*} value does.
 */
public final class PowerDrivers {
  private PowerDrivers() {
  }

  /**
   * Reads the inventory named by {@code eafr.power.inventory.file} in {@code conf} (when set) and builds every driver
   * of it, then drops them: throws {@link IllegalArgumentException} naming the file, the entry and the field (or the
   * credential alias, the tool) when anything is wrong. Called where the NameNode's EAFR state is first built.
   */
  public static void checkConfigured(Configuration conf) {
    PowerSettings settings = PowerSettings.from(conf::get);
    if (!settings.inventoryFile().isEmpty()) {
      build(PowerInventory.read(Paths.get(settings.inventoryFile())), settings, conf, new SleepRequests(), null);
    }
  }

  /**
   * A {@link PowerManager} over the inventory named by {@code eafr.power.inventory.file} in {@code conf}, with these
   * drivers: {@link PowerManager#start(Configuration, HostView, SleepRequests, int, DriverFactory)}.
   */
  public static PowerManager startManager(Configuration conf, HostView hosts, SleepRequests sleepRequests,
      int threads) {
    return PowerManager.start(conf, hosts, sleepRequests, threads, PowerDrivers::build);
  }

  /** As {@link #startManager(Configuration, HostView, SleepRequests, int)} with sleep requests of its own. */
  public static PowerManager startManager(Configuration conf, HostView hosts, int threads) {
    return startManager(conf, hosts, new SleepRequests(), threads);
  }

  /** The drivers of every host of {@code inventory}: the NameNode's {@code DriverFactory}. */
  public static Map<String, PowerDriver> build(PowerInventory inventory, PowerSettings settings, Configuration conf,
      SleepRequests sleepRequests, HostView hosts) {
    BmcCredentials credentials = new BmcCredentials(conf);
    ProcessRunner runner = new ProcessRunner(settings.commandTimeoutMillis());
    String ipmitool = ipmiEntries(inventory).isEmpty() ? settings.ipmitool() : ipmitool(inventory, settings);
    HttpClient redfish = null;
    Map<String, PowerDriver> drivers = new LinkedHashMap<>();
    for (InventoryEntry entry : inventory.entries().values()) {
      String usedBy = "power inventory " + inventory.source() + " host " + entry.host();
      switch (entry.driver()) {
        case IPMI:
          drivers.put(entry.host(), new IpmiDriver(entry, credentials.password(entry.credential(), usedBy), runner,
              ipmitool));
          break;
        case REDFISH:
          redfish = redfish != null ? redfish : redfishClient(settings, credentials);
          drivers.put(entry.host(), new RedfishDriver(entry, credentials.password(entry.credential(), usedBy),
              redfish, Duration.ofMillis(settings.commandTimeoutMillis())));
          break;
        case WOL:
          drivers.put(entry.host(), new WolDriver(entry, sleepRequests, hosts, settings.stateTimeoutMillis()));
          break;
        case COMMAND:
          drivers.put(entry.host(), new CommandDriver(entry, runner));
          break;
        default:
          throw new IllegalStateException(entry.driver().toString());
      }
    }
    return Collections.unmodifiableMap(drivers);
  }

  private static List<String> ipmiEntries(PowerInventory inventory) {
    return inventory.entries().values().stream().filter(entry -> entry.driver() == DriverKind.IPMI)
        .map(InventoryEntry::host).collect(Collectors.toList());
  }

  /**
   * The executable {@code eafr.power.ipmitool} names (an absolute path, or a name looked up on the NameNode's PATH),
   * or an error naming the tool and the entries that need it.
   */
  private static String ipmitool(PowerInventory inventory, PowerSettings settings) {
    String tool = settings.ipmitool();
    Optional<Path> found = tool.contains(File.separator) ? Optional.of(Paths.get(tool)).filter(Files::isExecutable)
        : Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
            .filter(dir -> !dir.isEmpty()).map(dir -> Paths.get(dir, tool)).filter(Files::isExecutable).findFirst();
    if (found.isEmpty()) {
      throw new IllegalArgumentException("ipmitool is needed by power inventory " + inventory.source()
          + " entries " + ipmiEntries(inventory) + " (driver ipmi), but " + PowerSettings.IPMITOOL_KEY + " = " + tool
          + (tool.contains(File.separator) ? " is not an executable file" : " is not on the NameNode's PATH")
          + ": install ipmitool (Debian/Ubuntu: apt-get install ipmitool) or set " + PowerSettings.IPMITOOL_KEY
          + " to its absolute path");
    }
    return found.get().toString();
  }

  /**
   * An HTTPS client that trusts only the configured truststore and verifies host names. The JDK's public CAs are
   * not enough: any holder of a public certificate for a BMC's name could then take the BMC password.
   */
  static HttpClient redfishClient(PowerSettings settings, BmcCredentials credentials) {
    return HttpClient.newBuilder().sslContext(sslContext(settings, credentials))
        .connectTimeout(Duration.ofMillis(settings.commandTimeoutMillis()))
        .followRedirects(HttpClient.Redirect.NEVER).build();
  }

  private static SSLContext sslContext(PowerSettings settings, BmcCredentials credentials) {
    try {
      if (settings.truststore().isEmpty()) {
        throw new IllegalArgumentException(PowerSettings.REDFISH_TRUSTSTORE_KEY + " = (empty) is not allowed with a"
            + " redfish entry in the power inventory: expected a truststore holding the BMCs' certificates or their"
            + " CA (the JDK's public CAs are not trusted for BMCs)");
      }
      char[] password = settings.truststorePasswordAlias().isEmpty() ? null
          : credentials.password(settings.truststorePasswordAlias(), PowerSettings.REDFISH_TRUSTSTORE_KEY)
              .reveal().toCharArray();
      KeyStore store = KeyStore.getInstance(settings.truststoreType());
      try (InputStream in = Files.newInputStream(Paths.get(settings.truststore()))) {
        store.load(in, password);
      }
      TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException(PowerSettings.REDFISH_TRUSTSTORE_KEY + " = " + settings.truststore()
          + " (type " + settings.truststoreType() + ") cannot be loaded: " + e.getMessage(), e);
    }
  }
}
