package org.eafr.namenode.grid;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.eafr.placement.grid.GridSignal;
import org.eafr.placement.settings.InvalidSettingException;
import org.eafr.placement.settings.Range;
import org.eafr.placement.settings.Setting;

/**
 * The grid signal of {@code eafr.grid.signal.url}, a URL answering in the UK Carbon Intensity API's JSON format
 * ({@code {"data": [{"from": "2026-01-01T00:00Z", "to": "2026-01-01T00:30Z", "intensity": {"forecast": 200,
 * "actual": 195, "index": "moderate"}}, ...]}}, e.g. {@code https://api.carbonintensity.org.uk/intensity/date} or its
 * {@code /intensity/{from}/fw48h}), fetched at most every {@code eafr.grid.signal.poll.ms} when the signal is asked
 * for. Each entry becomes a slot: carbon is {@code actual} (the forecast where the API has no actual yet, as for
 * slots ahead), the forecast is {@code forecast} (the actual where it has none); a slot without either is a gap
 * ({@link CarbonIntensityJson}). An HTTP answer other than 200, a connection that fails, malformed JSON or JSON not in
 * this format gives no signal and a {@link #problem()} saying why, until a later poll succeeds: the scheduler then
 * falls back to energy only. The same answer polled again gives the same signal object (nothing is rebuilt).
 * Thread-safe.
 */
public final class GridSignalUrl implements GridSource {
  /** The key naming the URL; empty: no URL. */
  public static final String KEY = "eafr.grid.signal.url";
  public static final Setting<Long> POLL_MS = Setting.ofLong("eafr.grid.signal.poll.ms", "-",
      "How often eafr.grid.signal.url is fetched (at most; only while the signal is asked for), in milliseconds.",
      1_800_000L, Range.closed(1_000L, 86_400_000L));
  private static final int TIMEOUT_MS = 10_000;
  /** The most bytes of an answer read: a week of half-hours is about 60 KB. */
  private static final int MAX_BYTES = 8 << 20;

  private final URI uri;
  private final long pollMillis;
  private volatile LongSupplier clock = System::currentTimeMillis;
  private long polledAt;
  private boolean polled;
  private String body;
  private GridSignal signal;
  private String problem;

  /**
   * @param location an http or https URL
   * @throws InvalidSettingException naming {@link #KEY} when it is not one
   */
  public GridSignalUrl(String location, long pollMillis) {
    this.uri = parse(location);
    this.pollMillis = pollMillis;
    this.problem = "the signal URL " + uri + " has not been fetched yet";
  }

  /** Checks {@code location} as {@link #KEY}'s value: an http or https URL with a host. */
  public static URI parse(String location) {
    String allowed = "an http:// or https:// URL answering in the Carbon Intensity API's JSON format, such as"
        + " https://api.carbonintensity.org.uk/intensity/date";
    try {
      URI parsed = new URI(location == null ? "" : location.trim());
      if (!("http".equals(parsed.getScheme()) || "https".equals(parsed.getScheme())) || parsed.getHost() == null) {
        throw new InvalidSettingException(KEY, location, allowed);
      }
      return parsed;
    } catch (URISyntaxException e) {
      throw new InvalidSettingException(KEY, location, allowed);
    }
  }

  /** The time polls are spaced by (epoch milliseconds); tests move it. */
  public void clock(LongSupplier now) {
    this.clock = Objects.requireNonNull(now, "now");
  }

  @Override
  public boolean configured() {
    return true;
  }

  @Override
  public synchronized Optional<GridSignal> current() {
    long now = clock.getAsLong();
    if (!polled || now - polledAt >= pollMillis) {
      polled = true;
      polledAt = now;
      poll();
    }
    return Optional.ofNullable(signal);
  }

  @Override
  public synchronized String problem() {
    return problem;
  }

  private void poll() {
    try {
      String answer = fetch();
      if (signal == null || !answer.equals(body)) {
        signal = CarbonIntensityJson.signal(answer, uri.toString());
        body = answer;
      }
      problem = null;
    } catch (IOException e) {
      failed("the signal URL " + uri + " cannot be read: " + e.getMessage());
    } catch (IllegalArgumentException e) {
      failed("the signal URL " + uri + " gave no grid signal: " + e.getMessage());
    }
  }

  private void failed(String why) {
    signal = null;
    body = null;
    problem = why;
  }

  private String fetch() throws IOException {
    HttpURLConnection connection = (HttpURLConnection) uri.toURL().openConnection();
    connection.setConnectTimeout(TIMEOUT_MS);
    connection.setReadTimeout(TIMEOUT_MS);
    connection.setRequestProperty("Accept", "application/json");
    try {
      int status = connection.getResponseCode();
      if (status != HttpURLConnection.HTTP_OK) {
        throw new IOException("HTTP " + status + " (expected 200)");
      }
      try (InputStream in = connection.getInputStream()) {
        byte[] bytes = in.readNBytes(MAX_BYTES + 1);
        if (bytes.length > MAX_BYTES) {
          throw new IOException("the answer is longer than " + MAX_BYTES + " bytes");
        }
        return new String(bytes, StandardCharsets.UTF_8);
      }
    } finally {
      connection.disconnect();
    }
  }
}
