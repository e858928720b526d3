package org.eafr.placement.grid;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Reads a grid signal from the CSV formats the project ships (docs/carbon.md, "Signals"), told apart by their header:
 *
 * <ul>
 *   <li>NESO Carbon Intensity API, Great Britain: {@code from,to,forecast,actual,index}, times with {@code +00:00};
 *       carbon = {@code actual}, forecast = {@code forecast}.</li>
 *   <li>Let's Wait Awhile / vessim, Germany: {@code time,DE}, naive times read as UTC; carbon = {@code DE}.</li>
 *   <li>SMARD-derived Germany: {@code timestamp_utc,carbon_intensity_gco2eq_per_kwh_lifecycle_production,
 *       de_lu_day_ahead_eur_per_mwh}; carbon and price.</li>
 *   <li>SMARD day-ahead prices: {@code timestamp_utc,<ZONE>_eur_per_mwh,...}; the price of one bidding zone.</li>
 * </ul>
 *
 * The slot length is the shortest step between two rows. An empty cell is a missing value (a gap of the signal). A
 * header none of these, a zone the file lacks, a malformed time or number is refused naming the source, the line and
 * the column.
 */
public final class GridCsv {
  private static final String PRICE_SUFFIX = "_eur_per_mwh";

  private GridCsv() {
  }

  /** The signal in {@code in}; {@code zone} picks a price column of a multi-zone price file (null: DE_LU). */
  public static GridSignal read(Reader in, String source, String zone) throws IOException {
    BufferedReader lines = in instanceof BufferedReader ? (BufferedReader) in : new BufferedReader(in);
    String headerLine = lines.readLine();
    if (headerLine == null) {
      throw new IllegalArgumentException(source + ": empty file, expected a grid signal CSV header");
    }
    List<String> header = Arrays.asList(headerLine.trim().split(",", -1));
    Columns columns = Columns.of(header, source, zone);
    List<GridPoint> points = new ArrayList<>();
    long step = Long.MAX_VALUE;
    long previous = Long.MIN_VALUE;
    int lineNo = 1;
    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
      lineNo++;
      if (line.isBlank()) {
        continue;
      }
      String[] cells = line.split(",", -1);
      if (cells.length < header.size()) {
        throw new IllegalArgumentException(source + " line " + lineNo + ": " + cells.length + " cells, expected "
            + header.size() + " as the header " + header);
      }
      long start = time(cells[columns.time], source, lineNo, header.get(columns.time));
      if (columns.to >= 0 && previous == Long.MIN_VALUE) {
        step = time(cells[columns.to], source, lineNo, "to") - start;
      }
      if (previous != Long.MIN_VALUE && start > previous) {
        step = Math.min(step, start - previous);
      }
      previous = start;
      points.add(new GridPoint(start, number(cells, columns.carbon, header, source, lineNo),
          number(cells, columns.forecast, header, source, lineNo), number(cells, columns.price, header, source,
              lineNo)));
    }
    if (points.size() < 2 && columns.to < 0) {
      throw new IllegalArgumentException(source + ": " + points.size() + " row(s), expected at least 2 to know the"
          + " slot length");
    }
    return GridSignal.of(source, step, points);
  }

  /** The column indexes of one format; -1 for a column it lacks. */
  private static final class Columns {
    final int time;
    final int to;
    final int carbon;
    final int forecast;
    final int price;

    Columns(int time, int to, int carbon, int forecast, int price) {
      this.time = time;
      this.to = to;
      this.carbon = carbon;
      this.forecast = forecast;
      this.price = price;
    }

    static Columns of(List<String> header, String source, String zone) {
      if (header.containsAll(List.of("from", "to", "forecast", "actual"))) {
        return new Columns(header.indexOf("from"), header.indexOf("to"), header.indexOf("actual"),
            header.indexOf("forecast"), -1);
      }
      if (header.size() == 2 && header.get(0).equals("time")) {
        return new Columns(0, -1, 1, -1, -1);
      }
      if (header.get(0).equals("timestamp_utc")) {
        int carbon = header.indexOf("carbon_intensity_gco2eq_per_kwh_lifecycle_production");
        int price = header.indexOf("de_lu_day_ahead_eur_per_mwh");
        if (carbon >= 0) {
          return new Columns(0, -1, carbon, -1, price);
        }
        String wanted = (zone == null ? "DE_LU" : zone.toUpperCase(Locale.ROOT)) + PRICE_SUFFIX;
        int zoneColumn = header.indexOf(wanted);
        if (zoneColumn < 0) {
          throw new IllegalArgumentException(source + ": no price column " + wanted + "; zones in the file: "
              + header.stream().filter(h -> h.endsWith(PRICE_SUFFIX))
                  .map(h -> h.substring(0, h.length() - PRICE_SUFFIX.length()))
                  .collect(java.util.stream.Collectors.toList()));
        }
        return new Columns(0, -1, -1, -1, zoneColumn);
      }
      throw new IllegalArgumentException(source + ": header " + header + " is not a known grid signal format;"
          + " expected NESO's from,to,forecast,actual,index, time,DE, or timestamp_utc with"
          + " carbon_intensity_gco2eq_per_kwh_lifecycle_production or <ZONE>_eur_per_mwh columns");
    }
  }

  /** A UTC instant in milliseconds from ISO text with or without an offset ("T" or a space between date and time). */
  static long time(String raw, String source, int lineNo, String column) {
    String text = raw.trim().replace(' ', 'T');
    try {
      if (text.endsWith("Z") || text.matches(".*[+-]\\d\\d:\\d\\d$")) {
        return OffsetDateTime.parse(text).toInstant().toEpochMilli();
      }
      return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC).toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(source + " line " + lineNo + " column " + column + ": '" + raw
          + "' is not a time; expected ISO 8601 such as 2023-01-01 00:00:00+00:00 or 2024-01-01T00:00:00Z", e);
    }
  }

  private static double number(String[] cells, int column, List<String> header, String source, int lineNo) {
    if (column < 0 || cells[column].isBlank()) {
      return Double.NaN;
    }
    try {
      double value = Double.parseDouble(cells[column].trim());
      if (Double.isInfinite(value)) {
        throw new NumberFormatException("infinite");
      }
      return value;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(source + " line " + lineNo + " column " + header.get(column) + ": '"
          + cells[column] + "' is not a number", e);
    }
  }
}
