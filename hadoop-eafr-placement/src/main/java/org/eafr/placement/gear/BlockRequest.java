package org.eafr.placement.gear;

import java.util.Arrays;
import java.util.Objects;

/**
 * A request to place a new block's replicas in a {@link GearedLayout}: the block's id, the path of its file (datasets
 * map from a path prefix, Rabbit Sec. 3.4), the number of replicas, the writer's chain position when the writer is a
 * server of the chain (SpringFS writes the primary on it when it is in the offload set), and the servers that must not
 * get a replica (they already hold one, as in re-replication, or the caller excludes them). Immutable.
 */
public final class BlockRequest {
  private static final int[] NONE = new int[0];

  private final String blockId;
  private final String path;
  private final int replication;
  private final int writer;
  private final int[] excluded;

  private BlockRequest(String blockId, String path, int replication, int writer, int[] excluded) {
    this.blockId = Objects.requireNonNull(blockId, "blockId");
    this.path = Objects.requireNonNull(path, "path");
    if (replication < 1) {
      throw new IllegalArgumentException("block " + blockId + ": replication " + replication
          + " is not allowed: expected at least 1");
    }
    this.replication = replication;
    this.writer = writer;
    this.excluded = excluded;
  }

  /** A block of {@code replication} replicas with no path, no writer in the chain and nothing excluded. */
  public static BlockRequest of(String blockId, int replication) {
    return new BlockRequest(blockId, "", replication, -1, NONE);
  }

  public BlockRequest withPath(String newPath) {
    return new BlockRequest(blockId, newPath, replication, writer, excluded);
  }

  /** The writer's chain position, or -1 when the writer is not a server of the chain. */
  public BlockRequest withWriter(int position) {
    return new BlockRequest(blockId, path, replication, position, excluded);
  }

  /** The chain positions that must not get a replica. */
  public BlockRequest excluding(int... positions) {
    return new BlockRequest(blockId, path, replication, writer, positions.clone());
  }

  public String blockId() {
    return blockId;
  }

  /** The file's path, "" when unknown. */
  public String path() {
    return path;
  }

  /** r: how many replicas to place. */
  public int replication() {
    return replication;
  }

  /** The writer's chain position, or -1. */
  public int writer() {
    return writer;
  }

  public boolean excludes(int position) {
    for (int e : excluded) {
      if (e == position) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return blockId + "(r=" + replication + (path.isEmpty() ? "" : " " + path) + (writer >= 0 ? " writer " + writer
        : "") + (excluded.length > 0 ? " excluding " + Arrays.toString(excluded) : "") + ")";
  }
}
