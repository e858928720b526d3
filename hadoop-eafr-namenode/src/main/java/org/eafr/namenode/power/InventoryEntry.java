package org.eafr.namenode.power;

import java.util.Locale;

/**
 * One host of the power inventory: the DataNode host it switches (HOST or HOST:PORT, as in the roles file), its driver
 * and how to reach it. Only the fields of its driver are set; the others are null (or -1). The password is not here:
 * {@link #credential()} names its alias in Hadoop's CredentialProvider.
 */
public final class InventoryEntry {
  private final String host;
  private final DriverKind driver;
  private final String address;
  private final int port;
  private final String user;
  private final String credential;
  private final int cipherSuite;
  private final IpmiPrivilege privilege;
  private final String system;
  private final byte[] mac;
  private final String script;

  /** {@code ipmi}: cipher suite and privilege level of an ipmi entry, null for the other drivers. */
  InventoryEntry(String host, DriverKind driver, String address, int port, String user, String credential,
      IpmiSession ipmi, String system, byte[] mac, String script) {
    this.host = host;
    this.driver = driver;
    this.address = address;
    this.port = port;
    this.user = user;
    this.credential = credential;
    this.cipherSuite = ipmi == null ? -1 : ipmi.cipherSuite;
    this.privilege = ipmi == null ? null : ipmi.privilege;
    this.system = system;
    this.mac = mac == null ? null : mac.clone();
    this.script = script;
  }

  /** The DataNode host this entry switches: HOST (every DataNode on it) or HOST:PORT (the transfer port). */
  public String host() {
    return host;
  }

  public DriverKind driver() {
    return driver;
  }

  /** The BMC's address (ipmi, redfish) or where the magic packet goes (wol). */
  public String address() {
    return address;
  }

  public int port() {
    return port;
  }

  public String user() {
    return user;
  }

  /** The CredentialProvider alias of the BMC password. */
  public String credential() {
    return credential;
  }

  /** The ipmitool cipher suite ({@code -C}), or -1 to let ipmitool negotiate. */
  public int cipherSuite() {
    return cipherSuite;
  }

  /** The IPMI privilege level the session asks for ({@code ipmitool -L}); null for other drivers. */
  public IpmiPrivilege privilege() {
    return privilege;
  }

  /** How an ipmi entry's session is opened: cipher suite ({@code -C}, -1 to negotiate) and privilege level. */
  static final class IpmiSession {
    final int cipherSuite;
    final IpmiPrivilege privilege;

    IpmiSession(int cipherSuite, IpmiPrivilege privilege) {
      this.cipherSuite = cipherSuite;
      this.privilege = privilege;
    }
  }

  /** The Redfish system path, or null to use the BMC's only system. */
  public String system() {
    return system;
  }

  public byte[] mac() {
    return mac == null ? null : mac.clone();
  }

  public String macText() {
    if (mac == null) {
      return null;
    }
    StringBuilder text = new StringBuilder();
    for (byte b : mac) {
      text.append(text.length() == 0 ? "" : ":").append(String.format(Locale.ROOT, "%02x", b & 0xFF));
    }
    return text.toString();
  }

  public String script() {
    return script;
  }

  @Override
  public String toString() {
    return host + " (" + driver.label() + (address == null ? "" : " " + address + ":" + port)
        + (script == null ? "" : " " + script) + ")";
  }
}
