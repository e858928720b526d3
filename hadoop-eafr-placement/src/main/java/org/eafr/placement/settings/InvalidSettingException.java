package org.eafr.placement.settings;

/**
 * A setting whose value is malformed or out of range. The message always names the key, the rejected value and what is
 * allowed, so an operator can fix hdfs-site.xml (or a simulator config) without reading code.
 */
public final class InvalidSettingException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String key;
  private final String value;

  public InvalidSettingException(String key, String value, String allowed) {
    super(key + " = " + value + " is not allowed: " + allowed);
    this.key = key;
    this.value = value;
  }

  public String key() {
    return key;
  }

  public String value() {
    return value;
  }
}
