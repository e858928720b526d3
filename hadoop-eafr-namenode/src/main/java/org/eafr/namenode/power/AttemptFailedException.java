package org.eafr.namenode.power;

/**
 * A state read that shows the attempt has failed for certain, so the manager ends it now instead of polling until
 * the state timeout: the in-band power agent of a Wake-on-LAN host reported that it could not carry out the sleep
 * request it took (it could not arm Wake-on-LAN, so the host stays up). It counts as a failed attempt.
 */
public final class AttemptFailedException extends PowerException {
  private static final long serialVersionUID = 1L;

  public AttemptFailedException(String message) {
    super(message);
  }
}
