package org.eafr.namenode.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.eafr.placement.cluster.ServerRole;
import org.junit.jupiter.api.Test;

class RolesFileTest {
  private static final DataNodeName DN1 = new DataNodeName("10.0.0.1", "dn1.example.com", 9866);
  private static final DataNodeName DN2A = new DataNodeName("10.0.0.2", "dn2.example.com", 9866);
  private static final DataNodeName DN2B = new DataNodeName("10.0.0.2", "dn2.example.com", 9867);
  private static final DataNodeName DN3 = new DataNodeName("10.0.0.3", "dn3.example.com", 9866);

  @Test
  void rolesByHostByHostAndPortAndUnlisted() {
    RolesFile file = RolesFile.parse("roles", List.of(
        "# hot servers",
        "hot dn1.example.com   # by name",
        "standby 10.0.0.2",
        "hot 10.0.0.2:9867",
        "",
        "unlisted standby"));
    assertThat(file.roleOf(DN1)).isEqualTo(ServerRole.HOT);
    assertThat(file.roleOf(DN2A)).isEqualTo(ServerRole.STANDBY);
    assertThat(file.roleOf(DN2B)).isEqualTo(ServerRole.HOT);
    assertThat(file.roleOf(DN3)).isEqualTo(ServerRole.STANDBY);
  }

  @Test
  void indexedLookup_keepsTheScansTieRules() {
    // Host names match in any case, IPs exactly; of two matching HOST:PORT entries the first line wins, of two
    // matching host entries the last one (as when roleOf scanned every entry with DataNodeName.matches).
    RolesFile file = RolesFile.parse("roles", List.of(
        "standby DN1.Example.COM",
        "hot 10.0.0.1",
        "hot dn2.example.com:9866",
        "standby 10.0.0.2:9866",
        "standby 10.0.0.3",
        "hot dn3.example.com",
        "unlisted standby"));
    assertThat(file.roleOf(DN1)).isEqualTo(ServerRole.HOT);
    assertThat(file.roleOf(DN2A)).isEqualTo(ServerRole.HOT);
    assertThat(file.roleOf(DN2B)).isEqualTo(ServerRole.STANDBY);
    assertThat(file.roleOf(DN3)).isEqualTo(ServerRole.HOT);
    assertThat(file.roleOf(new DataNodeName("10.0.0.4", "DN3.EXAMPLE.COM", 9866))).isEqualTo(ServerRole.HOT);
  }

  @Test
  void withoutUnlistedLine_unlistedDataNodesAreHot() {
    RolesFile file = RolesFile.parse("roles", List.of("standby dn3.example.com"));
    assertThat(file.roleOf(DN1)).isEqualTo(ServerRole.HOT);
    assertThat(file.roleOf(DN3)).isEqualTo(ServerRole.STANDBY);
    assertThat(RolesFile.ALL_HOT.roleOf(DN3)).isEqualTo(ServerRole.HOT);
  }

  @Test
  void unknownRole_isRefusedNamingTheLine() {
    assertThatThrownBy(() -> RolesFile.parse("/etc/eafr/roles", List.of("hot dn1", "cold dn3")))
        .hasMessageContaining("roles file /etc/eafr/roles (eafr.roles.file) line 2 'cold dn3' is malformed")
        .hasMessageContaining("'cold' is none of them");
  }

  @Test
  void roleWithoutHosts_isRefused() {
    assertThatThrownBy(() -> RolesFile.parse("r", List.of("standby")))
        .hasMessageContaining("line 1 'standby' is malformed: expected 'standby' followed by at least one HOST");
  }

  @Test
  void hostTwice_isRefused() {
    assertThatThrownBy(() -> RolesFile.parse("r", List.of("hot dn1", "standby dn1")))
        .hasMessageContaining("line 2")
        .hasMessageContaining("dn1 already has role hot");
  }

  @Test
  void badPort_isRefused() {
    assertThatThrownBy(() -> RolesFile.parse("r", List.of("hot dn1:99999")))
        .hasMessageContaining("a port in [1, 65535] after ':' in 'dn1:99999'");
  }

  @Test
  void commaSeparatedHosts_areRefused() {
    assertThatThrownBy(() -> RolesFile.parse("r", List.of("hot dn1,dn2")))
        .hasMessageContaining("'dn1,dn2' is not one");
  }

  @Test
  void secondUnlistedLine_isRefused() {
    assertThatThrownBy(() -> RolesFile.parse("r", List.of("unlisted hot", "unlisted standby")))
        .hasMessageContaining("line 2").hasMessageContaining("at most once");
  }

  @Test
  void everyHostADataNode_passesTheCheck() {
    RolesFile file = RolesFile.parse("r", List.of("hot dn1.example.com 10.0.0.2:9867", "standby 10.0.0.3"));
    assertThat(file.checkNamesDataNodes(List.of(DN1, DN2B, DN3))).isSameAs(file);
  }

  @Test
  void hostThatIsNotADataNode_isRefused() {
    RolesFile file = RolesFile.parse("r", List.of("hot dn1.example.com", "standby dn9.example.com 10.0.0.2:1"));
    assertThatThrownBy(() -> file.checkNamesDataNodes(List.of(DN1, DN2A, DN3)))
        .hasMessageContaining("names hosts that are not DataNodes of this cluster: [dn9.example.com, 10.0.0.2:1]");
  }

  @Test
  void unreadableFile_isRefusedNamingTheKey() {
    Path missing = Path.of("target/no-such-roles-file");
    assertThatThrownBy(() -> RolesFile.read(missing))
        .hasMessageContaining("roles file target/no-such-roles-file (eafr.roles.file) cannot be read");
  }

  @Test
  void emptyFile_orOnlyComments_isRefusedSayingHowToMakeEveryDataNodeHot() {
    for (List<String> lines : List.of(List.<String>of(), List.of("", "# roles to come", "   "))) {
      assertThatThrownBy(() -> RolesFile.parse("r", lines)).as(lines.toString())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("roles file r (eafr.roles.file) is empty: it has no 'hot', 'standby' or 'unlisted' line (a file"
              + " cut short or not yet written?); write 'unlisted hot' to make every DataNode hot, or unset"
              + " eafr.roles.file");
    }
    assertThat(RolesFile.parse("r", List.of("unlisted hot")).roleOf(DN1)).isEqualTo(ServerRole.HOT);
  }

  @Test
  void everyRegisteredDataNodeStandby_isRefusedNamingTheCount_evenWithUnlistedHot() {
    RolesFile file = RolesFile.parse("r", List.of("unlisted hot", "standby dn1.example.com 10.0.0.2 10.0.0.3"));
    assertThat(file.checkNamesDataNodes(List.of(DN1, DN2A, DN2B, DN3))).isSameAs(file);
    assertThatThrownBy(() -> file.checkHotAmong(List.of(DN1, DN2A, DN2B, DN3), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("roles file r (eafr.roles.file) makes none of the 4 registered DataNodes hot (each is standby),"
            + " but eafr.min-hot-replicas = 1 keeps that many replicas of every file on hot DataNodes: name hot ones"
            + " with a 'hot HOST' line");
    assertThat(file.checkHotAmong(List.of(DN1, DN2A, DN2B, DN3), 0)).as("eps = 0 asks for no hot replica")
        .isSameAs(file);
    DataNodeName unlisted = new DataNodeName("10.0.0.4", "dn4.example.com", 9866);
    assertThat(file.checkHotAmong(List.of(DN1, DN2A, DN2B, DN3, unlisted), 1)).as("an unlisted DataNode is hot")
        .isSameAs(file);
  }
}
