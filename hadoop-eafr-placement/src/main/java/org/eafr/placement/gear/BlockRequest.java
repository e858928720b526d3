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
  private final long bytes;
  private final StorageRoom room;

  private BlockRequest(String blockId, String path, int replication, int writer, int[] excluded) {
    this(blockId, path, replication, writer, excluded, 0, StorageRoom.UNLIMITED);
  }

  private BlockRequest(String blockId, String path, int replication, int writer, int[] excluded, long bytes,
      StorageRoom room) {
    this.blockId = Objects.requireNonNull(blockId, "blockId");
    this.path = Objects.requireNonNull(path, "path");
    if (replication < 1) {
      throw new IllegalArgumentException("block " + blockId + ": replication " + replication
          + " is not allowed: expected at least 1");
    }
    this.replication = replication;
    this.writer = writer;
    this.excluded = excluded;
    if (bytes < 0) {
      throw new IllegalArgumentException("block " + blockId + ": size " + bytes + " bytes is not allowed: expected"
          + " at least 0");
    }
    this.bytes = bytes;
    this.room = Objects.requireNonNull(room, "room");
  }

  /** A block of {@code replication} replicas with no path, no writer in the chain and nothing excluded. */
  public static BlockRequest of(String blockId, int replication) {
    return new BlockRequest(blockId, "", replication, -1, NONE);
  }

  public BlockRequest withPath(String newPath) {
    return new BlockRequest(blockId, newPath, replication, writer, excluded, bytes, room);
  }

  /** The writer's chain position, or -1 when the writer is not a server of the chain. */
  public BlockRequest withWriter(int position) {
    return new BlockRequest(blockId, path, replication, position, excluded, bytes, room);
  }

  /** The chain positions that must not get a replica. */
  public BlockRequest excluding(int... positions) {
    return new BlockRequest(blockId, path, replication, writer, positions.clone(), bytes, room);
  }

  /**
   * A block of {@code size} bytes that goes only to servers {@code room} says can hold it; without this, every server
   * has room ({@link StorageRoom#UNLIMITED}) and the block's size is 0.
   */
  public BlockRequest withSize(long size, StorageRoom storageRoom) {
    return new BlockRequest(blockId, path, replication, writer, excluded, size, storageRoom);
  }

  /** The block's size in bytes, 0 when unknown. */
  public long bytes() {
    return bytes;
  }

  /** Whether the server at {@code position} has room for this block. */
  public boolean fits(int position) {
    return room.canHold(position, bytes);
  }

  /** Whether the server at {@code position} has room for this block and {@code spareBytes} more besides. */
  public boolean fitsWithSpare(int position, long spareBytes) {
    return room.canHold(position, bytes + spareBytes);
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

  /** The excluded chain positions (a copy). */
  public int[] excluded() {
    return excluded.clone();
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
