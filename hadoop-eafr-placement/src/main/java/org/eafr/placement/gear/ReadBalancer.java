package org.eafr.placement.gear;

/**
 * Which replica serves a read in a geared layout: Rabbit's hit-ratio balancer (Sec. 3.2) or SpringFS's read
 * offloading (Sec. 3). The balancer counts its own choices, so it is stateful; implementations are thread-safe
 * because the NameNode calls them from its IPC handler threads.
 */
public interface ReadBalancer {
  /**
   * The chain position of the holder that should serve a read of a block held by {@code holders}, choosing only among
   * holders in {@code on}; -1 when none of them is on (the read must wait for a wake). The choice is counted.
   */
  int choose(int[] holders, ActiveSet on);
}
