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
  void unknownCommand_isRefusedNamingItAndListingTheCommands() {
    assertThatThrownBy(() -> AdminRequest.parse("stauts"))
        .hasMessageStartingWith("unknown command 'stauts'; the commands are:")
        .hasMessageContaining("  status [-json]")
        .hasMessageContaining("roles reload [-json]");
    assertThatThrownBy(() -> AdminRequest.parse("roles")).hasMessageStartingWith("unknown command 'roles'");
  }

  @Test
  void extraOperands_areRefused() {
    assertThatThrownBy(() -> AdminRequest.parse("status", "now"))
        .hasMessageStartingWith("'status' takes no operands, not [now]");
  }

  @Test
  void noCommand_isRefused() {
    assertThatThrownBy(() -> AdminRequest.parse("-json")).hasMessageStartingWith("no command given");
  }
}
