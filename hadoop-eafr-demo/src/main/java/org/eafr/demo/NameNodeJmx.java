package org.eafr.demo;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * A NameNode's beans as its web server's {@code /jmx?qry=NAME} serves them, read with Jackson: whether it is up, how
 * many DataNodes it sees live, whether it is out of safe mode, and EAFR's own beans. A NameNode that does not answer
 * (not started yet, restarting) is an empty answer, never an exception, so callers can poll.
 */
final class NameNodeJmx {
  static final String EAFR_BEAN = "Hadoop:service=NameNode,name=EafrNameNode";
  /** Hadoop's servlet writes a value not known yet (a gear before the chain is fixed) as NaN, which JSON lacks. */
  private static final ObjectMapper JSON = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .build();
  private static final int TIMEOUT_MILLIS = 5000;

  private final String httpAddress;

  /** {@code httpAddress}: HOST:PORT of {@code dfs.namenode.http-address}. */
  NameNodeJmx(String httpAddress) {
    this.httpAddress = httpAddress;
  }

  /** The bean's attributes, or empty when the NameNode does not answer or has no such bean. */
  Optional<JsonNode> bean(String name) {
    try {
      URL url = new URL("http://" + httpAddress + "/jmx?qry=" + URLEncoder.encode(name, StandardCharsets.UTF_8));
      HttpURLConnection http = (HttpURLConnection) url.openConnection();
      http.setConnectTimeout(TIMEOUT_MILLIS);
      http.setReadTimeout(TIMEOUT_MILLIS);
      try (InputStream in = http.getInputStream()) {
        JsonNode beans = JSON.readTree(in).path("beans");
        return beans.size() == 0 ? Optional.empty() : Optional.of(beans.get(0));
      } finally {
        http.disconnect();
      }
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  boolean up() {
    return bean("Hadoop:service=NameNode,name=NameNodeInfo").isPresent();
  }

  int liveDataNodes() {
    return bean("Hadoop:service=NameNode,name=FSNamesystemState").map(b -> b.path("NumLiveDataNodes").asInt(0))
        .orElse(0);
  }

  /** HDFS's own test: NameNodeInfo's {@code Safemode} is the empty string once the NameNode has left safe mode. */
  boolean outOfSafeMode() {
    return bean("Hadoop:service=NameNode,name=NameNodeInfo").map(b -> b.path("Safemode").asText("?").isEmpty())
        .orElse(false);
  }

  /** An attribute of EAFR's metrics source, e.g. {@code RoundsTotal}; empty before the source is registered. */
  Optional<Long> eafrMetric(String attribute) {
    return bean(EAFR_BEAN).map(b -> b.path(attribute)).filter(JsonNode::isNumber).map(JsonNode::asLong);
  }
}
