package org.eafr.namenode.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.eafr.placement.cluster.ServerRole;

/**
 * The operator's assignment of DataNodes to the hot and standby roles (EAFR Sec. 3.2.1). Cold is not assigned here:
 * a standby server turns cold when nearly full (Eq. 8), and a DataNode in HDFS maintenance is cold.
 *
 * <p>Format, one statement per line, {@code #} starts a comment:
 * <pre>
 *   hot     dn1.example.com dn2.example.com 10.0.0.3:9866
 *   standby dn7.example.com
 *   unlisted hot
 * </pre>
 * A host is a host name or IP address (every DataNode on it) or HOST:PORT with the DataNode's transfer port. A DataNode
 * that no line names takes the {@code unlisted} role, hot when absent. Each host appears once.
 *
 * <p>Errors name the file, the line and what is allowed; an empty file is refused (write {@code unlisted hot} for
 * every DataNode hot); {@link #checkNamesDataNodes} refuses an entry that names no registered DataNode, and
 * {@link #checkHotAmong} a file that makes every registered DataNode standby. A file is parsed whole before it
 * replaces the old one, so a bad reload changes nothing.
 */
public final class RolesFile {
  /** No file: every DataNode is hot. */
  public static final RolesFile ALL_HOT = new RolesFile("(none)", Map.of(), ServerRole.HOT);

  private final String source;
  private final Map<String, ServerRole> entries;
  private final ServerRole unlisted;
  /**
   * The entries indexed the way {@link DataNodeName#matches} compares them, so {@link #roleOf} (run per replica on
   * every getBlockLocations) costs a few hash lookups instead of parsing every entry: IPs exactly, host names
   * lower-cased; HOST:PORT entries by their whole text. Each value is the entry's line order, which settles ties
   * as the scan did (the first matching HOST:PORT entry, the last matching host entry).
   */
  private final Map<String, Integer> exact = new HashMap<>();
  private final Map<String, Integer> lowerCase = new HashMap<>();
  private final ServerRole[] roleAt;

  private RolesFile(String source, Map<String, ServerRole> entries, ServerRole unlisted) {
    this.source = source;
    this.entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    this.unlisted = unlisted;
    this.roleAt = new ServerRole[entries.size()];
    int position = 0;
    for (Map.Entry<String, ServerRole> entry : this.entries.entrySet()) {
      roleAt[position] = entry.getValue();
      exact.putIfAbsent(entry.getKey(), position);
      String lower = entry.getKey().toLowerCase(Locale.ROOT);
      if (entry.getKey().indexOf(':') >= 0) {
        lowerCase.putIfAbsent(lower, position);
      } else {
        lowerCase.put(lower, position);
      }
      position++;
    }
  }

