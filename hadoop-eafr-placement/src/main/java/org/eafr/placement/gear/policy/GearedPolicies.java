package org.eafr.placement.gear.policy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.accordion.AccordionLayout;
import org.eafr.placement.gear.eafr.ReadFloor;
import org.eafr.placement.gear.eafr.RoundsReader;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.gear.read.HitRatioBalancer;
import org.eafr.placement.gear.read.ReadOffloadBalancer;
import org.eafr.placement.gear.read.RecentLoad;
import org.eafr.placement.gear.springfs.SpringFsLayout;
import org.eafr.placement.settings.EafrSettings;
import org.eafr.placement.settings.Setting;

/**
 * Every geared policy, one entry each, shared by the simulator and the NameNode: the simulator evaluates exactly these
 * and a NameNode runs whichever {@code eafr.layout} names. Adding one means its parts in the core and an entry here;
 * nothing is found by reflection or by comparing names.
 *
 * <ul>
 *   <li>{@link #RABBIT}: the equal-work layout (Rabbit Sec. 3.1), the hit-ratio read balancer (Sec. 3.2) on the blocks
 *       each server stores, write offloading (Sec. 3.3).</li>
 *   <li>{@link #SPRINGFS}: the equal-work layout with bounded write offloading to an offload set of m servers, read
 *       offloading to the least recently loaded holder, passive migration with T (Xu et al., Sec. 3).</li>
 *   <li>{@link #ACCORDION}: Accordion's groups, the hit-ratio balancer on dealt shares, reflection at gear-up.</li>
 *   <li>{@link #EAFR_GEARED}: the equal-work layout spread over the read floor (eafr.gear.eafr.read-floor), which the
 *       controller never runs below; reads in rounds of each holder's slots.</li>
 * </ul>
 */
public final class GearedPolicies {
  private static final List<Setting<Integer>> EQUAL_WORK_KEYS = List.of(EafrSettings.GEAR_PRIMARIES,
      EafrSettings.GEAR_GROUP_SIZE, EafrSettings.GEAR_REPLICAS);
  private static final List<Setting<Integer>> ACCORDION_KEYS = List.of(EafrSettings.GEAR_ACCORDION_LOWEST_GROUP,
      EafrSettings.GEAR_REPLICAS);

  private static final Map<String, GearedPolicySpec<?>> POLICIES = new LinkedHashMap<>();

  public static final GearedPolicySpec<EqualWorkLayout> RABBIT = register(new GearedPolicySpec<>("rabbit",
      "Rabbit: equal-work layout with gear and recovery groups, hit-ratio read balancer, gear controller",
      EQUAL_WORK_KEYS, GearedPolicies::equalWork,
      (layout, stored) -> new ReadOrdering.Balanced(new HitRatioBalancer(layout, stored)),
      layout -> WritePlacement.rabbit(layout, layout.primaries()), (layout, settings) -> 0, OwedMoves.REFLECTION));

  public static final GearedPolicySpec<SpringFsLayout> SPRINGFS = register(new GearedPolicySpec<>("springfs",
      "SpringFS: equal-work layout with bounded write offloading (offload set m), read offloading, passive migration"
          + " (T = 10), gear controller",
      EQUAL_WORK_KEYS, context -> new SpringFsLayout(equalWork(context),
          RecentLoad.springFs(context.chain().size(), context.clock()), context.random().get(),
          context.settings().get(EafrSettings.GEAR_CAPACITY_HEADROOM)),
      (layout, stored) -> new ReadOrdering.Balanced(new ReadOffloadBalancer(layout.load())), WritePlacement::springFs,
      (layout, settings) -> 0, OwedMoves.PASSIVE_MIGRATION));

  public static final GearedPolicySpec<AccordionLayout> ACCORDION = register(new GearedPolicySpec<>("accordion",
      "Accordion: primaries on every server, each group replicated into the next lower, chained declustering in the"
          + " lowest; low-gear writes reflected at gear-up; gear controller",
      ACCORDION_KEYS, context -> AccordionLayout.from(context.settings(), context.chain(), context.sizedFor()),
      (layout, stored) -> new ReadOrdering.Balanced(new HitRatioBalancer(layout)), WritePlacement::ofLayout,
      (layout, settings) -> 0, OwedMoves.REFLECTION));

  public static final GearedPolicySpec<EqualWorkLayout> EAFR_GEARED = register(new GearedPolicySpec<>("eafr-geared",
      "EAFR on gears: Rabbit's equal-work layout and gear controller with EAFR's adaptive replication (hot extras in"
          + " the lowest gears, cold replicas owed to the gear above), Alg. 3 reads in rounds of each holder's slots,"
          + " and with eafr.gear.eafr.read-floor (0.2 in the gears scenario) a read floor whose servers hold every"
          + " block's replicas and stay on",
      EQUAL_WORK_KEYS, GearedPolicies::floored,
      (layout, stored) -> new ReadOrdering.Rounds(new HitRatioBalancer(layout), new RoundsReader()),
      WritePlacement::ofLayout, (layout, settings) -> readFloor(settings, layout).gear(layout),
      OwedMoves.REFLECTION));

  private GearedPolicies() {
  }

  private static <L extends org.eafr.placement.gear.GearedLayout> GearedPolicySpec<L> register(
      GearedPolicySpec<L> policy) {
    POLICIES.put(policy.name(), policy);
    return policy;
  }

  /** The policy named {@code name}, or empty; the caller refuses an unknown name with its key and {@link #names}. */
  public static Optional<GearedPolicySpec<?>> find(String name) {
    return Optional.ofNullable(POLICIES.get(name));
  }

  /** The names in registration order. */
  public static List<String> names() {
    return List.copyOf(POLICIES.keySet());
  }

  public static List<GearedPolicySpec<?>> entries() {
    return List.copyOf(POLICIES.values());
  }

  /** Rabbit's equal-work layout of the settings (eafr.gear.primaries, group-size, replicas). */
  private static EqualWorkLayout equalWork(LayoutContext context) {
    return EqualWorkLayout.from(context.settings(), context.chain(), context.sizedFor());
  }

  /** The equal-work layout of the settings, spread over the read floor's servers when it has one. */
  private static EqualWorkLayout floored(LayoutContext context) {
    EqualWorkLayout plain = equalWork(context);
    ReadFloor floor = readFloor(context.settings(), plain);
    ExpansionChain chain = context.chain();
    return floor.isOn() ? new EqualWorkLayout(chain, plain.primaries(), plain.groupSize(),
        context.settings().get(EafrSettings.GEAR_REPLICAS), floor.spread(chain.size()), plain.byCapacity(),
        plain.reserveBytes()) : plain;
  }

  /** The read floor of {@code settings} (eafr.gear.eafr.read-floor) for {@code layout}. */
  public static ReadFloor readFloor(EafrSettings settings, EqualWorkLayout layout) {
    return ReadFloor.from(settings, layout.chain().size(), layout.primaries(), layout.groupSize(),
        settings.get(EafrSettings.GEAR_REPLICAS));
  }
}
