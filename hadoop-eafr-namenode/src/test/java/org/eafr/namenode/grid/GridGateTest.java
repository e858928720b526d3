package org.eafr.namenode.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.eafr.placement.grid.GridSettings;
import org.eafr.placement.settings.InvalidSettingException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The NameNode's reflection gate on the scheduler's worked example (DeferralSchedulerTest): 30-minute slots forecast
 * at 200, 180, 120, 150, 90, 300 gCO2/kWh from 00:00, longest wait 3 h.
 */
class GridGateTest {
  private static final long T0 = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
  private static final long MINUTE = 60_000L;

  private Path dir;
  private final AtomicLong now = new AtomicLong(T0);

  /** A fresh directory under java.io.tmpdir. */
  @BeforeEach
  void makeDir() throws IOException {
    dir = Files.createTempDirectory(Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir"))), "grid");
  }

  @Test
  void reflectionIsHeldForTheCleanestSlotAndReleasedThere() throws IOException {
    GridGate gate = gate("carbon", neso(dir.resolve("gb.csv"), 200, 180, 120, 150, 90, 300));

    assertThat(gate.mayReflect(4)).isFalse();
    Map<String, Object> held = gate.values();
    assertThat(held).containsEntry("ReflectionHeld", 1L)
        .containsEntry("ReflectionHeldUntil", "2026-01-01T02:00:00Z")
        .containsEntry("ReflectionDeadline", "2026-01-01T03:00:00Z")
        .containsEntry("ReflectionDeadlineSeconds", (T0 + 180 * MINUTE) / 1000.0)
        .containsEntry("GridCarbonIntensity", 200.0)
        .containsEntry("GridPrice", null)
        .containsEntry("GridFallback", null);
    now.set(T0 + 60 * MINUTE);
    assertThat(gate.mayReflect(4)).isFalse();
    now.set(T0 + 120 * MINUTE);
    assertThat(gate.mayReflect(4)).isTrue();
    assertThat(gate.values()).containsEntry("ReflectionHeld", 0L).containsEntry("ReflectionDeadline", null)
        .containsEntry("GridCarbonIntensity", 90.0);
  }

  @Test
  void aGearDownAskedWhileHeldReleasesReflectionAtOnce() throws IOException {
    GridGate gate = gate("carbon", neso(dir.resolve("gb.csv"), 200, 180, 120, 150, 90, 300));
    assertThat(gate.gearDownAsked()).as("nothing held yet").isFalse();
    assertThat(gate.mayReflect(4)).isFalse();

    now.set(T0 + 40 * MINUTE);
    assertThat(gate.gearDownAsked()).isTrue();

    assertThat(gate.mayReflect(4)).isTrue();
    assertThat(gate.values()).containsEntry("ReflectionHeld", 0L);
    now.set(T0 + 60 * MINUTE);
    assertThat(gate.mayReflect(0)).isTrue();
    assertThat(gate.mayReflect(2)).as("reflection due anew, no gear-down asked since").isFalse();
  }

  @Test
  void aRewrittenSignalKeepsTheDeadlineReflectionWasDueBy() throws IOException {
    Path file = neso(dir.resolve("gb.csv"), 200, 180, 120, 150, 90, 300);
    GridGate gate = gate("carbon", file);
    assertThat(gate.mayReflect(4)).isFalse();

    now.set(T0 + 30 * MINUTE);
    neso(file, 200, 180, 120, 150, 300, 300, 50);
    Files.setLastModifiedTime(file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 1000));

    // Pending since 00:30 by the new signal's count, it would wait for 03:00 (50); due since 00:00, it waits for 01:00.
    assertThat(gate.mayReflect(4)).isFalse();
    assertThat(gate.values()).containsEntry("ReflectionHeldUntil", "2026-01-01T01:00:00Z")
        .containsEntry("ReflectionDeadline", "2026-01-01T03:00:00Z");
  }

