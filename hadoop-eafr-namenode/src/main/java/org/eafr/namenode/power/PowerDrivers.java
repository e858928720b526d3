package org.eafr.namenode.power;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.hadoop.conf.Configuration;

/**
 * Builds the driver of every inventory entry at once, reading each BMC password from the CredentialProvider, so a
 * missing alias or an unreadable truststore is found when the inventory is loaded, not when a host must wake.
 */
final class PowerDrivers {
  private PowerDrivers() {
  }

  static Map<String, PowerDriver> build(PowerInventory inventory, PowerSettings settings, Configuration conf,
      SleepRequests sleepRequests, HostView hosts) {
    BmcCredentials credentials = new BmcCredentials(conf);
    ProcessRunner runner = new ProcessRunner(settings.commandTimeoutMillis());
    HttpClient redfish = null;
    Map<String, PowerDriver> drivers = new LinkedHashMap<>();
    for (InventoryEntry entry : inventory.entries().values()) {
      String usedBy = "power inventory " + inventory.source() + " host " + entry.host();
      switch (entry.driver()) {
        case IPMI:
          drivers.put(entry.host(), new IpmiDriver(entry, credentials.password(entry.credential(), usedBy), runner,
              settings.ipmitool()));
          break;
        case REDFISH:
          redfish = redfish != null ? redfish : redfishClient(settings, credentials);
          drivers.put(entry.host(), new RedfishDriver(entry, credentials.password(entry.credential(), usedBy),
              redfish, Duration.ofMillis(settings.commandTimeoutMillis())));
          break;
        case WOL:
          drivers.put(entry.host(), new WolDriver(entry, sleepRequests, hosts));
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

  /** An HTTPS client that trusts the configured truststore (or the JDK's) and verifies host names. */
  static HttpClient redfishClient(PowerSettings settings, BmcCredentials credentials) {
    return HttpClient.newBuilder().sslContext(sslContext(settings, credentials))
        .connectTimeout(Duration.ofMillis(settings.commandTimeoutMillis()))
        .followRedirects(HttpClient.Redirect.NEVER).build();
  }

  private static SSLContext sslContext(PowerSettings settings, BmcCredentials credentials) {
    try {
      if (settings.truststore().isEmpty()) {
        return SSLContext.getDefault();
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
