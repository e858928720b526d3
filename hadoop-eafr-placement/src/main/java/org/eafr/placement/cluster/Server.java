package org.eafr.placement.cluster;

import java.util.Objects;

/**
 * An immutable snapshot of one server as EAFR sees it (Sec. 3.2.3): its rack, role, service capacity c_c (the maximum
 * concurrent reads it can serve), its current concurrent reads h (received and not yet finished, so a queue counts),
 * and its storage.
 *
 * <p>Derived quantities: utilization h / c_c; overloaded when h / c_c &gt; tau_c; remaining service capacity
 * phi = c_c - h (negative when reads queue); remaining storage = capacity - used.
 *
 * <p>Worked example: c_c = 15, h = 13 gives utilization 0.8667, overloaded at tau_c = 0.8, phi = 2.
 */
public final class Server {
  private final String id;
  private final String rack;
  private final ServerRole role;
  private final int serviceCapacity;
  private final int concurrentReads;
  private final long storageCapacity;
  private final long storageUsed;

  private Server(Builder b) {
    this.id = Objects.requireNonNull(b.id, "id");
    this.rack = Objects.requireNonNull(b.rack, "rack");
    this.role = Objects.requireNonNull(b.role, "role");
    if (b.serviceCapacity < 1) {
      throw new IllegalArgumentException("server " + b.id + ": service capacity " + b.serviceCapacity
          + " is not allowed: expected at least 1 concurrent read");
    }
    if (b.concurrentReads < 0) {
      throw new IllegalArgumentException("server " + b.id + ": concurrent reads " + b.concurrentReads
          + " is not allowed: expected at least 0");
    }
    if (b.storageCapacity < 0 || b.storageUsed < 0) {
      throw new IllegalArgumentException("server " + b.id + ": storage capacity " + b.storageCapacity + " and used "
          + b.storageUsed + " are not allowed: expected both at least 0");
    }
    this.serviceCapacity = b.serviceCapacity;
    this.concurrentReads = b.concurrentReads;
    this.storageCapacity = b.storageCapacity;
    this.storageUsed = b.storageUsed;
  }

  public static Builder builder(String id) {
    return new Builder(id);
  }

  public Builder toBuilder() {
    return new Builder(id).rack(rack).role(role).serviceCapacity(serviceCapacity).concurrentReads(concurrentReads)
        .storageCapacity(storageCapacity).storageUsed(storageUsed);
  }

  public String id() {
    return id;
  }

  public String rack() {
    return rack;
  }

  public ServerRole role() {
    return role;
  }

  /** c_c: the maximum number of concurrent reads this server can serve. */
  public int serviceCapacity() {
    return serviceCapacity;
  }

  /** h: reads received and not yet finished (being served or queued). */
  public int concurrentReads() {
    return concurrentReads;
  }

  public long storageCapacity() {
    return storageCapacity;
  }

  public long storageUsed() {
    return storageUsed;
  }

  /** h / c_c. */
  public double utilization() {
    return (double) concurrentReads / serviceCapacity;
  }

  /** h / c_c &gt; tau_c (EAFR Sec. 3.2.3). */
  public boolean isOverloaded(double overloadThreshold) {
    return utilization() > overloadThreshold;
  }

  /** phi = c_c - h: how many more concurrent reads this server can take; negative when reads queue. */
  public int remainingServiceCapacity() {
    return serviceCapacity - concurrentReads;
  }

  /** c_s minus the bytes stored (the left side of Eq. 8). */
  public long remainingStorage() {
    return storageCapacity - storageUsed;
  }

  public Server withRole(ServerRole newRole) {
    return toBuilder().role(newRole).build();
  }

  public Server withConcurrentReads(int reads) {
    return toBuilder().concurrentReads(reads).build();
  }

  public Server withStorageUsed(long used) {
    return toBuilder().storageUsed(used).build();
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof Server)) {
      return false;
    }
    Server s = (Server) o;
    return id.equals(s.id) && rack.equals(s.rack) && role == s.role && serviceCapacity == s.serviceCapacity
        && concurrentReads == s.concurrentReads && storageCapacity == s.storageCapacity
        && storageUsed == s.storageUsed;
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, rack, role, serviceCapacity, concurrentReads, storageCapacity, storageUsed);
  }

  @Override
  public String toString() {
    return id + "[" + role + " " + rack + " reads " + concurrentReads + "/" + serviceCapacity + " free "
        + remainingStorage() + "B]";
  }

  /** Builds a {@link Server}; the defaults are a hot server on rack "/default-rack" with capacity 1 and no storage. */
  public static final class Builder {
    private final String id;
    private String rack = "/default-rack";
    private ServerRole role = ServerRole.HOT;
    private int serviceCapacity = 1;
    private int concurrentReads;
    private long storageCapacity;
    private long storageUsed;

    private Builder(String id) {
      this.id = id;
    }

    public Builder rack(String value) {
      this.rack = value;
      return this;
    }

    public Builder role(ServerRole value) {
      this.role = value;
      return this;
    }

    public Builder serviceCapacity(int value) {
      this.serviceCapacity = value;
      return this;
    }

    public Builder concurrentReads(int value) {
      this.concurrentReads = value;
      return this;
    }

    public Builder storageCapacity(long value) {
      this.storageCapacity = value;
      return this;
    }

    public Builder storageUsed(long value) {
      this.storageUsed = value;
      return this;
    }

    public Server build() {
      return new Server(this);
    }
  }
}
