package org.eafr.datanode.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.eafr.datanode.power.SleepAnswer.Decision.Action;
import org.eafr.namenode.admin.AdminHandler;
import org.eafr.namenode.admin.AdminRequest;
import org.eafr.namenode.admin.SleepAnswerLine;
import org.junit.jupiter.api.Test;

class SleepAnswerTest {
  private static final String LINE = "eafr-sleep/1 datanode=u-1 name=dn5/10.0.0.5:9866 admin-state=IN_MAINTENANCE"
      + " alive=true request=graceful-off host=dn5";

  @Test
  void parsesTheLineTheNameNodeWrites() {
    String line = SleepAnswerLine.encode("u-1", "dn5/10.0.0.5:9866", "IN_MAINTENANCE", true, "graceful-off", "dn5");
    assertThat(line).isEqualTo(LINE);
    SleepAnswer parsed = SleepAnswer.parse(line);
    assertThat(parsed.toString()).isEqualTo(LINE);
    assertThat(parsed.alive()).isTrue();
    assertThat(parsed.hasRequest()).isTrue();
    assertThat(SleepAnswer.parse(SleepAnswerLine.encode("u-1", "n", "NORMAL", false, SleepAnswerLine.NO_REQUEST,
        SleepAnswerLine.NO_HOST)).hasRequest()).isFalse();
  }

  @Test
  void asksTheNameNodesHandlerWithItsCommands() {
    assertThat(SleepAnswer.IDENTIFIER).isEqualTo(AdminHandler.IDENTIFIER);
    assertThat(SleepAnswer.SENDER_PREFIX).isEqualTo(AdminHandler.class.getName() + "@");
    assertThat(String.join(" ", SleepAnswer.POLL)).isEqualTo(AdminRequest.Verb.SLEEP_POLL.words());
    assertThat(String.join(" ", SleepAnswer.TAKE)).isEqualTo(AdminRequest.Verb.SLEEP_TAKE.words());
    assertThat(String.join(" ", SleepAnswer.FAILED)).isEqualTo(AdminRequest.Verb.SLEEP_FAILED.words());
    assertThat(SleepAnswer.HEADER).isEqualTo(SleepAnswerLine.HEADER);
    assertThat(SleepAnswer.NO_REQUEST).isEqualTo(SleepAnswerLine.NO_REQUEST);
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
    assertThatThrownBy(() -> SleepAnswerLine.encode("u 1", "n", "NORMAL", true, "none", "-"))
        .hasMessage("sleep answer field datanode must be one word, not 'u 1'");
  }
}