  @Test
  void withoutAUsableSignalReflectionRunsAtOnce_andStatusSaysWhy() throws IOException {
    GridGate missing = gate("carbon", dir.resolve("none.csv"));
    assertThat(missing.mayReflect(4)).isTrue();
    assertThat((String) missing.values().get("GridFallback")).contains("none.csv").contains("does not exist");

    Path bad = dir.resolve("bad.csv");
    Files.writeString(bad, "when,what\n1,2\n");
    GridGate malformed = gate("carbon", bad);
    assertThat(malformed.mayReflect(4)).isTrue();
    assertThat((String) malformed.values().get("GridFallback")).startsWith("the signal file is not a grid signal CSV:")
        .contains("bad.csv");

    GridGate stale = gate("carbon", neso(dir.resolve("gb.csv"), 200, 180, 120, 150, 90, 300));
    now.set(T0 + 180 * MINUTE);
    assertThat(stale.mayReflect(4)).isTrue();
    assertThat(stale.values()).containsEntry("GridFallback", "the signal " + dir.resolve("gb.csv") + " is stale: it"
        + " covers 2026-01-01T00:00:00Z to 2026-01-01T03:00:00Z, not now")
        .containsEntry("GridCarbonIntensity", null);

    now.set(T0);
    GridGate noPrice = gate("price", dir.resolve("gb.csv"));
    assertThat(noPrice.mayReflect(4)).isTrue();
    assertThat(noPrice.values().get("GridFallback")).isEqualTo("the signal " + dir.resolve("gb.csv")
        + " has no price values");

    GridGate energy = gate("energy", dir.resolve("gb.csv"));
    assertThat(energy.mayReflect(4)).isTrue();
    assertThat(energy.values()).containsEntry("GridFallback", null).containsEntry("GridCarbonIntensity", 200.0);
  }

  /** GridMeterTest's example: 2 kWh at 150 gCO2/kWh and 80 EUR/MWh, then 1 kWh at -20 EUR/MWh. */
  @Test
  void energyIsAddedUpAgainstTheSignal() throws IOException {
    Path file = dir.resolve("de.csv");
    Files.writeString(file, "timestamp_utc,carbon_intensity_gco2eq_per_kwh_lifecycle_production,"
        + "de_lu_day_ahead_eur_per_mwh\n2026-01-01T00:00:00Z,150,80\n2026-01-01T01:00:00Z,100,-20\n",
        StandardCharsets.UTF_8);
    GridGate gate = gate("energy", file);

    gate.energyUsed(5.0); // the first figure only sets where counting starts
    now.set(T0 + 10 * MINUTE);
    gate.energyUsed(7.0);
    assertThat((Double) gate.values().get("GridCarbon")).isCloseTo(300.0, within(1e-9));
    assertThat((Double) gate.values().get("GridCost")).isCloseTo(0.16, within(1e-12));
    now.set(T0 + 70 * MINUTE);
    gate.energyUsed(8.0);
    assertThat((Double) gate.values().get("GridCarbon")).isCloseTo(400.0, within(1e-9));
    assertThat((Double) gate.values().get("GridCost")).isCloseTo(0.14, within(1e-12));
    assertThat(gate.values()).containsEntry("GridPrice", -20.0);

    GridGate none = gate("energy", dir.resolve("none.csv"));
    none.energyUsed(1.0);
    none.energyUsed(2.0);
    assertThat(none.values()).containsEntry("GridCarbon", null).containsEntry("GridCost", null)
        .containsEntry("GridFallback", null)
        .containsEntry("GridSignalProblem", "the signal file " + dir.resolve("none.csv") + " does not exist");
    assertThat(GridGate.energyOnly().values()).containsEntry("GridSignalProblem",
        "no signal (eafr.grid.signal.file is empty)");
  }

