package org.eafr.placement.gear.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.StoredBlocks;
import org.eafr.placement.gear.accordion.AccordionLayout;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.gear.read.HitRatioBalancer;
import org.eafr.placement.gear.read.ReadOffloadBalancer;
import org.eafr.placement.gear.springfs.SpringFsLayout;
import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class GearedPoliciesTest {
  private static final Clock CLOCK = Clock.fixed(Instant.EPOCH, ZoneOffset.UTC);

  private static ExpansionChain chain(int servers) {
    List<Server> list = new ArrayList<>();
    for (int i = 0; i < servers; i++) {
      list.add(Server.builder(String.format("s%03d", i)).rack("/r" + (i % 3)).build());
    }
    return ExpansionChain.rackInterleaved(list);
  }

  private static LayoutContext context(EafrSettings settings, int servers) {
    return new LayoutContext(settings, chain(servers), servers, CLOCK, () -> new Random(7));
  }

  /** p = 4, g = 2 (gears of 4, 6, 8, 10, 12 servers on 12); Accordion's lowest group 3. */
  private static EafrSettings twelveServerShape() {
    return EafrSettings.defaults().toBuilder().set(EafrSettings.GEAR_PRIMARIES, 4).set(EafrSettings.GEAR_GROUP_SIZE, 2)
        .set(EafrSettings.GEAR_ACCORDION_LOWEST_GROUP, 3).build();
  }

  static List<GearedPolicySpec<?>> policies() {
    return GearedPolicies.entries();
  }

  @Test
  void registry_listsTheSimulatorsGearedPolicies_inOrder_andFindsThemByName() {
    assertThat(GearedPolicies.names()).containsExactly("rabbit", "springfs", "accordion", "eafr-geared");
    assertThat(GearedPolicies.find("springfs")).contains(GearedPolicies.SPRINGFS);
    assertThat(GearedPolicies.find("equal-work")).isEmpty();
  }

  @ParameterizedTest
  @MethodSource("policies")
  void everyPolicy_buildsItsPartsOnOneChain_andPlacesANewBlockOnServersOn(GearedPolicySpec<?> policy) {
    EafrSettings settings = twelveServerShape();
    GearedParts parts = policy.build(context(settings, 12), StoredBlocks.NONE);

    assertThat(parts.policy()).isSameAs(policy);
    assertThat(parts.layout().chain().size()).isEqualTo(12);
    assertThat(parts.lowestGear()).isZero();
    ActiveSet on = parts.layout().serversOn(parts.layout().maximumGear());
    BlockPlacement placement = parts.writes().place(BlockRequest.of("b", 3), on);
    assertThat(placement.size()).isEqualTo(3);
    for (int i = 0; i < placement.size(); i++) {
      assertThat(on.contains(placement.holder(i))).isTrue();
    }
    assertThat(policy.shapeKeys()).contains(EafrSettings.GEAR_REPLICAS);
  }

  @Test
  void parts_areTheCoreClassesOfEachPolicy() {
    EafrSettings settings = twelveServerShape();
    assertThat(GearedPolicies.RABBIT.build(context(settings, 12), StoredBlocks.NONE).reads().balancer())
        .isInstanceOf(HitRatioBalancer.class);
    GearedParts springFs = GearedPolicies.SPRINGFS.build(context(settings, 12), StoredBlocks.NONE);
    assertThat(springFs.layout()).isInstanceOf(SpringFsLayout.class);
    assertThat(springFs.reads().balancer()).isInstanceOf(ReadOffloadBalancer.class);
    assertThat(GearedPolicies.ACCORDION.build(context(settings, 12), StoredBlocks.NONE).layout())
        .isInstanceOf(AccordionLayout.class);
    GearedParts geared = GearedPolicies.EAFR_GEARED.build(context(settings, 12), StoredBlocks.NONE);
    assertThat(geared.layout()).isInstanceOf(EqualWorkLayout.class);
    assertThat(geared.reads()).isInstanceOf(ReadOrdering.Rounds.class);
    assertThat(GearedPolicies.SPRINGFS.owedMoves()).isEqualTo(OwedMoves.PASSIVE_MIGRATION);
    assertThat(GearedPolicies.SPRINGFS.owedMoves().migration(settings, 1.0)).isPresent();
    assertThat(GearedPolicies.RABBIT.owedMoves().migration(settings, 1.0)).isEmpty();
  }

  /** ReadFloor's worked example: N = 300, p = 40, g = 1, r = 3, f_L = 0.2: the floor gear is 20. */
  @Test
  void eafrGeared_runsNoLowerThanTheReadFloorsGear() {
    EafrSettings settings = EafrSettings.defaults().toBuilder().set(EafrSettings.GEAR_PRIMARIES, 40)
        .set(EafrSettings.GEAR_GROUP_SIZE, 1).set(EafrSettings.GEAR_REPLICAS, 3)
        .set(EafrSettings.GEAR_EAFR_READ_FLOOR, 0.2).build();

    GearedParts parts = GearedPolicies.EAFR_GEARED.build(context(settings, 300), StoredBlocks.NONE);

    assertThat(parts.lowestGear()).isEqualTo(20);
    assertThat(parts.layout().serversOn(20).size()).isEqualTo(60);
  }

  /** OffloadSetSize's worked example scaled: 800 MB/s of primary writes against 100 MB/s per server gives m = 8. */
  @Test
  void springFs_writeLoadSetsTheOffloadSet() {
    EafrSettings settings = twelveServerShape();
    SpringFsLayout layout = GearedPolicies.SPRINGFS.layout(context(settings, 30));
    WritePlacement writes = GearedPolicies.SPRINGFS.writes(layout);
    assertThat(layout.offloadSet()).isEqualTo(4);

    writes.writeLoad(800e6, 100e6);
    assertThat(layout.offloadSet()).isEqualTo(8);
    writes.writeLoad(80e6, 100e6);
    assertThat(layout.offloadSet()).isEqualTo(4);
  }

  /** Rabbit Sec. 3.3: with W = 2 p w, half the primary replicas go past the p primaries. */
  @Test
  void rabbit_writeLoadOffloadsTheShareThePrimariesCannotAbsorb() {
    EafrSettings settings = twelveServerShape();
    EqualWorkLayout layout = GearedPolicies.RABBIT.layout(context(settings, 12));
    WritePlacement writes = GearedPolicies.RABBIT.writes(layout);
    ActiveSet all = ActiveSet.all(layout.chain());
    writes.writeLoad(800e6, 100e6);

    int offloaded = 0;
    for (int i = 0; i < 100; i++) {
      if (writes.place(BlockRequest.of("b" + i, 3), all).holder(0) >= 4) {
        offloaded++;
      }
    }
    assertThat(offloaded).isEqualTo(50);
  }

  /** RoundsReader's worked example over arrays: A (/r1, 12 of 10), B (/r2, 14 of 20), C (/r2, 3 of 5): B. */
  @Test
  void rounds_chooseTheFewestRoundsOfWait_overArrays() {
    ReadOrdering rounds = GearedPolicies.EAFR_GEARED.build(context(EafrSettings.defaults(), 12), StoredBlocks.NONE)
        .reads();
    ReadCandidates candidates = new ReadCandidates("/r1", new int[] {0, 1, 2}, new String[] {"/r1", "/r2", "/r2"},
        new int[] {12, 14, 3}, new int[] {10, 20, 5}, 3, ActiveSet.all(chain(12)));

    assertThat(rounds.first(candidates)).isEqualTo(1);
  }

  /** The balancer chooses among chain positions; a candidate outside the chain (-1) is never chosen. */
  @Test
  void balanced_mapsTheBalancersChoiceBackToItsCandidate() {
    EafrSettings settings = twelveServerShape();
    GearedParts parts = GearedPolicies.SPRINGFS.build(context(settings, 12), StoredBlocks.NONE);
    ActiveSet all = ActiveSet.all(parts.layout().chain());
    // SpringFS read offloading: equal (no) load, ties go to the higher-numbered server: position 9, index 2.
    ReadCandidates candidates = new ReadCandidates(null, new int[] {-1, 1, 9, 5}, new String[] {"/x", "/r1", "/r0",
        "/r2"}, new int[4], new int[] {1, 1, 1, 1}, 4, all);

    assertThat(parts.reads().first(candidates)).isEqualTo(2);
    assertThat(parts.reads().first(new ReadCandidates(null, new int[] {-1}, new String[] {"/x"}, new int[1],
        new int[] {1}, 1, all))).isEqualTo(-1);
  }
}
