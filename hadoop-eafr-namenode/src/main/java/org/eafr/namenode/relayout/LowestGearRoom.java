package org.eafr.namenode.relayout;

import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.function.IntFunction;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.namenode.DirectoryWithQuotaFeature;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.layout.CapacityPrimaries;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.gear.policy.GearedPolicySpec;
import org.eafr.placement.gear.policy.LayoutContext;
import org.eafr.placement.settings.EafrSettings;

/**
 * Whether the lowest gear holds one whole copy of the data at the cluster's real fill (Rabbit Sec. 3.1: the primaries
 * alone keep every block available), for {@code hdfs eafr status} and {@code plan}. One copy is the stored bytes over
 * the layout's r (eafr.gear.replicas); gear 0 holds its DataNodes' capacities less eafr.storage-reserve.bytes; the
 * copy must fit with eafr.gear.capacity-headroom to spare. The layout's own shares must hold it too: the layout holds
 * the least over its DataNodes of usable_i / (share_i (1 + headroom)) ({@link CapacityPrimaries#copyHeld}), since the
 * equal-work minimum B / n fills the DataNodes just past the primaries first. When either falls short, the report
 * names the least p above the primaries in force whose layout holds the copy by both tests, each layout built as the
 * one in force is (the same policy, chain and settings with that p: dealt by capacity or not, and spread over
 * eafr-geared's read floor n_L, which grows with p), so {@code hdfs eafr relayout grow} puts in force the very layout
 * found to hold it; or it says that no p does (add DataNodes). A DataNode that reports no capacity (asleep or not yet
 * registered) counts as the mean of those that report one.
 *
 * <p>Worked examples (the unit test checks them), r = 3, 10 GB reserves, no headroom: (1) 12 DataNodes of 100 GB,
 * p = 4, block counts dealt equally: gear 0 holds 360 GB, 120% of a copy of 300 GB, but the fifth DataNode's share is
 * (1 / 5) x 2 / (1/5 + .. + 1/12) = 0.392 of the copy, so the layout holds 90 / 0.392 = 229 GB, 76% of it, and no p
 * holds it (a larger p moves B / n to a later DataNode of the same size, with a larger scale). (2) 4 DataNodes of 750
 * GB then 20 of 250 GB, p = 2 by capacity, a copy of 1.4 TB: gear 0's 1.48 TB holds it, but the fifth DataNode
 * (240 GB usable) takes the equal-work minimum B / 5 and fills at 1.2 TB, 86% of it; p = 5 holds it
 * ({@link CapacityPrimaries}' example). (3) eafr-geared with a read floor of 0.5 on 24 DataNodes of 100 GB, p = 3, a
 * copy of 240 GB: gear 0's 270 GB holds it, but the shares over the floor's 12 DataNodes hold 95% of it; an equal-work
 * spread over all 24 would hold it at p = 3 itself, and eafr-geared's layouts for a larger p hold less: no p does.
 */
public final class LowestGearRoom {
  private final long oneCopyBytes;
  private final long lowestGearBytes;
  private final int primaries;
  private final double headroom;
  /** The bytes of one copy the layout's shares hold with every DataNode within its room and headroom. */
  private final double layoutHeldBytes;
  /** The p that holds the copy with headroom, or -1 when the whole chain cannot. */
  private final int needed;

  private LowestGearRoom(long oneCopyBytes, long lowestGearBytes, int primaries, double headroom,
      double layoutHeldBytes, int needed) {
    this.oneCopyBytes = oneCopyBytes;
    this.lowestGearBytes = lowestGearBytes;
    this.primaries = primaries;
    this.headroom = headroom;
    this.layoutHeldBytes = layoutHeldBytes;
    this.needed = needed;
  }

  /**
   * The same with the grown layouts built as {@link #plainEqualWork} builds them (Rabbit's equal-work layout spread
   * over the whole chain).
   *
   * @param capacities each chain DataNode's capacity in bytes by id (absent or 0: not reported)
   * @param storedBytes the bytes the cluster stores, every replica counted
   */
  static LowestGearRoom of(GearedLayout layout, Map<String, Long> capacities, long storedBytes, int replicas,
      long reserveBytes, double headroom, int groupSize) {
    return of(layout, plainEqualWork(layout, replicas), capacities, storedBytes, replicas, reserveBytes, headroom,
        groupSize);
  }

  /**
   * @param grownTo the layout {@code hdfs eafr relayout grow} puts in force for p primaries, built as the layout in
   *     force is (the same policy, chain and settings: eafr-geared's read floor spread included); null when the
   *     layout does not grow its primaries
   */
  static LowestGearRoom of(GearedLayout layout, IntFunction<GearedLayout> grownTo, Map<String, Long> capacities,
      long storedBytes, int replicas, long reserveBytes, double headroom, int groupSize) {
    long[] usable = usable(layout, capacities, reserveBytes);
    long oneCopy = storedBytes / Math.max(1, replicas);
    Room now = Room.of(layout, usable, headroom);
    return new LowestGearRoom(oneCopy, now.lowestGearBytes, layout.serversOn(0).size(), headroom, now.layoutHeld,
        primariesNeeded(now, grownTo, usable, oneCopy, headroom, groupSize));
  }

