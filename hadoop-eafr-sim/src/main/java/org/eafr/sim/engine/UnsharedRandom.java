package org.eafr.sim.engine;

import java.util.Random;

/**
 * A {@link Random} for one thread: the same 48-bit linear congruential generator, so the same seed gives exactly the
 * draws of {@code new Random(seed)}, but its state is a plain long instead of an {@code AtomicLong} updated by
 * compare-and-set. The simulator draws on every read; a run is single-threaded, so the atomic update buys nothing.
 */
public final class UnsharedRandom extends Random {
  private static final long serialVersionUID = 1L;
  private static final long MULTIPLIER = 0x5DEECE66DL;
  private static final long ADDEND = 0xBL;
  private static final long MASK = (1L << 48) - 1;

  private long state;

  public UnsharedRandom(long seed) {
    super(seed); // calls setSeed(seed), which sets state
  }

  @Override
  public synchronized void setSeed(long seed) {
    super.setSeed(seed); // also clears the cached nextGaussian
    state = (seed ^ MULTIPLIER) & MASK;
  }

  @Override
  protected int next(int bits) {
    state = (state * MULTIPLIER + ADDEND) & MASK;
    return (int) (state >>> (48 - bits));
  }
}
