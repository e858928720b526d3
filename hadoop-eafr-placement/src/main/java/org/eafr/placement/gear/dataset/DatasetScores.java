package org.eafr.placement.gear.dataset;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The expansion chains of several datasets overlaid on one cluster (Rabbit Sec. 3.4, Eq. 4-5). Each server has a score
 * s_i = sum over the datasets d stored on it of s_i(d), where s_i(d) = 1 when the server is one of d's p primaries
 * (its index l_i(d) in d's chain is at most p) and 1 / l_i(d) otherwise. A new dataset's chain takes the servers in
 * order of increasing score (ties in cluster order), and then its contributions are added. So each dataset's primaries
 * and busiest servers fall where the others' load is lightest.
 *
 * <p>Worked example (6 servers, p = 2, three datasets): D1's chain is 0 1 2 3 4 5 (all scores 0), leaving scores 1, 1,
 * 1/3, 1/4, 1/5, 1/6. D2's chain is 5 4 3 2 0 1, leaving 6/5, 7/6, 7/12, 7/12, 6/5, 7/6. D3's chain is 2 3 1 5 0 4: its
 * primaries, servers 2 and 3, are no other dataset's.
 *
 * <p>Immutable: {@link #with} returns the scores after one more dataset.
 */
public final class DatasetScores {
  private static final double TIE = 1e-12;

  private final int primaries;
  private final double[] scores;
  private final List<int[]> chains;

  private DatasetScores(int primaries, double[] scores, List<int[]> chains) {
    this.primaries = primaries;
    this.scores = scores;
    this.chains = chains;
  }

  /** No dataset yet on {@code servers} servers, each dataset with p primaries. */
  public static DatasetScores empty(int servers, int primaries) {
    if (primaries < 1 || primaries > servers) {
      throw new IllegalArgumentException("p = " + primaries + " is not allowed on " + servers
          + " servers: expected 1 <= p <= N");
    }
    return new DatasetScores(primaries, new double[servers], List.of());
  }

  /** The scores after one more dataset, whose chain is the servers by increasing score. */
  public DatasetScores with() {
    Integer[] order = new Integer[scores.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Math.abs(scores[a] - scores[b]) <= TIE ? Integer.compare(a, b)
        : Double.compare(scores[a], scores[b]));
    int[] chain = Arrays.stream(order).mapToInt(Integer::intValue).toArray();
    double[] next = scores.clone();
    for (int l = 1; l <= chain.length; l++) {
      next[chain[l - 1]] += l <= primaries ? 1.0 : 1.0 / l;
    }
    List<int[]> nextChains = new ArrayList<>(chains);
    nextChains.add(chain);
    return new DatasetScores(primaries, next, List.copyOf(nextChains));
  }

  /** s_i, Eq. 4. */
  public double score(int server) {
    return scores[server];
  }

  /** The chain of the {@code dataset}-th dataset (0-based, in the order added): cluster positions, first on first. */
  public int[] chain(int dataset) {
    return chains.get(dataset).clone();
  }

  public int datasets() {
    return chains.size();
  }
}
