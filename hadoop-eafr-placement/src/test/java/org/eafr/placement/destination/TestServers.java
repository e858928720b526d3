package org.eafr.placement.destination;

import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.StorageReserve;

/** Servers for destination tests: 100 GB disks, a 10 GB reserve, service capacity 20. */
final class TestServers {
  static final long GB = 1_000_000_000L;
  static final long MB = 1_000_000L;
  static final StorageReserve RESERVE = new StorageReserve(10 * GB);

  private TestServers() {
  }

  /** An empty server whose remaining service capacity is {@code phi}. */
  static Server withPhi(String id, int phi) {
    return Server.builder(id).serviceCapacity(20).concurrentReads(20 - phi).storageCapacity(100 * GB).build();
  }

  /** A server with {@code reads} concurrent reads. */
  static Server withReads(String id, int reads) {
    return Server.builder(id).serviceCapacity(20).concurrentReads(reads).storageCapacity(100 * GB).build();
  }

  /** A server with {@code freeBytes} of storage left. */
  static Server withFree(String id, long freeBytes) {
    return Server.builder(id).serviceCapacity(20).storageCapacity(100 * GB).storageUsed(100 * GB - freeBytes).build();
  }
}