  /** Reads and parses {@code file}. */
  public static RolesFile read(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException("roles file " + file + " (" + NamenodeSettings.ROLES_FILE_KEY
          + ") cannot be read: " + e, e);
    }
    return parse(file.toString(), lines);
  }

  /** Parses the lines of a roles file; {@code source} names it in errors. */
  public static RolesFile parse(String source, List<String> lines) {
    Map<String, ServerRole> entries = new LinkedHashMap<>();
    ServerRole unlisted = null;
    for (int i = 0; i < lines.size(); i++) {
      String line = stripComment(lines.get(i));
      if (line.isEmpty()) {
        continue;
      }
      String[] words = line.split("\\s+");
      String keyword = words[0].toLowerCase(Locale.ROOT);
      if (keyword.equals("unlisted")) {
        if (words.length != 2 || unlisted != null) {
          throw malformed(source, i, lines.get(i), "'unlisted hot' or 'unlisted standby', at most once");
        }
        unlisted = role(source, i, lines.get(i), words[1]);
        continue;
      }
      ServerRole role = role(source, i, lines.get(i), keyword);
      if (words.length < 2) {
        throw malformed(source, i, lines.get(i), "'" + keyword + "' followed by at least one HOST or HOST:PORT");
      }
      for (int w = 1; w < words.length; w++) {
        String host = checkHost(source, i, lines.get(i), words[w]);
        if (entries.putIfAbsent(host, role) != null) {
          throw malformed(source, i, lines.get(i), "each host once; " + host + " already has role "
              + entries.get(host).name().toLowerCase(Locale.ROOT));
        }
      }
    }
    if (entries.isEmpty() && unlisted == null) {
      throw new IllegalArgumentException("roles file " + source + " (" + NamenodeSettings.ROLES_FILE_KEY
          + ") is empty: it has no 'hot', 'standby' or 'unlisted' line (a file cut short or not yet written?);"
          + " write 'unlisted hot' to make every DataNode hot, or unset " + NamenodeSettings.ROLES_FILE_KEY);
    }
    return new RolesFile(source, entries, unlisted == null ? ServerRole.HOT : unlisted);
  }

  /** The role of {@code dataNode}: its HOST:PORT entry, else its host entry, else the unlisted role. */
  public ServerRole roleOf(DataNodeName dataNode) {
    if (roleAt.length == 0) {
      return unlisted;
    }
    String hostName = dataNode.hostName().toLowerCase(Locale.ROOT);
    String port = ":" + dataNode.transferPort();
    int byPort = earliest(exact.get(dataNode.ipAddress() + port), lowerCase.get(hostName + port));
    if (byPort >= 0) {
      return roleAt[byPort];
    }
    int byHost = latest(exact.get(dataNode.ipAddress()), lowerCase.get(hostName));
    return byHost >= 0 ? roleAt[byHost] : unlisted;
  }

  /** The earlier of two entry positions, either absent (null); -1 when both are. */
  private int earliest(Integer a, Integer b) {
    if (a == null || b == null) {
      return a != null ? a : b != null ? b : -1;
    }
    return Math.min(a, b);
  }

  private int latest(Integer a, Integer b) {
    return Math.max(a == null ? -1 : a, b == null ? -1 : b);
  }

  /** Throws naming every entry that matches none of {@code dataNodes}; returns this file otherwise. */
  public RolesFile checkNamesDataNodes(Collection<DataNodeName> dataNodes) {
    List<String> unknown = new ArrayList<>();
    for (String host : entries.keySet()) {
      if (dataNodes.stream().noneMatch(dn -> dn.matches(host))) {
        unknown.add(host);
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("roles file " + source + " (" + NamenodeSettings.ROLES_FILE_KEY
          + ") names hosts that are not DataNodes of this cluster: " + unknown + "; registered DataNodes are "
          + dataNodes);
    }
    return this;
  }

  /**
   * Throws when no DataNode can be hot while {@code minHotReplicas} (eps, {@code eafr.min-hot-replicas}) asks every
   * file to keep replicas on hot servers: with no hot line and unlisted DataNodes standby, no file could meet it.
   */
  public RolesFile checkHasHot(int minHotReplicas) {
    if (minHotReplicas >= 1 && unlisted != ServerRole.HOT && !entries.containsValue(ServerRole.HOT)) {
      throw new IllegalArgumentException("roles file " + source + " (" + NamenodeSettings.ROLES_FILE_KEY
          + ") makes no DataNode hot, but eafr.min-hot-replicas = " + minHotReplicas + " keeps that many replicas of"
          + " every file on hot DataNodes: add a 'hot HOST' line or 'unlisted hot'");
    }
    return this;
  }

  /**
   * Throws when, of the registered {@code dataNodes} (at least one), the file makes none hot while
   * {@code minHotReplicas} (eps) asks every file to keep replicas on hot servers: every one is listed standby.
   */
  public RolesFile checkHotAmong(Collection<DataNodeName> dataNodes, int minHotReplicas) {
    if (minHotReplicas >= 1 && !dataNodes.isEmpty()
        && dataNodes.stream().noneMatch(dn -> roleOf(dn) == ServerRole.HOT)) {
      throw new IllegalArgumentException("roles file " + source + " (" + NamenodeSettings.ROLES_FILE_KEY
          + ") makes none of the " + dataNodes.size() + " registered DataNodes hot (each is standby), but"
          + " eafr.min-hot-replicas = " + minHotReplicas + " keeps that many replicas of every file on hot"
          + " DataNodes: name hot ones with a 'hot HOST' line");
    }
    return this;
  }

  public Map<String, ServerRole> entries() {
    return entries;
  }

  public ServerRole unlistedRole() {
    return unlisted;
  }

  public String source() {
    return source;
  }

  private static String stripComment(String line) {
    int hash = line.indexOf('#');
    return (hash < 0 ? line : line.substring(0, hash)).trim();
  }

  private static ServerRole role(String source, int index, String line, String word) {
    switch (word.toLowerCase(Locale.ROOT)) {
      case "hot":
        return ServerRole.HOT;
      case "standby":
        return ServerRole.STANDBY;
      default:
        throw malformed(source, index, line, "a line starting with 'hot', 'standby' or 'unlisted', and the roles"
            + " hot or standby (cold comes from Eq. 8 and HDFS maintenance); '" + word + "' is none of them");
    }
  }

  private static String checkHost(String source, int index, String line, String host) {
    int colon = host.lastIndexOf(':');
    if (colon == 0 || host.indexOf(',') >= 0) {
      throw malformed(source, index, line, "hosts separated by blanks, each HOST or HOST:PORT; '" + host
          + "' is not one");
    }
    if (colon > 0) {
      String port = host.substring(colon + 1);
      if (!port.matches("[0-9]{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65_535) {
        throw malformed(source, index, line, "a port in [1, 65535] after ':' in '" + host + "'");
      }
    }
    return host;
  }

  private static IllegalArgumentException malformed(String source, int index, String line, String allowed) {
    return new IllegalArgumentException("roles file " + source + " (" + NamenodeSettings.ROLES_FILE_KEY
        + ") line " + (index + 1) + " '" + line.trim() + "' is malformed: expected " + allowed);
  }
}
