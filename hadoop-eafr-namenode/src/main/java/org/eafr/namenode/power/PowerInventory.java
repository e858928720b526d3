package org.eafr.namenode.power;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.eafr.namenode.config.DataNodeName;

/**
 * Which driver switches each DataNode host, read from the JSON file named by {@code eafr.power.inventory.file}
 * (format and example in docs/power.md and conf/eafr-power-inventory.example.json):
 * <pre>
 *   {"nodes": [
 *     {"host": "dn1.example.com", "driver": "ipmi", "address": "10.0.1.11", "user": "admin",
 *      "credential": "eafr.bmc.dn1"},
 *     {"host": "dn3.example.com", "driver": "redfish", "address": "bmc3.example.com", "user": "root",
 *      "credential": "eafr.bmc.dn3", "system": "/redfish/v1/Systems/1"},
 *     {"host": "dn5.example.com", "driver": "wol", "mac": "00:11:22:33:44:55", "address": "10.0.0.255"},
 *     {"host": "dn6.example.com", "driver": "command", "script": "/etc/hadoop/eafr-power.sh"}]}
 * </pre>
 * The file is checked whole when it is read: an unknown field (the message lists the allowed ones), a field given
 * twice, a missing or malformed value, {@code HOST:PORT} for a driver that switches a whole host (ipmi, redfish), one
 * host listed twice (names compared after {@link InventoryConflicts#normalHost normalising}) and one BMC endpoint or
 * MAC named for two hosts are refused with a message naming the file, the entry, the field and what is allowed, and
 * nothing is built.
 */
public final class PowerInventory {
  /** An empty inventory: no host can be switched. */
  public static final PowerInventory EMPTY = new PowerInventory("(none)", List.of());

  private static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
  private static final Set<String> COMMON = Set.of("host", "driver");
  private static final Map<DriverKind, Set<String>> FIELDS = Map.of(
      DriverKind.IPMI, Set.of("address", "port", "user", "credential", "cipher-suite", "privilege"),
      DriverKind.REDFISH, Set.of("address", "port", "user", "credential", "system"),
      DriverKind.WOL, Set.of("mac", "address", "port"),
      DriverKind.COMMAND, Set.of("script"));

  private final String source;
  private final Map<String, InventoryEntry> entries;

  private PowerInventory(String source, List<InventoryEntry> entries) {
    this.source = source;
    Map<String, InventoryEntry> byHost = new LinkedHashMap<>();
    for (InventoryEntry entry : entries) {
      byHost.put(entry.host(), entry);
    }
    this.entries = Collections.unmodifiableMap(byHost);
  }

