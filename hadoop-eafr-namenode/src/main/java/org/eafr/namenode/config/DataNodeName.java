package org.eafr.namenode.config;

import java.util.Objects;

/**
 * How a DataNode can be named in the roles file: by IP address or host name, optionally with its transfer port
 * ({@code HOST:PORT}), which tells apart several DataNodes on one host.
 */
public final class DataNodeName {
  private final String ipAddress;
  private final String hostName;
  private final int transferPort;

  public DataNodeName(String ipAddress, String hostName, int transferPort) {
    this.ipAddress = Objects.requireNonNull(ipAddress, "ipAddress");
    this.hostName = Objects.requireNonNull(hostName, "hostName");
    this.transferPort = transferPort;
  }

  /** Whether the roles-file entry {@code host} or {@code host:port} names this DataNode. */
  public boolean matches(String entry) {
    int colon = entry.lastIndexOf(':');
    if (colon < 0) {
      return entry.equals(ipAddress) || entry.equalsIgnoreCase(hostName);
    }
    String host = entry.substring(0, colon);
    String port = entry.substring(colon + 1);
    return port.equals(String.valueOf(transferPort)) && (host.equals(ipAddress) || host.equalsIgnoreCase(hostName));
  }

  String ipAddress() {
    return ipAddress;
  }

  String hostName() {
    return hostName;
  }

  int transferPort() {
    return transferPort;
  }

  /** The id the adapters give this DataNode in the core's cluster view: IP:PORT. */
  public String serverId() {
    return ipAddress + ":" + transferPort;
  }

  @Override
  public String toString() {
    return hostName + "/" + serverId();
  }
}
