package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A reload may not strand a host that is asleep, powering off or waking: dropping it or giving it another driver kind
 * is refused naming it; a new BMC address for it, and any change to a host that is on, are allowed.
 */
class InventoryReloadTest {
  private static final PowerInventory CURRENT = PowerInventory.parse("current", "{\"nodes\": ["
      + "{\"host\": \"dn1\", \"driver\": \"wol\", \"mac\": \"00:11:22:33:44:01\"},"
      + "{\"host\": \"dn2\", \"driver\": \"wol\", \"mac\": \"00:11:22:33:44:02\"}]}");

  @Test
  void aSwitchingOrSleepingHost_keepsItsDriverKind_otherChangesPass() {
    PowerInventory script = PowerInventory.parse("next", "{\"nodes\": ["
        + "{\"host\": \"dn1\", \"driver\": \"command\", \"script\": \"/bin/true\"},"
        + "{\"host\": \"dn2\", \"driver\": \"wol\", \"mac\": \"00:11:22:33:44:02\"}]}");
    assertThatThrownBy(() -> InventoryReload.refuseStranding(CURRENT, script,
        Map.of("dn1", "waking (on under way)")::get))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("host dn1 is waking (on under way), and the new inventory next changes its driver from wol to"
            + " command: the new driver never switched it; wake it first (or let its action end), then reload");
    assertThatCode(() -> InventoryReload.refuseStranding(CURRENT, script, Map.of("dn2", "asleep")::get))
        .as("dn1 is on: its driver may change").doesNotThrowAnyException();

    PowerInventory moved = PowerInventory.parse("moved", "{\"nodes\": ["
        + "{\"host\": \"dn2\", \"driver\": \"wol\", \"mac\": \"00:11:22:33:44:02\", \"address\": \"10.0.0.255\"}]}");
    assertThatThrownBy(() -> InventoryReload.refuseStranding(CURRENT, moved, Map.of("dn1", "powering off")::get))
        .hasMessageStartingWith("host dn1 is powering off, and the new inventory moved drops it");
    assertThatCode(() -> InventoryReload.refuseStranding(CURRENT, moved, Map.of("dn2", "asleep")::get))
        .as("a sleeping host's new broadcast address: its BMC replaced").doesNotThrowAnyException();
  }
}
