package org.eafr.namenode.relayout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.relayout.HomeChoices;
import org.eafr.placement.gear.relayout.RelayoutBlock;
import org.eafr.placement.gear.relayout.RelayoutPlanner;
import org.eafr.placement.gear.relayout.RelayoutReport;
import org.eafr.placement.gear.relayout.RelayoutSettings;

/**
 * Relayout's first walk planned and nothing moved: the namespace in {@link NamespaceWalk} order,
 * {@code eafr.relayout.batch-files} files at a time, their blocks read under short holds of the namesystem read lock
 * ({@link RelayoutBlocks}), each block planned by the core's {@link RelayoutPlanner} with the layout's shares, as
 * {@link RelayoutService} plans; no move starts, nothing is persisted, and no batch waits for HDFS's redundancy work.
 * It tells how many blocks a relayout would move, and the replica moves and bytes it plans against the lower bound.
 *
 * <p>Cost: relayout is a whole-namespace job by nature, since any block may be off its homes (written under another
 * layout, or moved by the Balancer, the Mover or re-replication) and nothing records which: a pass reads every file
 * and block once, so its time grows with the namespace ({@code scripts/bench-gear-scale.sh} measures it per 10^6
 * blocks), not with the batch size (each directory entry is visited once a pass). Its lock holds do not grow: the
 * longest copies up to 1,000 blocks (or one file's) or steps through up to {@value NamespaceWalk#SLICE} directory
 * entries, allocating nothing per block or entry.
 */
public final class RelayoutDryRun {
  private RelayoutDryRun() {
  }

  /** Plans every block of the namespace onto {@code layout}'s homes with {@code settings}' slack and batch size. */
  public static Result plan(NameNode nameNode, GearedLayout layout, RelayoutSettings settings) throws IOException {
    NamespaceWalk walk = new NamespaceWalk(nameNode);
    RelayoutPlanner planner = firstWalkPlanner(nameNode, layout, settings);
    long files = 0;
    long blocksToMove = 0;
    String cursor = "";
    for (List<NamespaceWalk.WalkedFile> batch = walk.after(cursor, settings.batchFiles()); !batch.isEmpty();
        batch = walk.after(cursor, settings.batchFiles())) {
      List<RelayoutBlock> blocks = new ArrayList<>();
      RelayoutBlocks.of(nameNode, batch, layout).forEach(block -> blocks.add(block.planned()));
      for (List<BlockMove> moves : planner.plan(blocks)) {
        blocksToMove += moves.isEmpty() ? 0 : 1;
      }
      files += batch.size();
      cursor = batch.get(batch.size() - 1).path;
    }
    return new Result(files, blocksToMove, planner.report());
  }

  /**
   * The planner of a relayout's first walk: the layout's homes and shares, of the bytes the DataNodes hold, and each
   * DataNode's bytes held.
   */
  static RelayoutPlanner firstWalkPlanner(NameNode nameNode, GearedLayout layout, RelayoutSettings settings) {
    return new RelayoutPlanner(layout, HomeChoices.of(layout), settings.shareSlack(),
        RelayoutBlocks.expectedBytes(nameNode, layout), RelayoutBlocks.expectedHeld(nameNode, layout));
  }

  /** What a planning pass found. */
  public static final class Result {
    private final long files;
    private final long blocksToMove;
    private final RelayoutReport report;

    Result(long files, long blocksToMove, RelayoutReport report) {
      this.files = files;
      this.blocksToMove = blocksToMove;
      this.report = report;
    }

    /** Files walked. */
    public long files() {
      return files;
    }

    /** Blocks with at least one replica move planned. */
    public long blocksToMove() {
      return blocksToMove;
    }

    /** Blocks planned, replica moves and bytes planned against the lower bound. */
    public RelayoutReport report() {
      return report;
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%d files, %d blocks to move: %s", files, blocksToMove, report);
    }
  }
}