  /**
   * The steering's worked example (UtilizationSteeringTest): u = 0.8, lower = raise = 0.1, forecast 250, 100, 300,
   * 200 gCO2/kWh: 0.85 at 00:00, 0.7 at 00:30 (the cleanest slot); energy only leaves u.
   */
  @Test
  void theTargetUtilizationMovesWithinTheOperatorsBounds() throws IOException {
    Map<String, String> keys = Map.of("eafr.grid.objective", "carbon", "eafr.grid.utilization.lower", "0.1",
        "eafr.grid.utilization.raise", "0.1");
    GridGate gate = new GridGate(GridSettings.of(keys), new GridSignalFile(neso(dir.resolve("gb.csv"), 250, 100,
        300, 200).toString()));
    gate.clock(now::get);
    assertThat(gate.values()).containsEntry("GridTargetUtilization", null);

    assertThat(gate.targetUtilization(0.8, 0.1)).isCloseTo(0.85, within(1e-12));
    assertThat((Double) gate.values().get("GridTargetUtilization")).isCloseTo(0.85, within(1e-12));
    now.set(T0 + 30 * MINUTE);
    assertThat(gate.targetUtilization(0.8, 0.1)).isCloseTo(0.7, within(1e-12));
    GridGate energy = new GridGate(GridSettings.of(Map.of("eafr.grid.utilization.lower", "0.1",
        "eafr.grid.utilization.raise", "0.1")), new GridSignalFile(dir.resolve("gb.csv").toString()));
    energy.clock(now::get);
    assertThat(energy.targetUtilization(0.8, 0.1)).isEqualTo(0.8);
  }

  /** The NameNode measures no read latency, so a bound it could not keep is refused, naming the key. */
  @Test
  void aReadLatencyBoundIsRefused() {
    GridSettings bounded = GridSettings.of(Map.of("eafr.grid.objective", "carbon", "eafr.grid.read-latency-bound.ms",
        "50"));

    assertThatThrownBy(() -> new GridGate(bounded, new GridSignalFile(null)))
        .isInstanceOf(InvalidSettingException.class).hasMessageContaining("eafr.grid.read-latency-bound.ms")
        .hasMessageContaining("0 on the NameNode");
  }

  /** A slot NESO reported as 0.0 is a gap, filled from the slot before and named in the signal's description. */
  @Test
  void gapsAreFilledAndReported() throws IOException {
    GridGate gate = gate("carbon", neso(dir.resolve("gb.csv"), 200, 0, 120, 150, 90, 300));

    assertThat(gate.mayReflect(4)).isFalse();
    assertThat((String) gate.values().get("GridSignal")).endsWith("; 2 gap(s), 2 slot(s) filled, first: carbon"
        + " missing for 1 slot(s) from 2026-01-01T00:30:00Z to 2026-01-01T01:00:00Z (filled with the nearest"
        + " earlier value)");
    now.set(T0 + 30 * MINUTE);
    assertThat(gate.values()).containsEntry("GridCarbonIntensity", 200.0);
  }

  private GridGate gate(String objective, Path file) {
    GridGate gate = new GridGate(GridSettings.of(Map.of("eafr.grid.objective", objective,
        "eafr.grid.defer.reflection.ms", String.valueOf(180 * MINUTE))), new GridSignalFile(file.toString()));
    gate.clock(now::get);
    return gate;
  }

  /** A NESO-format file of 30-minute slots from 00:00 with {@code carbon} as forecast and actual. */
  static Path neso(Path file, double... carbon) throws IOException {
    StringBuilder csv = new StringBuilder("from,to,forecast,actual,index\n");
    for (int i = 0; i < carbon.length; i++) {
      csv.append(Instant.ofEpochMilli(T0 + i * 30 * MINUTE)).append(',')
          .append(Instant.ofEpochMilli(T0 + (i + 1) * 30 * MINUTE)).append(',').append(carbon[i]).append(',')
          .append(carbon[i]).append(",moderate\n");
    }
    Files.writeString(file, csv, StandardCharsets.UTF_8);
    return file;
  }
}
