package org.eafr.namenode.power.driver;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;

/**
 * A BMC password read from Hadoop's CredentialProvider. It prints as {@code ****} wherever it ends up (a log line,
 * an exception message, a debugger), and {@link #scrub} removes every encoding of it from text a BMC or a tool sent
 * back: the raw value, its URL encodings, its base64, and every token this object handed out that carries it (the
 * base64 {@code user:password} of an HTTP Basic header).
 */
public final class Secret {
  private static final String MASK = "****";

  private final char[] value;
  private final Set<String> handedOut = new CopyOnWriteArraySet<>();

  public Secret(char[] value) {
    this.value = value.clone();
  }

  /** The password itself, for the one place that hands it to a BMC (an environment variable only the tool reads). */
  public String reveal() {
    return new String(value);
  }

  /** The value of an HTTP Basic Authorization header for {@code user}; scrubbed from then on like the password. */
  public String basicAuthorization(String user) {
    String token = Base64.getEncoder().encodeToString((user + ":" + reveal()).getBytes(StandardCharsets.UTF_8));
    handedOut.add(token);
    return "Basic " + token;
  }

  public boolean isEmpty() {
    return value.length == 0;
  }

  /** {@code text} with every encoding of the password (and every token carrying it) replaced by ****. */
  public String scrub(String text) {
    if (text == null || value.length == 0) {
      return text;
    }
    String scrubbed = text;
    for (String form : forms()) {
      scrubbed = scrubbed.replace(form, MASK);
    }
    return scrubbed;
  }

  /** Tokens first and the raw value last, so a longer form is masked whole before a shorter one inside it. */
  private Set<String> forms() {
    String raw = reveal();
    Set<String> forms = new LinkedHashSet<>(handedOut);
    String form = URLEncoder.encode(raw, StandardCharsets.UTF_8);
    forms.add(Base64.getEncoder().encodeToString(raw.getBytes(StandardCharsets.UTF_8)));
    forms.add(Base64.getUrlEncoder().encodeToString(raw.getBytes(StandardCharsets.UTF_8)));
    forms.add(form);
    forms.add(form.replace("+", "%20"));
    forms.add(raw);
    return forms;
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
