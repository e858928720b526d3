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
import java.util.function.BooleanSupplier;

/**
 * A NameNode's beans as its web server's {@code /jmx?qry=NAME} serves them, read with Jackson: whether it is up, how
 * many DataNodes it sees live, whether it is out of safe mode, and EAFR's own beans. A NameNode that does not answer
 * (not started yet, restarting) is an empty answer, never an exception, so callers can poll.
 *
 * <p>{@code NameNodeJmx HOST:PORT N SECONDS} ({@code scripts/bench/incast.sh}) waits until that NameNode sees N live
 * DataNodes and has left safe mode; exit code 1, naming what it waited for, when SECONDS pass first.
 */
public final class NameNodeJmx {
  static final String EAFR_BEAN = "Hadoop:service=NameNode,name=EafrNameNode";
  /** Hadoop's servlet writes a value not known yet (a gear before the chain is fixed) as NaN, which JSON lacks. */
  private static final ObjectMapper JSON = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .build();
  private static final int TIMEOUT_MILLIS = 5000;

  private final String httpAddress;

  public static void main(String[] args) throws InterruptedException {
    System.exit(new NameNodeJmx(args[0]).ready("[jmx]", Integer.parseInt(args[1]), Integer.parseInt(args[2])) ? 0 : 1);
  }

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

  /** Waits until the NameNode sees {@code dataNodes} live DataNodes and has left safe mode. */
  boolean ready(String who, int dataNodes, int seconds) throws InterruptedException {
    return poll(who, seconds, dataNodes + " live DataNodes", () -> liveDataNodes() == dataNodes)
        && poll(who, seconds, "the NameNode to leave safe mode", this::outOfSafeMode);
  }

  /** Polls every half second until {@code condition} holds or {@code seconds} pass (then says what it waited for). */
  static boolean poll(String who, int seconds, String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        System.err.println(who + " timed out after " + seconds + " s waiting for " + what);
        return false;
      }
      Thread.sleep(500);
    }
    return true;
  }
}
