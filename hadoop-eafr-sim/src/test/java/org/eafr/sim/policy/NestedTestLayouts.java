package org.eafr.sim.policy;

import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.ReadBalancer;

/**
 * A deliberately simple geared layout for the simulator's own tests (not a paper's): gear g keeps the first
 * p * (g + 1) servers on; block k's primary lives on server k mod p (so gear 0 holds every block), its other replicas
 * on the non-primaries in turn. A replica whose home is off goes to the first server on that does not hold the block.
 */
public final class NestedTestLayouts implements GearedLayout {
  private final ExpansionChain chain;
  private final int p;
  private int next;

  NestedTestLayouts(ExpansionChain chain, int p) {
    this.chain = chain;
    this.p = p;
  }

  @Override
  public String name() {
    return "nested-test";
  }

  @Override
  public ExpansionChain chain() {
    return chain;
  }

  @Override
  public int maximumGear() {
    return (chain.size() + p - 1) / p - 1;
  }

  @Override
  public ActiveSet serversOn(int gear) {
    GearedLayout.checkGear(this, gear);
    return ActiveSet.firstN(chain, Math.min(chain.size(), p * (gear + 1)));
  }

  @Override
  public int gearOf(int position) {
    return position / p;
  }

  @Override
  public synchronized BlockPlacement place(BlockRequest request, ActiveSet on) {
    int k = next++;
    int r = Math.min(request.replication(), chain.size());
    int[] homes = new int[r];
    int[] holders = new int[r];
    homes[0] = k % p;
    for (int i = 1; i < r; i++) {
      homes[i] = p + (k * (r - 1) + i - 1) % (chain.size() - p);
    }
    boolean[] taken = new boolean[chain.size()];
    for (int i = 0; i < r; i++) {
      if (on.contains(homes[i]) && !taken[homes[i]]) {
        holders[i] = homes[i];
      } else {
        int q = on.next(0);
        while (q >= 0 && taken[q]) {
          q = on.next(q + 1);
        }
        holders[i] = q;
      }
      taken[holders[i]] = true;
    }
    return new BlockPlacement(chain, holders, homes);
  }

  @Override
  public ActiveSet recoveryGroup(int failed) {
    return ActiveSet.none(chain);
  }

  @Override
  public double share(int position) {
    return 1.0 / chain.size();
  }

  /** Gears of two servers each. */
  public static GearedLayout twoPerGear(ExpansionChain chain, PolicyEnvironment env) {
    return new NestedTestLayouts(chain, 2);
  }

  /** Reads go to the first holder that is on. */
  public static ReadBalancer firstOn() {
    return (holders, on) -> {
      for (int h : holders) {
        if (on.contains(h)) {
          return h;
        }
      }
      return -1;
    };
  }
}
