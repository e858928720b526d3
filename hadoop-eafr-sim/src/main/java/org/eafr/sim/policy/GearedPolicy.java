package org.eafr.sim.policy;

import java.util.List;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearDecision;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.ReadBalancer;
import org.eafr.placement.gear.LoadSample;

/**
 * A power-proportional policy: its servers turn off and on as the core's gear controller decides. The
 * simulator owns the physics of the active set (wake latency, power, the copies of cleanup and reflection); the
 * policy owns every decision through the core's classes ({@code org.eafr.placement.gear}: a layout, a read balancer,
 * the gear controller and the offload ledger). One block per file: a file's id is its block id.
 *
 * <p>Order of calls: {@link #start} once, before any file is placed; then {@link #placeNewFile} for the initial files
 * with every server on (the data exists before the run, in its target layout); then {@link #initialOn} gives the
 * servers that stay on at time 0 (the others sleep). During the run {@link #activeSetChanged} follows every change of
 * the servers on, {@link #decide} runs once per control period, and {@link #moved} reports each finished move.
 */
public interface GearedPolicy extends Policy {
  /** Builds the chain, layout and controller over {@code cluster}; {@code perServer} is one server's throughput. */
  void start(ClusterView cluster, LoadSample perServer);

  /** Replicas the layout put off their home because the home was full, so far. */
  default long displacedReplicas() {
    return 0;
  }

  ExpansionChain chain();

  /** The servers on at time 0. */
  ActiveSet initialOn();

  /** The servers on (awake or waking) changed to {@code on}. */
  void activeSetChanged(ActiveSet on);

  /** The gear for the load of the last control period, with the servers on and the failed ones. */
  GearDecision decide(LoadSample load, ActiveSet on, ActiveSet failed);

  /** Moves the layout owes to servers now on: reflection after a gear-up (Accordion), passive migration (SpringFS). */
  List<BlockMove> reflection(ActiveSet on);

  /** A move (cleanup or reflection) has landed. */
  void moved(BlockMove move);

  /** The gear of the last decision. */
  int gear();

  /** The layout, for measurements over its gears. */
  GearedLayout layout();

  /** A fresh read balancer of the policy's kind, with no reads counted (for measurements that must not disturb it). */
  ReadBalancer newBalancer();

  /**
   * The blocks each chain position stores, kept current by the simulator from the start of the run (before the
   * initial placement); policies that read counts keep it.
   */
  default void storedBlocks(org.eafr.placement.gear.StoredBlocks stored) {
  }

  /**
   * The bytes of one copy of the files the run starts with, given before {@link #start}: a layout sized by capacity
   * (eafr.gear.capacity-aware) sizes its primaries to hold it.
   */
  default void catalog(long oneCopyBytes) {
  }

  /** The mean read latency of the last control period in ms (NaN: no read), given before each {@link #decide}. */
  default void readLatency(double meanMs) {
  }

  /** The policy's deferred background work (carbon- and price-aware scheduling), or null when it defers nothing. */
  default org.eafr.placement.grid.DeferredWork deferredWork() {
    return null;
  }

  @Override
  default boolean powerManaged() {
    return true;
  }
}
