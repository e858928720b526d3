package org.eafr.namenode.power;

/**
 * One way of switching one host: its BMC over IPMI or Redfish, a Wake-on-LAN packet, or an operator's script. Every
 * call returns or throws within the driver's command timeout ({@code eafr.power.command-timeout.ms}); a call that
 * returns has been accepted by the BMC, not necessarily carried out: the {@link PowerManager} polls {@link #state()}
 * until the host reaches the state asked for. Drivers keep no state between calls and are not called concurrently for
 * one host (the manager runs one action per node).
 */
public interface PowerDriver {
  /** The driver's name as the inventory spells it: ipmi, redfish, wol, command. */
  String name();

  /**
   * The endpoint the driver talks to (BMC address and port, broadcast address, script): the manager spaces two calls
   * to one endpoint by at least {@code eafr.power.min-command-interval.ms}.
   */
  String endpoint();

  void powerOn() throws PowerException;

  void gracefulOff() throws PowerException;

  void forcedOff() throws PowerException;

  PowerState state() throws PowerException;

  /**
   * The host's draw as its BMC measures it, or {@link PowerReading#notOffered} when the BMC answers that it has no
   * meter (or the driver cannot ask one); throws when the call fails. Each call is one call to {@link #endpoint()}.
   */
  default PowerReading powerReading() throws PowerException {
    return PowerReading.notOffered(name() + " has no power meter");
  }

  /** Sends {@code command} through the matching method. */
  default void send(PowerCommand command) throws PowerException {
    switch (command) {
      case ON:
        powerOn();
        break;
      case GRACEFUL_OFF:
        gracefulOff();
        break;
      case FORCED_OFF:
        forcedOff();
        break;
      default:
        throw new IllegalArgumentException("unknown power command " + command);
    }
  }
}
