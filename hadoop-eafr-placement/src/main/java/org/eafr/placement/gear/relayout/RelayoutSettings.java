package org.eafr.placement.gear.relayout;

import java.util.List;
import java.util.function.Function;
import org.eafr.placement.settings.Range;
import org.eafr.placement.settings.Setting;

/**
 * The settings of relayout, typed and range-checked: how many block moves run at once per DataNode and in all (the
 * bandwidth of each move is HDFS's own {@code dfs.datanode.balance.bandwidthPerSec}, as for the Balancer), how far
 * above its share a server may end, and how much of the namespace one step walks. The defaults are for a production
 * cluster under load: two moves per DataNode, as the Balancer's own default concurrency keeps a DataNode's disks
 * mostly for clients, and 16 in all.
 */
public final class RelayoutSettings {
  public static final Setting<Integer> MOVES_PER_DATANODE = Setting.ofInt("eafr.relayout.moves.per-datanode", "-",
      "Relayout block moves in flight at once on one DataNode, as source or target; each is throttled by the"
          + " DataNodes' dfs.datanode.balance.bandwidthPerSec like a Balancer move.", 2, Range.closed(1, 1_000));
  public static final Setting<Integer> MOVES_CONCURRENT = Setting.ofInt("eafr.relayout.moves.concurrent", "-",
      "Relayout block moves in flight at once across the cluster.", 16, Range.closed(1, 100_000));
  public static final Setting<Double> SHARE_SLACK = Setting.ofDouble("eafr.relayout.share-slack", "-",
      "How far above its layout share a DataNode may end after relayout, as a fraction of the share (plus one"
          + " block); relayout keeps a replica where it is while its DataNode is within this, and moves it otherwise.",
      0.1, Range.closed(0.0, 10.0));
  public static final Setting<Integer> BATCH_FILES = Setting.ofInt("eafr.relayout.batch-files", "-",
      "Files one relayout step reads from the namespace (each under a short namesystem read lock); the step's moves"
          + " finish before the next step reads more.", 64, Range.closed(1, 100_000));
  public static final Setting<Integer> GROW_AUTO = Setting.ofInt("eafr.relayout.grow.auto", "-",
      "1: the active NameNode grows the equal-work layout's lowest gear by itself, as 'hdfs eafr relayout grow'"
          + " does, once it no longer holds one copy of the data at its fill (checked each relayout step at the top"
          + " gear, while no relayout runs or was stopped); 0: only the operator's command grows it.", 0,
      Range.closed(0, 1));
  public static final Setting<Long> STEP_MS = Setting.ofLong("eafr.relayout.step.ms", "-",
      "Milliseconds between relayout steps on the active NameNode.", 1_000L, Range.closed(10L, 3_600_000L));

  private static final List<Setting<?>> ALL = List.of(MOVES_PER_DATANODE, MOVES_CONCURRENT, SHARE_SLACK, BATCH_FILES,
      GROW_AUTO, STEP_MS);

  private final int movesPerDataNode;
  private final int movesConcurrent;
  private final double shareSlack;
  private final int batchFiles;
  private final long stepMillis;
  private final boolean growAuto;

  private RelayoutSettings(Function<String, String> lookup) {
    movesPerDataNode = MOVES_PER_DATANODE.read(lookup);
    movesConcurrent = MOVES_CONCURRENT.read(lookup);
    shareSlack = SHARE_SLACK.read(lookup);
    batchFiles = BATCH_FILES.read(lookup);
    stepMillis = STEP_MS.read(lookup);
    growAuto = GROW_AUTO.read(lookup) == 1;
  }

  /** The settings from {@code lookup}; a malformed or out-of-range value throws naming the key and the range. */
  public static RelayoutSettings from(Function<String, String> lookup) {
    return new RelayoutSettings(lookup);
  }

  public static RelayoutSettings defaults() {
    return from(key -> null);
  }

  /** Every relayout setting, in documentation order. */
  public static List<Setting<?>> all() {
    return ALL;
  }

  public int movesPerDataNode() {
    return movesPerDataNode;
  }

  public int movesConcurrent() {
    return movesConcurrent;
  }

  public double shareSlack() {
    return shareSlack;
  }

  public int batchFiles() {
    return batchFiles;
  }

  public long stepMillis() {
    return stepMillis;
  }

  /** Whether the NameNode grows the lowest gear by itself once it no longer holds one copy ({@link #GROW_AUTO}). */
  public boolean growAuto() {
    return growAuto;
  }
}
