package org.eafr.placement.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.eafr.placement.agent.SleepAnswer.Decision.Action;
import org.junit.jupiter.api.Test;

class SleepAnswerTest {
  private static final String LINE = "eafr-sleep/1 datanode=u-1 name=dn5/10.0.0.5:9866 admin-state=IN_MAINTENANCE"
      + " alive=true request=graceful-off host=dn5";

  @Test
  void encodesAndParsesTheSameLine() {
    SleepAnswer answer = new SleepAnswer("u-1", "dn5/10.0.0.5:9866", "IN_MAINTENANCE", true, "graceful-off", "dn5");
    assertThat(answer.encode()).isEqualTo(LINE);
    SleepAnswer parsed = SleepAnswer.parse(LINE);
    assertThat(parsed.encode()).isEqualTo(LINE);
    assertThat(parsed.alive()).isTrue();
    assertThat(parsed.hasRequest()).isTrue();
  }

  @Test
  void sleepsOnlyOnItsOwnRequestInMaintenance() {
    assertThat(SleepAnswer.parse(LINE).decideFor("u-1").action()).isEqualTo(Action.SLEEP);
    assertThat(SleepAnswer.parse(LINE).decideFor("u-2").toString())
        .isEqualTo("IGNORE: the answer is about DataNode u-1 (dn5/10.0.0.5:9866), not this one (u-2)");
    assertThat(SleepAnswer.parse(LINE.replace("graceful-off", "none")).decideFor("u-1").action())
        .isEqualTo(Action.STAY);
    assertThat(SleepAnswer.parse(LINE.replace("IN_MAINTENANCE", "NORMAL")).decideFor("u-1").toString())
        .isEqualTo("REFUSE: the NameNode asks dn5/10.0.0.5:9866 to sleep (graceful-off, host dn5) but shows it"
            + " NORMAL, not IN_MAINTENANCE: its blocks may have no other live replica, so it stays up");
    assertThat(SleepAnswer.parse(LINE.replace("IN_MAINTENANCE", "ENTERING_MAINTENANCE")).decideFor("u-1").action())
        .isEqualTo(Action.REFUSE);
  }

  @Test
  void refusesLinesThatAreNotSleepAnswers() {
    assertThatThrownBy(() -> SleepAnswer.parse("EAFR roles reloaded from x"))
        .hasMessageStartingWith("not an EAFR sleep answer (expected it to start with eafr-sleep/1)");
    assertThatThrownBy(() -> SleepAnswer.parse(LINE.replace(" host=dn5", "")))
        .hasMessageStartingWith("malformed EAFR sleep answer: no field host");
    assertThatThrownBy(() -> SleepAnswer.parse(LINE + " request=forced-off"))
        .hasMessageStartingWith("malformed EAFR sleep answer: field 'request=forced-off'");
    assertThatThrownBy(() -> new SleepAnswer("u 1", "n", "NORMAL", true, "none", "-"))
        .hasMessage("sleep answer field datanode must be one word, not 'u 1'");
  }
}
