package org.eafr.placement.gear.dataset;

/**
 * Rabbit's degree of power-proportionality (Sec. 3.4): with n servers on for a dataset of B blocks, each would ideally
 * serve B / n; a server holding fewer than B / n blocks serves all it holds and the shortfall is spread over the
 * servers holding enough, b_e extra blocks each. The degree is (B / n) / (B / n + b_e): 1 when every server on holds at
 * least B / n (the equal-work condition), lower when overlapping datasets push some below it.
 *
 * <p>Worked example: 4 servers on holding 40%, 30%, 20% and 10% of the blocks: B / n = 25%; the server with 20% falls
 * short by 5 and the one with 10% by 15, so b_e = 20 / 2 = 10 and the degree is 25 / 35 = 0.714.
 */
public final class PowerProportionality {
  private PowerProportionality() {
  }

  /** @param shares b_i / B of each server on (fractions of the dataset's blocks) */
  public static double degree(double[] shares) {
    int n = shares.length;
    if (n == 0) {
      throw new IllegalArgumentException("no servers on: the degree of power-proportionality needs at least one");
    }
    double ideal = 1.0 / n;
    double shortfall = 0;
    int capable = 0;
    for (double share : shares) {
      if (share < ideal) {
        shortfall += ideal - share;
      } else {
        capable++;
      }
    }
    if (capable == 0) {
      return 0;
    }
    return ideal / (ideal + shortfall / capable);
  }
}
