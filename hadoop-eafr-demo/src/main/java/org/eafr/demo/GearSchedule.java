package org.eafr.demo;

import java.util.ArrayList;
import java.util.List;

/**
 * The manual mode's operator: at given fractions of the run, {@code hdfs eafr gear N}. Written as
 * {@code FRACTION:GEAR,...} with fractions strictly increasing in [0, 1) and GEAR a number or {@code max}.
 *
 * <p>Example: {@code 0.0:0,0.62:4,0.83:0} with a highest gear of 6 is gear 0 from the start (the night), gear 4 (7 of
 * 9 DataNodes) from 62% (ahead of the peak at two thirds, since waking hosts takes half a minute), gear 0 again from
 * 83% (the evening, as quiet as the night).
 */
public record GearSchedule(List<Step> steps) {
  /** At {@code fraction} of the run, shift to {@code gear}. */
  public record Step(double fraction, int gear) {
  }

  public GearSchedule {
    steps = List.copyOf(steps);
  }

  public static GearSchedule parse(String text, int maximumGear) {
    List<Step> steps = new ArrayList<>();
    if (text.isBlank()) {
      return new GearSchedule(steps);
    }
    for (String item : text.split(",")) {
      String[] parts = item.trim().split(":");
      if (parts.length != 2) {
        throw DemoSettings.invalid("demo.gear.schedule", text, "expected FRACTION:GEAR,... (e.g. 0.02:0,0.62:max);"
            + " '" + item.trim() + "' is not FRACTION:GEAR");
      }
      double fraction;
      try {
        fraction = Double.parseDouble(parts[0].trim());
      } catch (NumberFormatException e) {
        throw DemoSettings.invalid("demo.gear.schedule", text, "fraction '" + parts[0].trim() + "' is not a number");
      }
      if (!(fraction >= 0 && fraction < 1)) {
        throw DemoSettings.invalid("demo.gear.schedule", text, "fraction " + fraction + " is not in [0, 1)");
      }
      if (!steps.isEmpty() && fraction <= steps.get(steps.size() - 1).fraction()) {
        throw DemoSettings.invalid("demo.gear.schedule", text, "fractions must increase, " + fraction + " does not");
      }
      steps.add(new Step(fraction, gearOf(parts[1].trim(), maximumGear, text)));
    }
    return new GearSchedule(steps);
  }

  private static int gearOf(String word, int maximumGear, String text) {
    if (word.equals("max")) {
      return maximumGear;
    }
    try {
      int gear = Integer.parseInt(word);
      if (gear >= 0 && gear <= maximumGear) {
        return gear;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw DemoSettings.invalid("demo.gear.schedule", text, "gear '" + word + "' does not exist: expected 0.."
        + maximumGear + " or max");
  }
}
