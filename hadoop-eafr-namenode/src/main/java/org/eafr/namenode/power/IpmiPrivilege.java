package org.eafr.namenode.power;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The IPMI privilege level the ipmi driver asks its session for ({@code ipmitool -L}): the inventory entry's
 * {@code "privilege"}. OPERATOR is enough for chassis power control and status, so a BMC user limited to it works;
 * ipmitool's own default, ADMINISTRATOR, would fail the session for such a user.
 */
public enum IpmiPrivilege {
  USER, OPERATOR, ADMINISTRATOR;

  /** What an entry without the field asks for. */
  public static final IpmiPrivilege DEFAULT = OPERATOR;

  /** The level named {@code label} (as ipmitool spells it), or null. */
  static IpmiPrivilege of(String label) {
    return Arrays.stream(values()).filter(level -> level.name().equals(label)).findFirst().orElse(null);
  }

  static String labels() {
    return Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", "));
  }
}