  /** Reads and checks {@code file}. */
  public static PowerInventory read(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new IllegalArgumentException("power inventory " + file + " (" + PowerSettings.INVENTORY_FILE_KEY
          + ") cannot be read: " + e, e);
    }
    return parse(file.toString(), text);
  }

  /** Parses the JSON text of an inventory; {@code source} names it in errors. */
  public static PowerInventory parse(String source, String text) {
    JsonNode root;
    try {
      root = JSON.readTree(text);
    } catch (JsonParseException e) { // a duplicate key is one too: Jackson names it and where
      throw new IllegalArgumentException("power inventory " + source + " (" + PowerSettings.INVENTORY_FILE_KEY
          + ") is not valid JSON (each field once per object): " + e.getOriginalMessage() + " at line "
          + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr());
    } catch (IOException e) {
      throw new IllegalArgumentException("power inventory " + source + " (" + PowerSettings.INVENTORY_FILE_KEY
          + ") is not valid JSON: " + e.getMessage().split("\n")[0]);
    }
    if (root == null || !root.isObject() || !root.path("nodes").isArray()) {
      throw new IllegalArgumentException("power inventory " + source + " (" + PowerSettings.INVENTORY_FILE_KEY
          + ") must be one JSON object with a single field \"nodes\", an array of entries");
    }
    for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
      String field = names.next();
      if (!field.equals("nodes")) {
        throw new IllegalArgumentException("power inventory " + source + " (" + PowerSettings.INVENTORY_FILE_KEY
            + "): field '" + field + "' is not allowed: the file's only field is \"nodes\", an array of entries");
      }
    }
    List<InventoryEntry> entries = new ArrayList<>();
    InventoryConflicts conflicts = new InventoryConflicts();
    for (int i = 0; i < root.get("nodes").size(); i++) {
      EntryReader reader = new EntryReader(source, i, root.get("nodes").get(i));
      InventoryEntry entry = reader.read();
      conflicts.check(entry, i, reader);
      entries.add(entry);
    }
    return new PowerInventory(source, entries);
  }

  /** The entry named exactly {@code host} (HOST or HOST:PORT as written in the file), or null. */
  public InventoryEntry entry(String host) {
    return entries.get(host);
  }

  /** The entry that switches {@code dataNode}: its HOST:PORT entry, else its host entry, else null. */
  public InventoryEntry entryFor(DataNodeName dataNode) {
    InventoryEntry byHost = null;
    for (InventoryEntry entry : entries.values()) {
      if (dataNode.matches(entry.host())) {
        if (entry.host().indexOf(':') >= 0) {
          return entry;
        }
        byHost = entry;
      }
    }
    return byHost;
  }

  public Map<String, InventoryEntry> entries() {
    return entries;
  }

  public String source() {
    return source;
  }

  /** Reads one entry, each error naming the file, the entry, the field and what is allowed. */
  private static final class EntryReader implements InventoryConflicts.Failures {
    private final String source;
    private final int index;
    private final JsonNode node;
    private String host = "?";

    EntryReader(String source, int index, JsonNode node) {
      this.source = source;
      this.index = index;
      this.node = node;
    }

    InventoryEntry read() {
      if (!node.isObject()) {
        throw invalid("(entry)", node.toString(), "a JSON object with \"host\" and \"driver\"");
      }
      host = checkHost(text("host", true));
      String driverName = text("driver", true);
      DriverKind driver = DriverKind.of(driverName);
      if (driver == null) {
        throw invalid("driver", driverName, "one of " + DriverKind.labels());
      }
      checkFields(driver);
      if (driver.switchesWholeHost() && host.indexOf(':') >= 0) {
        throw invalid("host", host, "a host name or IP address without :PORT for driver " + driver.label()
            + ": its BMC switches the whole host, every DataNode on it (HOST:PORT is for command entries)");
      }
      int port = integer("port", driver.defaultPort(), 1, 65_535);
      switch (driver) {
        case IPMI:
          return new InventoryEntry(host, driver, address(true), port, text("user", true),
              text("credential", true), new InventoryEntry.IpmiSession(integer("cipher-suite", -1, 0, 17),
              privilege()), null, null, null);
        case REDFISH:
          return new InventoryEntry(host, driver, address(true), port, text("user", true),
              text("credential", true), null, systemPath(), null, null);
        case WOL:
          String address = address(false);
          return new InventoryEntry(host, driver, address == null ? "255.255.255.255" : address, port, null, null,
              null, null, mac(), null);
        case COMMAND:
          return new InventoryEntry(host, driver, null, -1, null, null, null, null, null, script());
        default:
          throw new IllegalStateException(driver.toString());
      }
    }

    private void checkFields(DriverKind driver) {
      for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
        String field = names.next();
        if (!COMMON.contains(field) && !FIELDS.get(driver).contains(field)) {
          throw invalid(field, node.get(field).toString(), "no such field for driver " + driver.label()
              + "; its fields are host, driver, " + String.join(", ", new TreeSet<>(FIELDS.get(driver))));
        }
      }
    }

    private String text(String field, boolean required) {
      JsonNode value = node.get(field);
      if (value == null || value.isNull()) {
        if (required) {
          throw invalid(field, "(missing)", "a non-empty string");
        }
        return null;
      }
      if (!value.isTextual() || value.asText().trim().isEmpty() || !value.asText().equals(value.asText().trim())) {
        throw invalid(field, value.toString(), "a non-empty string without surrounding blanks");
      }
      return value.asText();
    }

    private int integer(String field, int absent, int low, int high) {
      JsonNode value = node.get(field);
      if (value == null) {
        return absent;
      }
      if (!value.isInt() || value.asInt() < low || value.asInt() > high) {
        throw invalid(field, value.toString(), "an integer in [" + low + ", " + high + "]");
      }
      return value.asInt();
    }

    private String checkHost(String value) {
      int colon = value.lastIndexOf(':');
      boolean badPort = colon > 0 && !validPort(value.substring(colon + 1));
      if (colon == 0 || badPort || value.matches(".*[\\s,/].*")) {
        throw invalid("host", value, "a DataNode host name or IP address, optionally :PORT with its transfer port"
            + " in [1, 65535], as in the roles file");
      }
      return value;
    }

    private static boolean validPort(String port) {
      return port.matches("[0-9]{1,5}") && Integer.parseInt(port) >= 1 && Integer.parseInt(port) <= 65_535;
    }

    private String address(boolean required) {
      String value = text("address", required);
      if (value != null && value.matches(".*[\\s,/:].*")) {
        throw invalid("address", value, "a host name or IPv4 address, without port or scheme (the port is \"port\")");
      }
      return value;
    }

    private IpmiPrivilege privilege() {
      String value = text("privilege", false);
      if (value == null) {
        return IpmiPrivilege.DEFAULT;
      }
      IpmiPrivilege privilege = IpmiPrivilege.of(value);
      if (privilege == null) {
        throw invalid("privilege", value, "one of " + IpmiPrivilege.labels() + " (the BMC user's level; default "
            + IpmiPrivilege.DEFAULT + ", enough for chassis power)");
      }
      return privilege;
    }

    private String systemPath() {
      String value = text("system", false);
      if (value != null && !value.matches("/redfish/v1/Systems/[^/\\s]+")) {
        throw invalid("system", value, "a path /redfish/v1/Systems/ID, or no field to use the BMC's only system");
      }
      return value;
    }

    private byte[] mac() {
      String value = text("mac", true);
      if (!value.matches("([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}")) {
        throw invalid("mac", value, "six hexadecimal byte pairs separated by ':' or '-', e.g. 00:11:22:33:44:55");
      }
      byte[] mac = new byte[6];
      for (int i = 0; i < 6; i++) {
        mac[i] = (byte) Integer.parseInt(value.substring(3 * i, 3 * i + 2), 16);
      }
      return mac;
    }

    private String script() {
      String value = text("script", true);
      Path path = Path.of(value);
      if (!path.isAbsolute() || !Files.isRegularFile(path) || !Files.isExecutable(path)) {
        throw invalid("script", value, "the absolute path of an executable file on the NameNode host");
      }
      return value;
    }

    @Override
    public IllegalArgumentException invalid(String field, String value, String allowed) {
      return new IllegalArgumentException("power inventory " + source + " (" + PowerSettings.INVENTORY_FILE_KEY
          + ") entry " + (index + 1) + " (host " + host + "): field '" + field + "' = " + value
          + " is not allowed: expected " + allowed);
    }
  }
}
