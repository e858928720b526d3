package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link PowerSteps} against a controller that runs the power-off guard itself ({@link PowerPort#guardsPowerOff}, as
 * the NameNode's power manager does): a refusal is answered at once; a DataNode not running whose power-off is refused
 * is counted asleep, one running is asked again next step; a failed power-on is not verified and names its error.
 */
class PowerStepsTest {
  private final ShiftFixture fixture = new ShiftFixture();
  private final List<String> sent = new ArrayList<>();
  private Reply answer = Reply.refused("refusing to power off s9: it holds the only live replica of blk_1");

  private final PowerPort guarding = new PowerPort() {
    @Override
    public long send(String host, Power wanted) {
      sent.add(host + " " + wanted);
      return sent.size();
    }

    @Override
    public Reply poll(long ticket) {
      return answer;
    }

    @Override
    public Optional<Power> read(String host) {
      return Optional.empty(); // no BMC to read: only replies verify
    }

    @Override
    public boolean guardsPowerOff() {
      return true;
    }
  };

  @Test
  void aRefusedPowerOff_countsADeadDataNodeAsleepAtOnce_andAsksARunningOneAgain() {
    fixture.cluster.crash("s8", 100);
    PowerSteps steps = new PowerSteps(fixture.cluster::dataNode, guarding, 10);

    boolean first = steps.reach(Set.of("s8", "s9"), Power.OFF, 0);
    String refusal = steps.lastRefusal();
    boolean second = steps.reach(Set.of("s8", "s9"), Power.OFF, 1);

    assertThat(first).isFalse();
    assertThat(second).isFalse();
    assertThat(refusal).isEqualTo("refusing to power off s9: it holds the only live replica of blk_1");
    assertThat(sent).containsExactlyInAnyOrder("s8 OFF", "s9 OFF", "s9 OFF");
    assertThat(steps.reach(Set.of("s8"), Power.OFF, 2)).as("s8, counted asleep, is sent nothing more").isTrue();
    assertThat(sent).hasSize(3);
  }

  @Test
  void aFailedPowerOn_isNotVerified_andNamesItsError() {
    answer = Reply.DONE;
    fixture.cluster.crash("s8", 100);
    PowerSteps steps = new PowerSteps(fixture.cluster::dataNode, guarding, 10);
    steps.reach(Set.of("s8"), Power.OFF, 0);
    assertThat(steps.reach(Set.of("s8"), Power.OFF, 1)).isTrue();
    answer = Reply.failed("BMC refused power on");

    boolean on = steps.reach(Set.of("s8"), Power.ON, 2);
    on |= steps.reach(Set.of("s8"), Power.ON, 3);

    assertThat(on).isFalse();
    assertThat(steps.why("s8")).isEqualTo(Optional.of("power on under way; last error: BMC refused power on"));
  }
}
