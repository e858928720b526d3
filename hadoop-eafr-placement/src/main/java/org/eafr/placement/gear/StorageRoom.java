package org.eafr.placement.gear;

/**
 * Whether the server at a chain position has room for a block of a given size now (its free space past the storage
 * reserve), as the caller of {@link GearedLayout#place} sees it. A layout that is asked places no replica on a server
 * without room: the replica's home is displaced to a server that has room, as HDFS's default placement skips a
 * DataNode without space for the block (docs/core-gears.md, "Full homes").
 */
@FunctionalInterface
public interface StorageRoom {
  /** Every server has room: placement by block counts alone (the NameNode's chooseTarget leaves space to HDFS). */
  StorageRoom UNLIMITED = (position, bytes) -> true;

  boolean canHold(int position, long bytes);
}
