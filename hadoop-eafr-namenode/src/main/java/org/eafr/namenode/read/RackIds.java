package org.eafr.namenode.read;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small number for each rack name the reader ordering has seen, so whether a replica is on the reader's rack is an
 * int comparison: HDFS resolves each DataNode's rack on its own, so two DataNodes of one rack hold equal but distinct
 * Strings, and comparing them char by char was the largest part of ordering a block's replicas. One entry per rack.
 */
final class RackIds {
  private final ConcurrentMap<String, Integer> ids = new ConcurrentHashMap<>();
  private final AtomicInteger next = new AtomicInteger();

  /** The number of rack {@code name}, given on first sight; 0 or more. */
  int idOf(String name) {
    Integer id = ids.get(name);
    return id != null ? id : ids.computeIfAbsent(name, n -> next.getAndIncrement());
  }
}
