package org.eafr.placement.gear.dataset;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.layout.EqualWorkLayout;

/**
 * Several datasets on one cluster (Rabbit Sec. 3.4): each dataset has its own equal-work layout over its own expansion
 * chain, and the chains are overlaid by the server score of {@link DatasetScores} (Eq. 4-5), so the datasets'
 * primaries and heavy servers land on different servers. A block's dataset comes from its file's path
 * ({@link DatasetMap}).
 *
 * <p>Positions are the cluster chain's; each dataset's layout works in its own chain, and this class translates (an
 * array lookup per replica; the servers that are on are translated once per distinct set and cached). Gear k keeps
 * on, for every dataset, that dataset's gear k (its last gear when it has fewer), so the gears are nested; a server's
 * gear is the lowest in which any dataset needs it. A failed server wakes the union of its recovery groups in every
 * dataset. {@link #share} is the mean of the datasets' shares (datasets taken as equal in size); a per-dataset read
 * balancer uses {@link #dataset(String)}.
 *
 * <p>Thread-safe: the datasets' layouts are, and the translation cache is an atomic reference.
 */
public final class MultiDatasetLayout implements GearedLayout {
  private final ExpansionChain chain;
  private final DatasetMap map;
  private final Map<String, Dataset> datasets = new LinkedHashMap<>();
  private final ActiveSet[] gears;
  private final int[] gearOf;

  /**
   * @param servers the cluster, in cluster order
   * @param map which dataset each path belongs to; its datasets, default first, are laid out in that order
   * @param primaries p of each dataset's layout
   * @param replicas r of each dataset's layout
   */
  public MultiDatasetLayout(List<Server> servers, DatasetMap map, int primaries, int replicas) {
    this.chain = ExpansionChain.of(servers);
    this.map = map;
    DatasetScores scores = DatasetScores.empty(servers.size(), primaries);
    int maxGear = 0;
    for (String name : map.datasets()) {
      scores = scores.with();
      int[] order = scores.chain(scores.datasets() - 1);
      List<Server> ordered = new ArrayList<>(order.length);
      for (int position : order) {
        ordered.add(servers.get(position));
      }
      Dataset dataset = new Dataset(order, new EqualWorkLayout(ExpansionChain.of(ordered), primaries, 1, replicas));
      datasets.put(name, dataset);
      maxGear = Math.max(maxGear, dataset.layout.maximumGear());
    }
    this.gears = new ActiveSet[maxGear + 1];
    this.gearOf = new int[chain.size()];
    Arrays.fill(gearOf, maxGear);
    for (int gear = maxGear; gear >= 0; gear--) {
      BitSet on = new BitSet(chain.size());
      for (Dataset dataset : datasets.values()) {
        ActiveSet own = dataset.layout.serversOn(Math.min(gear, dataset.layout.maximumGear()));
        for (int p = own.next(0); p >= 0; p = own.next(p + 1)) {
          on.set(dataset.toCluster[p]);
          gearOf[dataset.toCluster[p]] = gear;
        }
      }
      gears[gear] = ActiveSet.of(chain, on);
    }
  }

  @Override
  public String name() {
    return "equal-work/datasets";
  }

  @Override
  public ExpansionChain chain() {
    return chain;
  }

  /** The dataset names, default first. */
  public List<String> datasets() {
    return Collections.unmodifiableList(new ArrayList<>(datasets.keySet()));
  }

  /** The layout of dataset {@code name} (positions in its own chain); an unknown name throws naming the known ones. */
  public EqualWorkLayout dataset(String name) {
    return find(name).layout;
  }

  /** The cluster position of each of dataset {@code name}'s chain positions (its expansion chain, in order). */
  public int[] chainOf(String name) {
    return find(name).toCluster.clone();
  }

  @Override
  public int maximumGear() {
    return gears.length - 1;
  }

  @Override
  public ActiveSet serversOn(int gear) {
    return gears[GearedLayout.checkGear(this, gear)];
  }

  @Override
  public int gearOf(int position) {
    chain.id(position);
    return gearOf[position];
  }

  @Override
  public ActiveSet recoveryGroup(int failed) {
    BitSet wake = new BitSet(chain.size());
    for (Dataset dataset : datasets.values()) {
      ActiveSet own = dataset.layout.recoveryGroup(dataset.toOwn[failed]);
      for (int p = own.next(0); p >= 0; p = own.next(p + 1)) {
        wake.set(dataset.toCluster[p]);
      }
    }
    return ActiveSet.of(chain, wake);
  }

  @Override
  public double share(int position) {
    double sum = 0;
    for (Dataset dataset : datasets.values()) {
      sum += dataset.layout.share(dataset.toOwn[position]);
    }
    return sum / datasets.size();
  }

  @Override
  public BlockPlacement place(BlockRequest request, ActiveSet on) {
    Dataset dataset = datasets.get(map.datasetOf(request.path()));
    BlockPlacement own = dataset.layout.place(request.excluding(dataset.own(request)), dataset.translate(on));
    int[] holders = new int[own.size()];
    int[] homes = new int[own.size()];
    for (int i = 0; i < own.size(); i++) {
      holders[i] = dataset.toCluster[own.holder(i)];
      homes[i] = dataset.toCluster[own.home(i)];
    }
    int[] missing = own.missingHomes();
    for (int i = 0; i < missing.length; i++) {
      missing[i] = dataset.toCluster[missing[i]];
    }
    return new BlockPlacement(chain, holders, homes, missing);
  }

  private Dataset find(String name) {
    Dataset dataset = datasets.get(name);
    if (dataset == null) {
      throw new IllegalArgumentException("unknown dataset " + name + "; the datasets are " + datasets.keySet());
    }
    return dataset;
  }

  /** One dataset: its layout over its own chain and the translation to and from cluster positions. */
  private final class Dataset {
    final int[] toCluster;
    final int[] toOwn;
    final EqualWorkLayout layout;
    final AtomicReference<Object[]> lastOn = new AtomicReference<>();

    Dataset(int[] toCluster, EqualWorkLayout layout) {
      this.toCluster = toCluster;
      this.layout = layout;
      this.toOwn = new int[toCluster.length];
      for (int own = 0; own < toCluster.length; own++) {
        toOwn[toCluster[own]] = own;
      }
    }

    /** {@code on} in this dataset's chain; the last translation is kept, as callers pass the same set many times. */
    ActiveSet translate(ActiveSet on) {
      Object[] cached = lastOn.get();
      if (cached != null && cached[0] == on) {
        return (ActiveSet) cached[1];
      }
      BitSet bits = new BitSet(toOwn.length);
      for (int p = on.next(0); p >= 0; p = on.next(p + 1)) {
        bits.set(toOwn[p]);
      }
      ActiveSet own = ActiveSet.of(layout.chain(), bits);
      lastOn.set(new Object[] {on, own});
      return own;
    }

    /** The request's excluded cluster positions, in this dataset's chain. */
    int[] own(BlockRequest request) {
      int[] excluded = request.excluded();
      for (int i = 0; i < excluded.length; i++) {
        excluded[i] = toOwn[excluded[i]];
      }
      return excluded;
    }
  }
}
