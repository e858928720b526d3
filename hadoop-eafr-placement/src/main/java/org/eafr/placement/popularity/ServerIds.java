package org.eafr.placement.popularity;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Numbers the servers that reads were attributed to, so that a {@link ReadCountTable} slot holds an int per replica
 * instead of a reference to a server id. A number, once given, stays for the life of the {@link ReadStatistics}: one
 * entry per DataNode ever seen (a cluster's DataNodes, not its files). Lookups are lock-free; only the first read
 * from a new server takes a lock.
 */
final class ServerIds {
  private final ConcurrentMap<String, Integer> numbers = new ConcurrentHashMap<>();
  /** ids[n] is the server numbered n; written before its number is published in {@code numbers}. */
  private volatile String[] ids = new String[16];

  int numberOf(String serverId) {
    Integer number = numbers.get(serverId);
    return number != null ? number : add(serverId);
  }

  String idOf(int number) {
    return ids[number];
  }

  private synchronized int add(String serverId) {
    Integer known = numbers.get(serverId);
    if (known != null) {
      return known;
    }
    int number = numbers.size();
    String[] current = ids;
    if (number == current.length) {
      current = Arrays.copyOf(current, number * 2);
    }
    current[number] = serverId;
    ids = current;
    numbers.put(serverId, number);
    return number;
  }
}
