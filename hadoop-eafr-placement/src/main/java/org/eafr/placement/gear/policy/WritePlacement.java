package org.eafr.placement.gear.policy;

import java.util.List;
import java.util.function.BiConsumer;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.rabbit.WriteOffloading;
import org.eafr.placement.gear.springfs.OffloadSetSize;
import org.eafr.placement.gear.springfs.SpringFsLayout;

/**
 * Where a geared policy writes a new block, and how the last control period's write rate shapes it: the layout's own
 * placement, Rabbit's write offloading (Sec. 3.3, {@link WriteOffloading}) on top of it, or SpringFS's bounded write
 * offloading, whose offload set m ({@link OffloadSetSize}) is chosen each period or fixed. Thread-safe: placement runs
 * on the NameNode's handler threads while the load arrives from its sampler.
 */
public interface WritePlacement {
  /** The replicas of a new block under the servers {@code on}. */
  BlockPlacement place(BlockRequest request, ActiveSet on);

  /**
   * The last control period's rate of primary-replica bytes W (every replica's bytes / r) against one server's write
   * throughput w (above 0): sets the share or the offload set for the coming period.
   */
  void writeLoad(double primaryWriteBytesPerSecond, double serverWriteBytesPerSecond);

  /** The owed moves reflection may make now (Rabbit keeps offloaded primaries for cleanup); by default all. */
  default List<BlockMove> beforeCleanup(List<BlockMove> owed) {
    return owed;
  }

  /** The layout's placement, unchanged by the write rate (Accordion, EAFR on gears). */
  static WritePlacement ofLayout(GearedLayout layout) {
    return ofLayout(layout, (primary, server) -> { });
  }

  /** The layout's placement, with {@code onLoad} told each period's write load. */
  private static WritePlacement ofLayout(GearedLayout layout, BiConsumer<Double, Double> onLoad) {
    return new WritePlacement() {
      @Override
      public BlockPlacement place(BlockRequest request, ActiveSet on) {
        return layout.place(request, on);
      }

      @Override
      public void writeLoad(double primaryWriteBytesPerSecond, double serverWriteBytesPerSecond) {
        onLoad.accept(primaryWriteBytesPerSecond, serverWriteBytesPerSecond);
      }
    };
  }

  /** Rabbit's write offloading: the share of primary replicas p primaries cannot absorb goes past them. */
  static WritePlacement rabbit(GearedLayout layout, int primaries) {
    WriteOffloading offloading = new WriteOffloading(primaries);
    return new WritePlacement() {
      @Override
      public BlockPlacement place(BlockRequest request, ActiveSet on) {
        return offloading.apply(layout.place(request, on), request, on);
      }

      @Override
      public void writeLoad(double primaryWriteBytesPerSecond, double serverWriteBytesPerSecond) {
        offloading.share(WriteOffloading.offloadedShare(primaryWriteBytesPerSecond, serverWriteBytesPerSecond,
            primaries));
      }

      @Override
      public List<BlockMove> beforeCleanup(List<BlockMove> owed) {
        return offloading.beforeCleanup(owed);
      }
    };
  }

  /**
   * SpringFS's bounded write offloading: the layout places primaries in its offload set of m servers, m chosen each
   * period from the write rate (a run that fixes m sets it on the layout and gives no write load).
   */
  static WritePlacement springFs(SpringFsLayout layout) {
    return ofLayout(layout, (primary, server) -> layout.offloadSet(OffloadSetSize.of(primary, server,
        layout.primaries(), layout.chain().size())));
  }
}
