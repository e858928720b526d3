package org.eafr.placement.gear.shift;

/**
 * The answer to a gear request: accepted (the shift started, or the gear already runs) or refused, with the reason an
 * operator reads either way. Immutable.
 */
public final class ShiftAnswer {
  private final boolean accepted;
  private final String text;

  private ShiftAnswer(boolean accepted, String text) {
    this.accepted = accepted;
    this.text = text;
  }

  static ShiftAnswer accepted(String text) {
    return new ShiftAnswer(true, text);
  }

  static ShiftAnswer refused(String why) {
    return new ShiftAnswer(false, why);
  }

  public boolean accepted() {
    return accepted;
  }

  /** What was started, or why nothing was. */
  public String text() {
    return text;
  }

  @Override
  public String toString() {
    return (accepted ? "accepted: " : "refused: ") + text;
  }
}
