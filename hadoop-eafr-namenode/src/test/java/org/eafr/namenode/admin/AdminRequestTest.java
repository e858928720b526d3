package org.eafr.namenode.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AdminRequestTest {
  @Test
  void parsesMultiWordVerbsAndTheJsonFlagAnywhere() {
    AdminRequest request = AdminRequest.parse("-json", "roles", "reload");
    assertThat(request.verb()).isEqualTo(AdminRequest.Verb.ROLES_RELOAD);
    assertThat(request.json()).isTrue();
    assertThat(request.toArgs()).containsExactly("roles", "reload", "-json");
    assertThat(AdminRequest.parse(request.toArgs())).isEqualTo(request);
  }

  @Test
  void readingCommandsChangeNothing_changingOnesAreForTheSuperuser() {
    assertThat(AdminRequest.parse("status").verb().changesState()).isFalse();
    assertThat(AdminRequest.parse("nodes").verb().changesState()).isFalse();
    assertThat(AdminRequest.parse("roles", "reload").verb().changesState()).isTrue();
  }

  @Test
  void unknownCommand_isRefusedNamingIt_andTheNearestCommandOrTheCommandsItBegins() {
    assertThatThrownBy(() -> AdminRequest.parse("stauts")).hasMessage("unknown command 'stauts'; did you mean"
        + " 'status'?");
    assertThatThrownBy(() -> AdminRequest.parse("roles")).hasMessage("unknown command 'roles': 'roles' is followed by"
        + " one of 'hdfs eafr roles reload'");
    assertThatThrownBy(() -> AdminRequest.parse("power", "reboot", "dn1")).hasMessage("unknown command 'power reboot"
        + " dn1': 'power' is followed by one of 'hdfs eafr power on HOST', 'hdfs eafr power off HOST', 'hdfs eafr"
        + " power status HOST', 'hdfs eafr power reload', 'hdfs eafr power clear HOST'");
    assertThatThrownBy(() -> AdminRequest.parse("xyzzy")).hasMessage("unknown command 'xyzzy'");
  }

  @Test
  void wrongOperands_areRefusedSayingWhatTheCommandTakes() {
    assertThatThrownBy(() -> AdminRequest.parse("status", "now"))
        .hasMessage("'status' takes no operands; got 'now'");
    assertThatThrownBy(() -> AdminRequest.parse("gear")).hasMessage("'gear' needs N|up|down|auto: hdfs eafr gear"
        + " N|up|down|auto");
    assertThatThrownBy(() -> AdminRequest.parse("power", "on", "dn1", "dn2")).hasMessage("'power on' needs HOST:"
        + " hdfs eafr power on HOST; got 'dn1 dn2'");
  }

  @Test
  void usage_listsTheOperatorsCommandsAligned_thenTheAgentsApart() {
    String[] lines = AdminRequest.usage().split("\n");
    assertThat(lines[0]).startsWith("  status [-json]  ");
    int agents = java.util.Arrays.asList(lines).indexOf("Used by the DataNode power agent (hadoop-eafr-datanode),"
        + " not by operators:");
    assertThat(agents).isEqualTo(lines.length - 4);
    assertThat(lines[agents + 1]).startsWith("  sleep poll DATANODE-UUID");
    for (String line : java.util.Arrays.asList(lines).subList(0, agents)) {
      {
        assertThat(line.charAt(31)).as("description column of %s", line).isNotEqualTo(' ');
        assertThat(line.charAt(30)).as("gap before the description of %s", line).isEqualTo(' ');
      }
    }
  }

  @Test
  void noCommand_isRefused() {
    assertThatThrownBy(() -> AdminRequest.parse("-json")).hasMessageStartingWith("no command given");
  }

  @Test
  void gearOperand_isANumberFromZero_orOneOfTheWords_withTheNearestWordForAMisspelling() {
    assertThat(AdminRequest.parse("gear", "0").operands()).containsExactly("0");
    assertThat(AdminRequest.parse("gear", "auto", "-json").operands()).containsExactly("auto");
    assertThatThrownBy(() -> AdminRequest.parse("gear", "abc")).isInstanceOf(AdminRequest.UsageException.class)
        .hasMessage("'gear abc' is not allowed: expected N|up|down|auto (N a gear number, 0 or more)")
        .satisfies(e -> assertThat(((AdminRequest.UsageException) e).meant())
            .containsExactly(AdminRequest.Verb.GEAR));
    assertThatThrownBy(() -> AdminRequest.parse("gear", "-1")).hasMessageStartingWith("'gear -1' is not allowed");
    assertThatThrownBy(() -> AdminRequest.parse("gear", "dwon")).hasMessageEndingWith("; did you mean 'down'?");
    assertThat(AdminRequest.parse("power", "on", "dn1.example.com").operands()).containsExactly("dn1.example.com");
  }

  @Test
  void unknownOption_isRefusedWithTheNearestOption() {
    assertThatThrownBy(() -> AdminRequest.parse("status", "-jsno")).isInstanceOf(AdminRequest.UsageException.class)
        .hasMessage("unknown option '-jsno'; did you mean '-json'?");
    assertThatThrownBy(() -> AdminRequest.parse("--json", "status")).hasMessage("unknown option '--json'; did you"
        + " mean '-json'?");
    assertThatThrownBy(() -> AdminRequest.parse("status", "-verbose")).hasMessage("unknown option '-verbose'; the"
        + " options are [-json, -namenode, -timeout, -help]");
  }

  @Test
  void misspelledCommand_meansTheNearestCommands_aFirstWordMeansTheCommandsItBegins() {
    assertThatThrownBy(() -> AdminRequest.parse("gera", "3")).satisfies(e -> assertThat(
        ((AdminRequest.UsageException) e).meant()).containsExactly(AdminRequest.Verb.GEAR));
    assertThatThrownBy(() -> AdminRequest.parse("gera", "cancel")).satisfies(e -> assertThat(
        ((AdminRequest.UsageException) e).meant()).containsExactly(AdminRequest.Verb.GEAR_CANCEL));
    assertThat(AdminRequest.parse("gear", "cancel", "-json").verb()).isEqualTo(AdminRequest.Verb.GEAR_CANCEL);
    assertThatThrownBy(() -> AdminRequest.parse("power")).satisfies(e -> assertThat(
        ((AdminRequest.UsageException) e).meant()).containsExactly(AdminRequest.Verb.POWER_ON,
            AdminRequest.Verb.POWER_OFF, AdminRequest.Verb.POWER_STATUS, AdminRequest.Verb.POWER_RELOAD,
            AdminRequest.Verb.POWER_CLEAR));
    assertThatThrownBy(() -> AdminRequest.parse("xyzzy")).satisfies(e -> assertThat(
        ((AdminRequest.UsageException) e).meant()).isEmpty());
  }
}
