package org.eafr.datanode.bench;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the receive throttler allowed against what its senders delivered, from its DEBUG trace (one line per
 * adjustment period, {@code SenderThrottler.trace}: {@code round c_b=C allowed=A used=U senders=N ...}). Periods
 * without senders are left out. Answers whether the rate control keeps the link busy: the allowed rates should add up
 * to c_b whenever there are senders.
 */
public final class RateTrace {
  private static final Pattern ROUND = Pattern.compile(
      "\\bround c_b=(\\d+) (?:allowed|granted)=(\\d+) used=(\\d+) senders=(\\d+)");

  private long periods;
  private double allowedShareSum;
  private double usedShareSum;
  private double allowedShareMin = Double.POSITIVE_INFINITY;
  private long periodsBelowLink;

  /** Adds every trace line of {@code lines} with at least one sender; other lines are skipped. */
  public RateTrace add(Iterable<String> lines) {
    for (String line : lines) {
      Matcher round = ROUND.matcher(line);
      if (round.find() && Long.parseLong(round.group(4)) > 0) {
        double capacity = Long.parseLong(round.group(1));
        double allowed = Long.parseLong(round.group(2)) / capacity;
        periods++;
        allowedShareSum += allowed;
        usedShareSum += Long.parseLong(round.group(3)) / capacity;
        allowedShareMin = Math.min(allowedShareMin, allowed);
        periodsBelowLink += allowed < 0.99 ? 1 : 0;
      }
    }
    return this;
  }

  /** Adjustment periods with at least one sender. */
  public long periods() {
    return periods;
  }

  /** Mean over those periods of the allowed rates' sum, as a share of c_b. */
  public double meanAllowedShare() {
    return periods == 0 ? 0 : allowedShareSum / periods;
  }

  /** Mean over those periods of the bytes per second the senders delivered, as a share of c_b. */
  public double meanUsedShare() {
    return periods == 0 ? 0 : usedShareSum / periods;
  }

  public double minAllowedShare() {
    return periods == 0 ? 0 : allowedShareMin;
  }

  /** Periods whose allowed rates added up to less than 99% of c_b. */
  public long periodsBelowLink() {
    return periodsBelowLink;
  }

  /** One sentence for the report. */
  public String summary() {
    if (periods == 0) {
      return "Throttler trace: no adjustment period with senders (n/a).";
    }
    return String.format(Locale.ROOT, "Throttler trace (%d adjustment periods with senders): the allowed rates added up"
        + " to %.0f%% of c_b on average (lowest %.0f%%; %d periods below 99%%); the senders delivered %.0f%% of c_b.",
        periods, 100 * meanAllowedShare(), 100 * minAllowedShare(), periodsBelowLink, 100 * meanUsedShare());
  }
}
