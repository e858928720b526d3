package org.eafr.datanode.power;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;

/**
 * The secrets the DataNode's process holds (the values of its settings and environment variables whose names say
 * password, secret or token: keystore passwords, {@code HADOOP_CREDSTORE_PASSWORD}), so that whatever the agent
 * sends off the host (a failed command's output, which may echo anything) carries none of them, in any of the
 * encodings a tool prints (raw, URL-encoded, base64).
 */
final class AgentSecrets {
  private static final Pattern SECRET_NAME = Pattern.compile("(?i).*(password|secret|token).*");
  /** Shorter values would scrub ordinary words ("true", a port). */
  private static final int MIN_LENGTH = 6;
  static final String MASK = "*****";

  private final List<String> encodings = new ArrayList<>();

  /** The secrets of {@code conf} (through {@code Configuration.getPassword}: credential providers first) and of {@code env}. */
  static AgentSecrets of(Configuration conf, Map<String, String> env) {
    AgentSecrets secrets = new AgentSecrets();
    for (Map.Entry<String, String> entry : conf) {
      if (SECRET_NAME.matcher(entry.getKey()).matches()) {
        try {
          char[] value = conf.getPassword(entry.getKey());
          secrets.add(value == null ? entry.getValue() : new String(value));
        } catch (IOException e) {
          secrets.add(entry.getValue());
        }
      }
    }
    env.forEach((name, value) -> {
      if (SECRET_NAME.matcher(name).matches()) {
        secrets.add(value);
      }
    });
    secrets.encodings.sort(Comparator.comparingInt(String::length).reversed()); // a longer one first
    return secrets;
  }

  private void add(String secret) {
    if (secret == null || secret.length() < MIN_LENGTH) {
      return;
    }
    encodings.add(secret);
    encodings.add(URLEncoder.encode(secret, StandardCharsets.UTF_8));
    encodings.add(Base64.getEncoder().encodeToString(secret.getBytes(StandardCharsets.UTF_8)));
  }

  /** {@code text} with every encoding of every secret replaced by {@value #MASK}. */
  String scrub(String text) {
    String scrubbed = text;
    for (String encoding : encodings) {
      scrubbed = scrubbed.replace(encoding, MASK);
    }
    return scrubbed;
  }
}
