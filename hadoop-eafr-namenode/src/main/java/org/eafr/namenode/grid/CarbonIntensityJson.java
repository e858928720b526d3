package org.eafr.namenode.grid;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringReader;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import org.eafr.placement.grid.GridCsv;
import org.eafr.placement.grid.GridSignal;

/**
 * Reads the UK Carbon Intensity API's JSON ({@code {"data": [{"from": "2026-01-01T00:00Z", "to":
 * "2026-01-01T00:30Z", "intensity": {"forecast": 200, "actual": 195, "index": "moderate"}}, ...]}}) as a grid signal:
 * each entry a slot whose carbon is {@code actual} (the forecast where the API has no actual yet, as for slots ahead)
 * and whose forecast is {@code forecast} (the actual where it has none); an entry without either is a gap, filled as
 * {@link GridCsv} fills the NESO CSV's (the same columns).
 */
final class CarbonIntensityJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  private CarbonIntensityJson() {
  }

  /**
   * The signal in {@code json} (the Carbon Intensity API's format), named {@code name}.
   *
   * @throws IllegalArgumentException naming what is wrong: malformed JSON, no data array, an entry without a time
   */
  static GridSignal signal(String json, String name) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("malformed JSON at line " + e.getLocation().getLineNr() + ", column "
          + e.getLocation().getColumnNr());
    }
    JsonNode data = root == null ? null : root.get("data");
    if (data == null || !data.isArray() || data.isEmpty()) {
      throw new IllegalArgumentException("no non-empty \"data\" array of {\"from\", \"to\", \"intensity\":"
          + " {\"forecast\", \"actual\"}} entries");
    }
    StringBuilder csv = new StringBuilder("from,to,forecast,actual,index\n");
    for (int i = 0; i < data.size(); i++) {
      JsonNode entry = data.get(i);
      JsonNode intensity = entry.path("intensity");
      String forecast = number(intensity.get("forecast"), i, "forecast");
      String actual = number(intensity.get("actual"), i, "actual");
      csv.append(time(entry.get("from"), i, "from")).append(',').append(time(entry.get("to"), i, "to")).append(',')
          .append(forecast.isEmpty() ? actual : forecast).append(',').append(actual.isEmpty() ? forecast : actual)
          .append(',').append(index(intensity)).append('\n');
    }
    try {
      return GridCsv.read(new StringReader(csv.toString()), name, null);
    } catch (IOException e) {
      throw new IllegalStateException("reading a string cannot fail", e);
    }
  }

  /** The API's index word (unused by the signal), never empty so the CSV row keeps its five columns. */
  private static String index(JsonNode intensity) {
    String index = intensity.path("index").asText("").replace(',', ' ').trim();
    return index.isEmpty() ? "-" : index;
  }

  private static String time(JsonNode value, int entry, String field) {
    String where = "data[" + entry + "]." + field;
    if (value == null || !value.isTextual()) {
      throw new IllegalArgumentException(where + " is missing or not a time");
    }
    try {
      return OffsetDateTime.parse(value.asText()).toInstant().toString();
    } catch (DateTimeParseException e) {
      try {
        return Instant.parse(value.asText()).toString();
      } catch (DateTimeParseException again) {
        throw new IllegalArgumentException(where + " is not an ISO 8601 time: " + value.asText());
      }
    }
  }

  /** The value as CSV text; "" for a missing or null value (a gap). */
  private static String number(JsonNode value, int entry, String field) {
    if (value == null || value.isNull()) {
      return "";
    }
    if (!value.isNumber()) {
      throw new IllegalArgumentException("data[" + entry + "].intensity." + field + " is not a number: " + value);
    }
    return String.valueOf(value.asDouble());
  }
}
