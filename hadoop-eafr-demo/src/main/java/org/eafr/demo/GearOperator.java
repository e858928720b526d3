package org.eafr.demo;

import java.util.ArrayList;
import java.util.List;

/**
 * The operator of the manual mode, the hand-over to the NameNode's controller in auto mode ({@link #handOver}), and
 * the record of every mode's shifts. At each sample it asks
 * {@code hdfs eafr gear N} for the latest schedule step that is due, once the shift before it has finished (the gear
 * service takes one shift at a time); a refused command is asked again at the next sample, at most
 * {@link #MAX_ATTEMPTS} times. Whoever shifts (this operator or the NameNode's controller), each change of the gear in
 * service ({@link #inService}) is recorded as a shift down or up.
 */
final class GearOperator {
  static final int MAX_ATTEMPTS = 30;

  /** The NameNode's gear went from {@code from} to {@code to} at {@code seconds} into the replay. */
  record Shift(double seconds, int from, int to) {
  }

  /** {@code hdfs eafr gear ARG} asked {@code when} (e.g. "at 372 s"): its exit code and answer. */
  record Command(String when, String arg, int code, String answer) {
  }

  private final ClusterProbe probe;
  private final GearSchedule schedule;
  private final long durationMillis;
  private final List<Shift> shifts = new ArrayList<>();
  private final List<Command> commands = new ArrayList<>();
  private int next;
  private int attempts;
  private int lastGear = -1;

  GearOperator(ClusterProbe probe, GearSchedule schedule, long durationMillis) {
    this.probe = probe;
    this.schedule = schedule;
    this.durationMillis = durationMillis;
  }

  synchronized void tick(long nowMillis, ClusterProbe.View view) {
    tick(nowMillis, nowMillis, view);
  }

  /**
   * One sample at {@code nowMillis} (when a shift is recorded) with the schedule at {@code scheduleMillis}: while the
   * cluster settles before the replay, the schedule stays at its start (manual mode's first step, e.g. gear 0).
   */
  synchronized void tick(long nowMillis, long scheduleMillis, ClusterProbe.View view) {
    if (view == null || view.gear() < 0) {
      return;
    }
    int inService = inService(view);
    if (lastGear >= 0 && inService != lastGear) {
      shifts.add(new Shift(nowMillis / 1000.0, lastGear, inService));
    }
    lastGear = inService;
    while (next + 1 < schedule.steps().size() && due(schedule.steps().get(next + 1), scheduleMillis)) {
      next++; // a later step is due too: the earlier one is moot
      attempts = 0;
    }
    if (next >= schedule.steps().size() || !due(schedule.steps().get(next), scheduleMillis)) {
      return;
    }
    GearSchedule.Step step = schedule.steps().get(next);
    if (view.gear() == step.gear() && view.targetGear() == step.gear()) {
      next++;
      attempts = 0;
      return;
    }
    if (!view.phase().equals("STEADY")) {
      return; // one shift at a time
    }
    ClusterProbe.Answer answer = ask(String.format(java.util.Locale.ROOT, scheduleMillis == nowMillis ? "at %.0f s"
        : "%.0f s into settling", nowMillis / 1000.0), String.valueOf(step.gear()));
    if (answer.code() == 0 || ++attempts >= MAX_ATTEMPTS) {
      next++;
      attempts = 0;
    }
  }

  /**
   * The replay starts {@code settleMillis} after the operator's clock began (the cluster settled first): the shifts
   * recorded so far move before the replay (negative seconds), and the schedule's times count from the replay.
   */
  synchronized void replayStartsAfter(long settleMillis) {
    shifts.replaceAll(shift -> new Shift(shift.seconds() - settleMillis / 1000.0, shift.from(), shift.to()));
  }

  /**
   * Auto mode: {@code hdfs eafr gear auto}, handing the gears to the NameNode's controller; true when it was
   * accepted. The demo asks before it writes its files, so the controller sees every write and read of the run (and
   * does not gear an empty cluster down just before the files arrive).
   */
  synchronized boolean handOver(String when) {
    return ask(when, "auto").code() == 0;
  }

  private ClusterProbe.Answer ask(String when, String arg) {
    ClusterProbe.Answer answer = probe.admin("gear", arg);
    commands.add(new Command(when, arg, answer.code(), answer.text()));
    return answer;
  }

  /** Whether {@code hdfs eafr gear auto} was asked and accepted. */
  synchronized boolean handedOver() {
    return commands.stream().anyMatch(c -> c.arg().equals("auto") && c.code() == 0);
  }

  /**
   * The gear whose DataNodes serve: the NameNode's gear, except during a gear-up's reflection, when the target gear's
   * hosts are already on and back in service (reflection then only moves replicas home).
   */
  static int inService(ClusterProbe.View view) {
    return view.phase().equals("REFLECTING") ? view.targetGear() : view.gear();
  }

  private boolean due(GearSchedule.Step step, long nowMillis) {
    return nowMillis >= step.fraction() * durationMillis;
  }

  synchronized List<Shift> shifts() {
    return List.copyOf(shifts);
  }

  synchronized List<Command> commands() {
    return List.copyOf(commands);
  }

  synchronized long downs() {
    return shifts.stream().filter(s -> s.to() < s.from()).count();
  }

  synchronized long ups() {
    return shifts.stream().filter(s -> s.to() > s.from()).count();
  }

  /**
   * Whether a gear-up is under way and its woken servers are not yet in service: the NameNode's target above its
   * gear, the phase neither STEADY nor REFLECTING (from REFLECTING on the new gear serves; {@link #inService}).
   */
  static boolean gearingUp(ClusterProbe.View view) {
    return view.targetGear() > view.gear() && !view.phase().equals("STEADY") && !view.phase().equals("REFLECTING");
  }
}
