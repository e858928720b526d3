package org.eafr.namenode.placement;

import java.io.IOException;
import java.util.Collection;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.gear.GearRecord;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.records.NamespaceRecords;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.LayoutMoves;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The policy's {@code isMovable} for a geared layout: the Balancer's and the Mover's moves are checked with the core's
 * {@link LayoutMoves} (no replica moves up the chain, a block at home stays within its recovery group), so
 * {@code hdfs balancer} leaves every gear that was possible possible.
 *
 * <p>Inside the NameNode the layout is the gear service's. The Balancer and the Mover build the policy in their own
 * process, with no host map: there the layout is built from the gear state persisted in the namespace (the xattr
 * {@code trusted.eafr.gear} of {@code eafr.gear.state.dir}, readable by the HDFS superuser, as whom the Balancer runs),
 * read once through the client and again every 10 minutes. When the state cannot be read every move of a geared
 * cluster is refused, with one ERROR naming the cause: a Balancer that cannot see the layout must not break it.
 */
final class LayoutMoveCheck {
  private static final Logger LOG = LoggerFactory.getLogger(LayoutMoveCheck.class);
  private static final long RELOAD_NANOS = 600_000_000_000L;
  /** The xattr the gear service keeps the gear state in (GearStore). */
  static final String STATE_XATTR = "trusted.eafr.gear";

  private final Configuration conf;
  private final EafrRuntime runtime;
  private final LongSupplier nanoTime;
  private volatile Loaded loaded;
  private volatile String lastProblem;

  LayoutMoveCheck(Configuration conf, EafrRuntime runtime, LongSupplier nanoTime) {
    this.conf = conf;
    this.runtime = runtime;
    this.nanoTime = nanoTime;
  }

  /**
   * Whether moving a replica of the block held by {@code holders} from {@code source} to {@code target} keeps the
   * layout; true when gears are off. {@code inNameNode}: the layout is this NameNode's, not read from the namespace.
   */
  boolean allows(Collection<DatanodeInfo> holders, DatanodeInfo source, DatanodeInfo target, boolean inNameNode) {
    if (!runtime.gears().settings().geared()) {
      return true;
    }
    Optional<GearedLayout> layout = inNameNode ? runtime.gears().layout() : persistedLayout();
    if (layout.isEmpty()) {
      return inNameNode; // a NameNode with no chain yet has nothing to keep; a Balancer that cannot read it refuses
    }
    GearedLayout l = layout.get();
    int[] positions = holders.stream().mapToInt(h -> l.chain().position(ServerTranslator.idOf(h))).toArray();
    return LayoutMoves.keeps(l, positions, l.chain().position(ServerTranslator.idOf(source)),
        l.chain().position(ServerTranslator.idOf(target)));
  }

  private Optional<GearedLayout> persistedLayout() {
    Loaded current = loaded;
    long now = nanoTime.getAsLong();
    if (current == null || now - current.at >= RELOAD_NANOS) {
      current = new Loaded(load(), now);
      loaded = current;
    }
    return current.layout;
  }

  private Optional<GearedLayout> load() {
    String dir = runtime.gears().settings().stateDir();
    try {
      FileSystem fs = FileSystem.get(conf);
      byte[] value = NamespaceRecords.read(fs, dir, STATE_XATTR);
      if (value == null) {
        return problem("no gear state in " + dir + " (no chain fixed yet)");
      }
      GearRuntime gears = new GearRuntime(runtime.gears().settings(), runtime.settings().core());
      gears.state(GearRecord.fromBytes(value));
      Optional<GearedLayout> layout = gears.layout();
      return layout.isPresent() ? layout : problem("the gear state in " + dir + " builds no layout: "
          + gears.layoutProblem().orElse("no chain"));
    } catch (IOException | RuntimeException e) {
      return problem("the gear state in " + dir + " could not be read (" + e + "); the HDFS superuser can read it");
    }
  }

  private Optional<GearedLayout> problem(String why) {
    if (!why.equals(lastProblem)) {
      lastProblem = why;
      LOG.error("EAFR placement: every replica move is refused on this geared cluster ({}): {}",
          runtime.gears().settings().layout(), why);
    }
    return Optional.empty();
  }

  private static final class Loaded {
    final Optional<GearedLayout> layout;
    final long at;

    Loaded(Optional<GearedLayout> layout, long at) {
      this.layout = layout;
      this.at = at;
    }
  }
}
