package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearServers;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The worked examples of {@link GearShift}, {@link ReflectionSteps} and {@link ShiftState}, step by step. */
class GearShiftTest {
  private final ExpansionChain chain = GearServers.chain(12, 3);
  private final GearedLayout layout = new EqualWorkLayout(chain, 4, 2, 3);
  private final MemoryShiftStore store = new MemoryShiftStore();
  private SimulatedCluster cluster;
  private GearShift shift;

  @BeforeEach
  void cluster() {
    cluster = new SimulatedCluster(chain, new Random(1));
    cluster.replyDelay = 0;
    ActiveSet all = ActiveSet.all(chain);
    for (int b = 0; b < 24; b++) {
      String id = "blk_" + b;
      cluster.addBlock(id, layout.place(BlockRequest.of(id, 3), all).holderIds());
    }
    shift = GearShift.resume(layout, new ShiftPorts(cluster, cluster, cluster, cluster, store),
        new ShiftSettings(1, 3, 4));
  }

  @Test
  void gearDownToZero_entersMaintenanceThenPowersOffTheEightNonPrimaries() {
    ShiftAnswer answer = shift.request(0);

    assertThat(answer.accepted()).isTrue();
    assertThat(shift.state().phase()).isEqualTo(ShiftPhase.ENTERING_MAINTENANCE);
    assertThat(shift.state().sleeping()).containsExactlyInAnyOrder("s4", "s5", "s6", "s7", "s8", "s9", "s10",
        "s11");
    assertThat(phasesOver(3)).containsExactly(ShiftPhase.POWERING_OFF, ShiftPhase.POWERING_OFF, ShiftPhase.STEADY);
    assertThat(cluster.powerCommands()).isEqualTo(8);
    assertThat(shift.state().gear()).isZero();
    assertThat(shift.state().sleeping()).allMatch(id -> !cluster.poweredOn(id));
    assertThat(cluster.violations()).isEmpty();
    assertThat(store.load()).contains(shift.state());
  }

  @Test
  void gearDown_countsALeavingDataNodeThatDiedBeforeMaintenanceAsleepWithNoPowerCommand() {
    cluster.crash("s11", 100);
    cluster.tick();

    shift.request(0);
    List<ShiftPhase> phases = phasesOver(2);
    String news = shift.lastNews();
    phases.addAll(phasesOver(1));

    assertThat(phases).containsExactly(ShiftPhase.POWERING_OFF, ShiftPhase.POWERING_OFF, ShiftPhase.STEADY);
    assertThat(news).startsWith("refusing to power off s11: DataNode s11 is IN_MAINTENANCE but dead, and this"
        + " NameNode never saw it alive in maintenance");
    assertThat(shift.lastNews()).isEqualTo("gear 0 reached; 8 DataNodes asleep");
    assertThat(cluster.powerCommands()).isEqualTo(7);
    assertThat(cluster.poweredOn("s11")).isTrue();
    assertThat(shift.state().sleeping()).contains("s11");
    assertThat(cluster.violations()).isEmpty();
  }

  @Test
  void reflection_movesOneMissingHomePerStepFromTheHolderOnItsRack() {
    shift.request(0);
    phasesOver(3);
    cluster.addBlock("blk_w", List.of("s0", "s1", "s2"));
    shift.written("blk_w", new BlockPlacement(chain, new int[] {0, 1, 2}, new int[] {0, 5, 9}));
    assertThat(store.owes("blk_w")).isTrue();

    shift.request(4);
    List<ShiftPhase> phases = phasesOver(6);

    assertThat(phases).containsExactly(ShiftPhase.POWERING_ON, ShiftPhase.REGISTERING, ShiftPhase.REFLECTING,
        ShiftPhase.REFLECTING, ShiftPhase.REFLECTING, ShiftPhase.STEADY);
    assertThat(cluster.moved()).containsExactly("tick 8: blk_w s2 -> s5", "tick 9: blk_w s1 -> s9");
    assertThat(cluster.holders("blk_w")).containsExactlyInAnyOrder("s0", "s5", "s9");
    assertThat(store.owes("blk_w")).isFalse();
    assertThat(cluster.violations()).isEmpty();
  }

  @Test
  void request_refusesAGearThatDoesNotExistAndASecondShift() {
    assertThat(shift.request(5).text()).isEqualTo("gear 5 does not exist: layout equal-work has gears 0..4");
    shift.request(2);

    ShiftAnswer second = shift.request(0);

    assertThat(second.accepted()).isFalse();
    assertThat(second.text()).isEqualTo("gear 0 refused: a shift to gear 2 is under way (ENTERING_MAINTENANCE);"
        + " ask again once it has finished");
  }

  @Test
  void cancelledGearDown_takesOutOfMaintenanceOnlyTheDataNodesItAdded() {
    ShiftState inGear2 = new ShiftState(2, 2, ShiftPhase.STEADY, Set.of("s8", "s9", "s10", "s11"), Set.of());
    ShiftState down = inGear2.shifting(0, ShiftPhase.ENTERING_MAINTENANCE,
        Set.of("s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11"));

    ShiftState cancelled = down.cancelled();

    assertThat(down.joining()).containsExactly("s4", "s5", "s6", "s7");
    assertThat(cancelled.sleeping()).containsExactly("s10", "s11", "s8", "s9");
    assertThat(cancelled.phase()).isEqualTo(ShiftPhase.STEADY);
    assertThat(cancelled.gear()).isEqualTo(2);
  }

  @Test
  void settings_outOfRangeAreRefusedNamingTheValue() {
    assertThatThrownBy(() -> new ShiftSettings(0, 3, 4)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("moves per step 0 is not allowed: expected >= 1");
    assertThatThrownBy(() -> new ShiftSettings(1, 0, 4)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("power timeout 0 ms, move timeout 4 ms and maintenance stall 4 ms are not allowed: expected"
            + " each >= 1");
    assertThatThrownBy(() -> new ShiftSettings(1, 3, 4, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("power timeout 3 ms, move timeout 4 ms and maintenance stall 0 ms are not allowed: expected"
            + " each >= 1");
  }

  @Test
  void state_survivesItsTextAndDamagedTextIsNamed() {
    ShiftState state = new ShiftState(2, 0, ShiftPhase.ENTERING_MAINTENANCE, Set.of("s4", "s5", "s6"),
        Set.of("s6"), Set.of("s4", "s5"));

    assertThat(state.encode()).isEqualTo("gear=2;target=0;phase=ENTERING_MAINTENANCE;sleeping=s4,s5,s6;waking=s6;"
        + "joining=s4,s5");
    assertThat(ShiftState.decode(state.encode())).isEqualTo(state);
    assertThatThrownBy(() -> ShiftState.decode("gear=2;target=0;phase=SLEEPY;sleeping=;waking=;joining="))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("gear shift state 'gear=2;target=0;phase=SLEEPY;sleeping=;waking=;joining=' is"
            + " damaged: ");
    assertThat(OwedBlock.decode("blk_7;3;s0,s5,s9").homes()).containsExactly("s0", "s5", "s9");
  }

  /** Runs {@code steps} steps (each after a tick of the cluster) and returns the phase after each. */
  private List<ShiftPhase> phasesOver(int steps) {
    List<ShiftPhase> phases = new ArrayList<>();
    for (int s = 0; s < steps; s++) {
      cluster.tick();
      shift.step(cluster.tick);
      phases.add(shift.state().phase());
    }
    return phases;
  }
}
