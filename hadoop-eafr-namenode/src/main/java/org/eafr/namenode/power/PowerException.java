package org.eafr.namenode.power;

import java.io.IOException;

/**
 * A power command or state read that failed: the BMC refused it, did not answer within the command timeout, or the
 * host never reached the state asked for. Messages name the node, the driver and the BMC, never a password.
 */
public class PowerException extends IOException {
  private static final long serialVersionUID = 1L;

  public PowerException(String message) {
    super(message);
  }

  public PowerException(String message, Throwable cause) {
    super(message, cause);
  }
}
