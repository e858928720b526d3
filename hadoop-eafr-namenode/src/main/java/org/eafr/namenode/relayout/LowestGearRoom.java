package org.eafr.namenode.relayout;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.namenode.DirectoryWithQuotaFeature;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.layout.CapacityPrimaries;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.placement.settings.EafrSettings;

/**
 * Whether the lowest gear holds one whole copy of the data at the cluster's real fill (Rabbit Sec. 3.1: the primaries
 * alone keep every block available), for {@code hdfs eafr status} and {@code plan}. One copy is the stored bytes over
 * the layout's r (eafr.gear.replicas); gear 0 holds its DataNodes' capacities less eafr.storage-reserve.bytes; the
 * copy must fit with eafr.gear.capacity-headroom to spare. When it does not, the report names the p that would
 * ({@link CapacityPrimaries} on the chain's DataNodes in chain order), which {@code hdfs eafr relayout grow} grows the
 * layout to. A DataNode that reports no capacity (asleep or not yet registered) counts as
 * the mean of those that report one.
 *
 * <p>Worked example (the unit test checks it): 4 primaries of 100 GB less 10 GB reserves hold 360 GB; 1.2 TB stored
 * with r = 3 is one copy of 400 GB, 420 GB with 5% headroom, so gear 0 holds 360 / 420 = 86% of it, and the chain's
 * next DataNodes of 100 GB make p = 5 (450 GB).
 */
public final class LowestGearRoom {
  private final long oneCopyBytes;
  private final long lowestGearBytes;
  private final int primaries;
  private final double headroom;
  /** The p that holds the copy with headroom, or -1 when the whole chain cannot. */
  private final int needed;

  private LowestGearRoom(long oneCopyBytes, long lowestGearBytes, int primaries, double headroom, int needed) {
    this.oneCopyBytes = oneCopyBytes;
    this.lowestGearBytes = lowestGearBytes;
    this.primaries = primaries;
    this.headroom = headroom;
    this.needed = needed;
  }

  /**
   * @param capacities each chain DataNode's capacity in bytes by id (absent or 0: not reported)
   * @param storedBytes the bytes the cluster stores, every replica counted
   */
  static LowestGearRoom of(GearedLayout layout, Map<String, Long> capacities, long storedBytes, int replicas,
      long reserveBytes, double headroom, int groupSize) {
    long[] usable = usable(layout, capacities, reserveBytes);
    ActiveSet lowest = layout.serversOn(0);
    long held = 0;
    for (int p = 0; p < usable.length; p++) {
      held += lowest.contains(p) ? usable[p] : 0;
    }
    long oneCopy = storedBytes / Math.max(1, replicas);
    int needed;
    try {
      needed = CapacityPrimaries.primaries(oneCopy, headroom, usable, groupSize);
    } catch (IllegalArgumentException tooMuch) {
      needed = -1;
    }
    return new LowestGearRoom(oneCopy, held, lowest.size(), headroom, needed);
  }

  /**
   * The room of the NameNode's geared layout, or empty while gears are off or the chain is not fixed. Stored bytes are
   * the larger of the namespace's storage space (every file's bytes times its replication, kept by HDFS at the root)
   * and the DataNodes' used bytes (asleep DataNodes report none).
   */
  public static Optional<LowestGearRoom> of(NameNode nameNode, GearRuntime gears, EafrSettings core) {
    Optional<GearedLayout> layout = gears.layout();
    if (layout.isEmpty()) {
      return Optional.empty();
    }
    Map<String, Long> capacities = new HashMap<>();
    long used = 0;
    for (DatanodeDescriptor dataNode : nameNode.getNamesystem().getBlockManager().getDatanodeManager()
        .getDatanodeListForReport(DatanodeReportType.ALL)) {
      capacities.put(ServerTranslator.idOf(dataNode), dataNode.getCapacity());
      used += dataNode.getDfsUsed();
    }
    DirectoryWithQuotaFeature root = nameNode.getNamesystem().getFSDirectory().getRoot()
        .getDirectoryWithQuotaFeature();
    long namespace = root == null ? 0 : root.getSpaceConsumed().getStorageSpace();
    return Optional.of(of(layout.get(), capacities, Math.max(used, namespace), core.get(EafrSettings.GEAR_REPLICAS),
        core.storageReserveBytes(), core.get(EafrSettings.GEAR_CAPACITY_HEADROOM),
        core.get(EafrSettings.GEAR_GROUP_SIZE)));
  }

  private static long[] usable(GearedLayout layout, Map<String, Long> capacities, long reserveBytes) {
    int n = layout.chain().size();
    long[] capacity = new long[n];
    long sum = 0;
    int reported = 0;
    for (int p = 0; p < n; p++) {
      capacity[p] = capacities.getOrDefault(layout.chain().id(p), 0L);
      sum += capacity[p];
      reported += capacity[p] > 0 ? 1 : 0;
    }
    long mean = reported == 0 ? 0 : sum / reported;
    long[] usable = new long[n];
    for (int p = 0; p < n; p++) {
      usable[p] = Math.max(0, (capacity[p] > 0 ? capacity[p] : mean) - reserveBytes);
    }
    return usable;
  }

  /** The share of one copy plus headroom that the lowest gear holds (1 or more: it holds it). */
  public double heldShare() {
    double wanted = oneCopyBytes * (1 + headroom);
    return wanted <= 0 ? Double.POSITIVE_INFINITY : lowestGearBytes / wanted;
  }

  public boolean holdsOneCopy() {
    return heldShare() >= 1;
  }

  /** The p that holds one copy with the headroom; empty when the whole chain cannot. */
  public OptionalInt primariesNeeded() {
    return needed < 0 ? OptionalInt.empty() : OptionalInt.of(needed);
  }

  /** The line for {@code status} and {@code plan}. */
  public String text() {
    String head = String.format(Locale.ROOT, "lowest gear (%d DataNodes, %s usable) holds %s of one copy (%s stored"
        + " / r, with %.0f%% headroom)", primaries, size(lowestGearBytes), percent(), size(oneCopyBytes),
        100 * headroom);
    if (holdsOneCopy()) {
      return head + "\n";
    }
    if (needed < 0) {
      return head + ": the whole expansion chain cannot hold one copy with that headroom; add DataNodes\n";
    }
    return head + String.format(Locale.ROOT, ": grow p to %d ('hdfs eafr relayout grow' grows the layout and"
        + " relays out its blocks)%n", needed);
  }

  private String percent() {
    double share = heldShare();
    return Double.isInfinite(share) ? "all" : String.format(Locale.ROOT, "%.0f%%", 100 * share);
  }

  public Map<String, Object> toJsonMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("oneCopyBytes", oneCopyBytes);
    map.put("lowestGearDataNodes", primaries);
    map.put("lowestGearUsableBytes", lowestGearBytes);
    map.put("headroom", headroom);
    map.put("heldShare", Double.isInfinite(heldShare()) ? null : heldShare());
    map.put("holdsOneCopy", holdsOneCopy());
    map.put("primariesNeeded", needed < 0 ? null : needed);
    return map;
  }

  private static String size(long bytes) {
    return bytes >= 1_000_000_000_000L ? String.format(Locale.ROOT, "%.2f TB", bytes / 1e12)
        : String.format(Locale.ROOT, "%.1f GB", bytes / 1e9);
  }
}
