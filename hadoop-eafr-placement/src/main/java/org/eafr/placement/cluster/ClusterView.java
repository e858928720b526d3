package org.eafr.placement.cluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An immutable, read-only snapshot of the cluster: servers by id and by role, in the order they were given (so every
 * iteration, and every seeded decision built on it, is deterministic).
 */
public final class ClusterView {
  private final Map<String, Server> byId;
  private final Map<ServerRole, List<Server>> byRole;

  private ClusterView(Map<String, Server> byId, Map<ServerRole, List<Server>> byRole) {
    this.byId = byId;
    this.byRole = byRole;
  }

  /** A view of {@code servers}; ids must be unique. */
  public static ClusterView of(Collection<Server> servers) {
    Map<String, Server> byId = new LinkedHashMap<>();
    Map<ServerRole, List<Server>> byRole = new EnumMap<>(ServerRole.class);
    for (ServerRole role : ServerRole.values()) {
      byRole.put(role, new ArrayList<>());
    }
    for (Server server : servers) {
      if (byId.putIfAbsent(server.id(), server) != null) {
        throw new IllegalArgumentException("server id " + server.id() + " appears twice in the cluster view");
      }
      byRole.get(server.role()).add(server);
    }
    for (ServerRole role : ServerRole.values()) {
      byRole.put(role, Collections.unmodifiableList(byRole.get(role)));
    }
    return new ClusterView(Collections.unmodifiableMap(byId), byRole);
  }

  public Optional<Server> find(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  /** The server with {@code id}; an unknown id throws naming it. */
  public Server server(String id) {
    Server server = byId.get(id);
    if (server == null) {
      throw new IllegalArgumentException("unknown server " + id + "; the cluster view has " + byId.size()
          + " servers");
    }
    return server;
  }

  public boolean contains(String id) {
    return byId.containsKey(id);
  }

  public Collection<Server> servers() {
    return byId.values();
  }

  public List<Server> withRole(ServerRole role) {
    return byRole.get(role);
  }

  public int size() {
    return byId.size();
  }

  /** A copy of this view with {@code replacement} in place of the server with the same id. */
  public ClusterView with(Server replacement) {
    server(replacement.id());
    List<Server> servers = new ArrayList<>(byId.values());
    servers.replaceAll(s -> s.id().equals(replacement.id()) ? replacement : s);
    return of(servers);
  }
}