  /**
   * The p that holds one copy, in gear-group steps from the least whose storage alone holds it: with {@code grownTo},
   * the least whose grown layout holds it as {@link #holdsOneCopy} asks of the layout in force (more than the
   * primaries in force while those are short, so grow always names more), else the least whose storage does; -1 when
   * none does.
   */
  private static int primariesNeeded(Room now, IntFunction<GearedLayout> grownTo, long[] usable, long oneCopy,
      double headroom, int groupSize) {
    int p;
    try {
      p = CapacityPrimaries.primaries(oneCopy, headroom, usable, groupSize);
    } catch (IllegalArgumentException tooMuch) {
      return -1;
    }
    if (grownTo == null) {
      return p;
    }
    boolean shortNow = !now.holds(oneCopy, headroom);
    for (; p <= usable.length; p += groupSize) {
      if (shortNow && p <= now.primaries) {
        continue;
      }
      try {
        if (Room.of(grownTo.apply(p), usable, headroom).holds(oneCopy, headroom)) {
          return p;
        }
      } catch (IllegalArgumentException cannotBuild) {
        // e.g. too few gear groups past p for r replicas: a larger p builds none either
        return -1;
      }
    }
    return -1;
  }

  /**
   * The equal-work layout of {@code layout}'s shape with p primaries spread over the whole chain; null for a layout
   * that is not equal-work.
   */
  static IntFunction<GearedLayout> plainEqualWork(GearedLayout layout, int replicas) {
    if (!(layout instanceof EqualWorkLayout)) {
      return null;
    }
    EqualWorkLayout equalWork = (EqualWorkLayout) layout;
    return p -> new EqualWorkLayout(layout.chain(), p, equalWork.groupSize(), replicas, layout.chain().size(),
        equalWork.byCapacity(), equalWork.reserveBytes());
  }

  /**
   * The layouts {@code policy} builds on {@code layout}'s chain with p primaries and {@code core}'s other settings,
   * as the NameNode builds the layout in force and {@code relayout grow} the grown one.
   */
  static IntFunction<GearedLayout> grownBy(GearedPolicySpec<?> policy, EafrSettings core, GearedLayout layout,
      int sizedFor) {
    ExpansionChain chain = layout.chain();
    return p -> policy.layout(new LayoutContext(core.toBuilder().set(EafrSettings.GEAR_PRIMARIES, p).build(), chain,
        sizedFor, Clock.systemUTC(), () -> new Random(chain.toString().hashCode())));
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
    IntFunction<GearedLayout> grownTo = gears.sizedByPrimaries() ? grownBy(gears.settings().policy().orElseThrow(),
        core, layout.get(), gears.state().sizedFor()) : null;
    return Optional.of(of(layout.get(), grownTo, capacities, Math.max(used, namespace),
        core.get(EafrSettings.GEAR_REPLICAS), core.storageReserveBytes(), core.get(EafrSettings.GEAR_CAPACITY_HEADROOM),
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

  /** The share of one copy the layout's shares hold with every DataNode within its room and the headroom. */
  public double layoutHeldShare() {
    return oneCopyBytes <= 0 ? Double.POSITIVE_INFINITY : layoutHeldBytes / oneCopyBytes;
  }

  /** Whether the lowest gear and the layout's shares both hold one copy with the headroom. */
  public boolean holdsOneCopy() {
    return heldShare() >= 1 && layoutHeldShare() >= 1;
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
    if (Math.round(100 * layoutHeldShare()) < Math.round(100 * Math.min(1, heldShare()))) { // a lower % to show
      head += String.format(Locale.ROOT, "; the layout's shares hold %.0f%% of it", 100 * layoutHeldShare());
    }
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
    map.put("layoutHeldShare", Double.isInfinite(layoutHeldShare()) ? null : layoutHeldShare());
    map.put("holdsOneCopy", holdsOneCopy());
    map.put("primariesNeeded", needed < 0 ? null : needed);
    return map;
  }

  private static String size(long bytes) {
    return bytes >= 1_000_000_000_000L ? String.format(Locale.ROOT, "%.2f TB", bytes / 1e12)
        : String.format(Locale.ROOT, "%.1f GB", bytes / 1e9);
  }

  /** A layout's room on usable capacities: its lowest gear's bytes, and the copy its shares hold with the headroom. */
  private static final class Room {
    final int primaries;
    final long lowestGearBytes;
    final double layoutHeld;

    private Room(int primaries, long lowestGearBytes, double layoutHeld) {
      this.primaries = primaries;
      this.lowestGearBytes = lowestGearBytes;
      this.layoutHeld = layoutHeld;
    }

    static Room of(GearedLayout layout, long[] usable, double headroom) {
      ActiveSet lowest = layout.serversOn(0);
      long held = 0;
      for (int p = 0; p < usable.length; p++) {
        held += lowest.contains(p) ? usable[p] : 0;
      }
      return new Room(lowest.size(), held, CapacityPrimaries.copyHeld(layout, usable, headroom));
    }

    /** {@link #holdsOneCopy}'s test: the lowest gear's storage and the layout's shares both hold the copy. */
    boolean holds(long oneCopy, double headroom) {
      return lowestGearBytes >= oneCopy * (1 + headroom) && layoutHeld >= oneCopy;
    }
  }
}
