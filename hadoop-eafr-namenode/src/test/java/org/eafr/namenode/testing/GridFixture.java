package org.eafr.namenode.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * The grid scheduler's worked example as a signal file for NameNode tests: 30-minute slots from {@link #T0} forecast
 * (and measured) at 200, 180, 120, 150, 90, 300 gCO2/kWh, in the NESO CSV format ({@code from,to,forecast,actual,
 * index}). With a longest wait of 3 h, work due at 00:00 is held until 02:00 (deadline 03:00).
 */
public final class GridFixture {
  public static final long T0 = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
  public static final long MINUTE = 60_000L;
  public static final double[] CARBON = {200, 180, 120, 150, 90, 300};

  private GridFixture() {
  }

  /** The fixture written to a fresh file under java.io.tmpdir. */
  public static Path nesoCsv() throws IOException {
    StringBuilder csv = new StringBuilder("from,to,forecast,actual,index\n");
    for (int i = 0; i < CARBON.length; i++) {
      csv.append(Instant.ofEpochMilli(T0 + i * 30 * MINUTE)).append(',')
          .append(Instant.ofEpochMilli(T0 + (i + 1) * 30 * MINUTE)).append(',').append(CARBON[i]).append(',')
          .append(CARBON[i]).append(",moderate\n");
    }
    Path tmp = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
    Path file = Files.createTempDirectory(tmp, "grid").resolve("gb-fixture.csv");
    Files.writeString(file, csv, StandardCharsets.UTF_8);
    return file;
  }
}
