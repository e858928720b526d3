package org.eafr.namenode.power;

/** A power action that reached its state. */
public final class PowerResult {
  private final String host;
  private final PowerCommand command;
  private final boolean changed;
  private final int attempts;
  private final long elapsedMillis;

  PowerResult(String host, PowerCommand command, boolean changed, int attempts, long elapsedMillis) {
    this.host = host;
    this.command = command;
    this.changed = changed;
    this.attempts = attempts;
    this.elapsedMillis = elapsedMillis;
  }

  public String host() {
    return host;
  }

  public PowerCommand command() {
    return command;
  }

  /** The state the host is in now: the command's target. */
  public PowerState state() {
    return command.target();
  }

  /** False when the host was in the target state already and no command was sent. */
  public boolean changed() {
    return changed;
  }

  /** Attempts made, 1 when the first succeeded. */
  public int attempts() {
    return attempts;
  }

  public long elapsedMillis() {
    return elapsedMillis;
  }

  @Override
  public String toString() {
    return host + " " + (changed ? "reached " : "was already ") + state() + " (" + command.label() + ", "
        + attempts + " attempt" + (attempts == 1 ? "" : "s") + ", " + elapsedMillis + " ms)";
  }
}
