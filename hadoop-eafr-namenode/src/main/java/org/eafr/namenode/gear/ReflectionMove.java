package org.eafr.namenode.gear;

import java.util.Objects;

/**
 * A reflection move in flight: a block's replica copied from {@code source} to {@code target} (DataNode ids), whose
 * copy on the source is the one to delete once the target holds the block.
 */
public final class ReflectionMove {
  private final String source;
  private final String target;

  public ReflectionMove(String source, String target) {
    this.source = Objects.requireNonNull(source, "source");
    this.target = Objects.requireNonNull(target, "target");
  }

  public String source() {
    return source;
  }

  public String target() {
    return target;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof ReflectionMove)) {
      return false;
    }
    ReflectionMove move = (ReflectionMove) other;
    return source.equals(move.source) && target.equals(move.target);
  }

  @Override
  public int hashCode() {
    return 31 * source.hashCode() + target.hashCode();
  }

  @Override
  public String toString() {
    return source + " -> " + target;
  }
}
