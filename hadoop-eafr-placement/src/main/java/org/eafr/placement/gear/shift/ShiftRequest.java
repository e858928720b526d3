package org.eafr.placement.gear.shift;

import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.GearDecision;
import org.eafr.placement.gear.GearedLayout;

/**
 * A gear request's two pure halves, shared by {@link GearShift#request} and the NameNode's gear service so that both
 * answer alike: what is answered before the controller is asked (a gear that does not exist, a shift under way,
 * the gear already in force), and the state a shift the controller allowed starts in (Rabbit Sec. 3: a gear-down puts
 * every server the target gear does not keep on to sleep, except the recovery groups of failed servers the decision
 * keeps on, Sec. 3.5).
 *
 * <p>Worked example ({@code GearShiftGateTest}): asked for gear 2 while a gear-up to 4 reflects with reflection held
 * by the grid gate, the answer is "gear 2 refused: a shift to gear 4 is under way (REFLECTING, reflection held for
 * the grid released now); ask again once it has finished", and the gate stops holding.
 */
public final class ShiftRequest {
  private ShiftRequest() {
  }

  /**
   * The answer to a request for gear {@code requested} in {@code state} before the controller is asked; empty when a
   * shift may start. A gear-down asked while {@code gate} holds reflection releases it.
   */
  public static Optional<ShiftAnswer> before(GearedLayout layout, ShiftState state, int requested,
      ReflectionGate gate) {
    if (requested < 0 || requested > layout.maximumGear()) {
      return Optional.of(ShiftAnswer.refused("gear " + requested + " does not exist: layout " + layout.name()
          + " has gears 0.." + layout.maximumGear()));
    }
    if (state.phase() != ShiftPhase.STEADY) {
      boolean released = state.phase() == ShiftPhase.REFLECTING && requested < state.target()
          && gate.releaseForGearDown(); // held reflection must end before the gear-down can start
      return Optional.of(ShiftAnswer.refused("gear " + requested + " refused: a shift to gear " + state.target()
          + " is under way (" + state.phase() + (released ? ", reflection held for the grid released now" : "")
          + "); ask again once it has finished"));
    }
    return requested == state.gear() ? Optional.of(ShiftAnswer.accepted("already in gear " + requested))
        : Optional.empty();
  }

  /**
   * The state a shift to {@code requested} starts in, once the controller allowed it with {@code decision}: a
   * gear-down adds the servers the target gear does not keep on (less those the decision keeps on, and those
   * {@code outOfLayout}) to the sleeping ones and enters maintenance; a gear-up powers on.
   */
  public static ShiftState start(GearedLayout layout, ShiftState state, int requested, GearDecision decision,
      Predicate<String> outOfLayout) {
    if (requested >= state.gear()) {
      return state.shifting(requested, ShiftPhase.POWERING_ON, state.sleeping());
    }
    Set<String> sleeping = new TreeSet<>(state.sleeping());
    for (String id : ActiveSet.all(layout.chain()).minus(layout.serversOn(requested)).minus(decision.staysOn())
        .ids()) {
      if (!outOfLayout.test(id)) {
        sleeping.add(id);
      }
    }
    return state.shifting(requested, ShiftPhase.ENTERING_MAINTENANCE, sleeping);
  }
}
