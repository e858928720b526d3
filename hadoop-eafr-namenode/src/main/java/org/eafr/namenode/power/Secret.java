package org.eafr.namenode.power;

import java.util.Arrays;

/**
 * A BMC password read from Hadoop's CredentialProvider. It prints as {@code ****} wherever it ends up (a log line,
 * an exception message, a debugger), and {@link #scrub} removes it from text a BMC or a tool sent back.
 */
public final class Secret {
  private static final String MASK = "****";

  private final char[] value;

  public Secret(char[] value) {
    this.value = value.clone();
  }

  /** The password itself, for the one place that hands it to a BMC (an environment variable, an HTTP header). */
  public String reveal() {
    return new String(value);
  }

  public boolean isEmpty() {
    return value.length == 0;
  }

  /** {@code text} with every occurrence of the password replaced by ****. */
  public String scrub(String text) {
    if (text == null || value.length == 0) {
      return text;
    }
    return text.replace(reveal(), MASK);
  }

  @Override
  public String toString() {
    return MASK;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Secret && Arrays.equals(value, ((Secret) other).value);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(value);
  }
}
