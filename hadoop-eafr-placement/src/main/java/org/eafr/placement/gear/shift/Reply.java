package org.eafr.placement.gear.shift;

import java.util.Objects;

/**
 * The answer so far to an asynchronous command (a power action, a block move): under way, done, or failed with the
 * driver's reason. A command whose reply never comes (a hung BMC) stays {@link #PENDING}; the state machine times it
 * out with its own clock. Immutable.
 */
public final class Reply {
  public static final Reply PENDING = new Reply(Kind.PENDING, "");
  public static final Reply DONE = new Reply(Kind.DONE, "");

  /** What became of the command. */
  public enum Kind {
    PENDING,
    DONE,
    FAILED,
    /** The controller refused to send it, on safety grounds (its own power-off guard): nothing reached the host. */
    REFUSED
  }

  private final Kind kind;
  private final String reason;

  private Reply(Kind kind, String reason) {
    this.kind = kind;
    this.reason = reason;
  }

  public static Reply failed(String reason) {
    return new Reply(Kind.FAILED, Objects.requireNonNull(reason, "reason"));
  }

  public static Reply refused(String reason) {
    return new Reply(Kind.REFUSED, Objects.requireNonNull(reason, "reason"));
  }

  public Kind kind() {
    return kind;
  }

  /** Why it failed or was refused; "" otherwise. */
  public String reason() {
    return reason;
  }

  @Override
  public String toString() {
    return reason.isEmpty() ? kind.name() : kind.name() + ": " + reason;
  }
}
