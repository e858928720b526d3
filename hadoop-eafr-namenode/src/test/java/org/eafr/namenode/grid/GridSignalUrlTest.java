package org.eafr.namenode.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.eafr.namenode.gear.GearSettings;
import org.eafr.namenode.testing.GridFixture;
import org.eafr.placement.grid.GridSettings;
import org.eafr.placement.grid.WorkKind;
import org.eafr.placement.settings.InvalidSettingException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The grid signal polled from a real local HTTP server (the JDK's) answering in the UK Carbon Intensity API's JSON
 * format: a hand-written fixture of the scheduler's worked example (forecast 200, 180, 120, 150, 90, 300 gCO2/kWh in
 * 30-minute slots from 00:00; actual 195 for the first slot, null ahead), polled every minute, longest wait of cold
 * migrations 3 h.
 */
class GridSignalUrlTest {
  private static final long T0 = GridFixture.T0;
  private static final long MINUTE = GridFixture.MINUTE;

  private HttpServer server;
  private volatile int status = 200;
  private volatile String body;
  private String url;
  private final AtomicLong now = new AtomicLong(T0);

  @BeforeEach
  void startServer() throws IOException {
    body = fixture();
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/intensity", exchange -> {
      byte[] answer = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, answer.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(answer);
      }
    });
    server.start();
    url = "http://127.0.0.1:" + server.getAddress().getPort() + "/intensity/2026-01-01T00:00Z/fw3h";
  }

  @AfterEach
  void stopServer() {
    server.stop(0);
  }

  private GridGate gate() {
    GridSignalUrl source = new GridSignalUrl(url, MINUTE);
    source.clock(now::get);
    GridGate gate = new GridGate(GridSettings.of(Map.of("eafr.grid.objective", "carbon",
        "eafr.grid.defer.cold-migration.ms", String.valueOf(180 * MINUTE))), source);
    gate.clock(now::get);
    return gate;
  }

  @Test
  void theApisForecastHoldsWork_andAnHttpErrorMalformedJsonOrAStaleSignalFallBackToEnergyOnly() throws IOException {
    GridGate gate = gate();

    assertThat(gate.mayRun(WorkKind.COLD_MIGRATION, 2, 0)).isFalse();
    assertThat(gate.values()).containsEntry("GridFallback", null).containsEntry("GridCarbonIntensity", 195.0)
        .containsEntry("ColdMigrationHeldUntil", "2026-01-01T02:00:00Z")
        .containsEntry("ColdMigrationDeadline", "2026-01-01T03:00:00Z");
    assertThat((String) gate.values().get("GridSignal")).isEqualTo(url + ": 6 slots of 30 min from"
        + " 2026-01-01T00:00:00Z to 2026-01-01T03:00:00Z, carbon");

    status = 500;
    now.addAndGet(MINUTE);
    assertThat(gate.mayRun(WorkKind.COLD_MIGRATION, 2, 0)).as("energy only").isTrue();
    assertThat(gate.values()).containsEntry("GridFallback", "the signal URL " + url
        + " cannot be read: HTTP 500 (expected 200)").containsEntry("GridCarbonIntensity", null)
        .containsEntry("ColdMigrationHeld", 0L);

    status = 200;
    body = "{\"data\": [{\"from\": \"2026-01-01T00:00Z\",";
    now.addAndGet(MINUTE);
    assertThat(gate.mayRun(WorkKind.COLD_MIGRATION, 2, 0)).isTrue();
    assertThat((String) gate.values().get("GridFallback"))
        .startsWith("the signal URL " + url + " gave no grid signal: malformed JSON at line 1");

    body = "{\"data\": [{\"from\": \"yesterday\", \"to\": \"2026-01-01T00:30Z\", \"intensity\": {\"forecast\": 1}}]}";
    now.addAndGet(MINUTE);
    assertThat(gate.values()).containsEntry("GridFallback", "the signal URL " + url
        + " gave no grid signal: data[0].from is not an ISO 8601 time: yesterday");

    body = "{\"data\": []}";
    now.addAndGet(MINUTE);
    assertThat((String) gate.values().get("GridFallback")).endsWith("gave no grid signal: no non-empty \"data\""
        + " array of {\"from\", \"to\", \"intensity\": {\"forecast\", \"actual\"}} entries");

    body = fixture(); // the API is back
    now.addAndGet(MINUTE);
    assertThat(gate.mayRun(WorkKind.COLD_MIGRATION, 2, 0)).isFalse();
    assertThat(gate.values()).as("the deadline counts from 00:00, when the work became due")
        .containsEntry("GridFallback", null).containsEntry("ColdMigrationDeadline", "2026-01-01T03:00:00Z");

    now.set(T0 + 240 * MINUTE);
    assertThat(gate.mayRun(WorkKind.COLD_MIGRATION, 2, 0)).isTrue();
    assertThat(gate.values()).containsEntry("GridFallback", "the signal " + url + " is stale: it covers"
        + " 2026-01-01T00:00:00Z to 2026-01-01T03:00:00Z, not now");
  }

  @Test
  void theUrlAndItsPollIntervalAreCheckedAndTheFileAndUrlAreNotBothSet() {
    assertThatThrownBy(() -> GearSettings.from(Map.of("eafr.grid.signal.url", "ftp://example.org/x")::get))
        .isInstanceOf(InvalidSettingException.class)
        .satisfies(e -> assertThat(((InvalidSettingException) e).key()).isEqualTo("eafr.grid.signal.url"));
    assertThatThrownBy(() -> GearSettings.from(Map.of("eafr.grid.signal.url", url, "eafr.grid.signal.file",
        "/etc/hadoop/grid.csv")::get)).isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("the signal comes from a file or a URL, not both");
    assertThatThrownBy(() -> GearSettings.from(Map.of("eafr.grid.signal.url", url, "eafr.grid.signal.poll.ms",
        "10")::get)).isInstanceOf(InvalidSettingException.class)
        .satisfies(e -> assertThat(((InvalidSettingException) e).key()).isEqualTo("eafr.grid.signal.poll.ms"));
    assertThat(GearSettings.from(Map.of("eafr.grid.signal.url", url)::get).gridSource())
        .isInstanceOf(GridSignalUrl.class);
  }

  /** The hand-written answer in the Carbon Intensity API's format. */
  private String fixture() throws IOException {
    try (InputStream in = getClass().getResourceAsStream("/grid/carbon-intensity-fw3h.json")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
