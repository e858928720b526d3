package org.eafr.datanode.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The block-transfer connections as {@code ss -tin} showed them during the bench's rounds (scripts/bench/incast.sh
 * samples them every 2 s): on the receiving side the receive buffer space the kernel works with ({@code rcv_space},
 * {@code rcv_ssthresh}) and its RTT estimate ({@code rcv_rtt}); on the sending side the RTT, the congestion window,
 * the receive window the receiver advertises ({@code snd_wnd}), the share of time that window held the sender
 * ({@code rwnd_limited}) and the retransmitted segments.
 * Each info line of {@code ss} (the indented line after a connection's addresses) is one sample.
 */
public final class SocketSamples {
  private static final Pattern FIELD = Pattern.compile("(?:^|\\s)([a-z_]+):(\\S+)");
  private static final Pattern LIMITED = Pattern.compile("\\(([0-9.]+)%\\)");

  private final List<Map<String, String>> samples = new ArrayList<>();

  /** Adds every info line of {@code ss -tin} output; address lines are skipped. */
  public SocketSamples add(Iterable<String> lines) {
    for (String line : lines) {
      if (line.startsWith("\t") || line.startsWith(" ")) {
        Map<String, String> fields = new HashMap<>();
        Matcher field = FIELD.matcher(line);
        while (field.find()) {
          fields.put(field.group(1), field.group(2));
        }
        if (fields.containsKey("rtt")) {
          samples.add(fields);
        }
      }
    }
    return this;
  }

  public int size() {
    return samples.size();
  }

  /** The median of one field over the samples that have it; NaN when none has. */
  public double median(String field) {
    List<Double> values = new ArrayList<>();
    for (Map<String, String> sample : samples) {
      String raw = sample.get(field);
      if (raw != null) {
        values.add(value(field, raw));
      }
    }
    if (values.isEmpty()) {
      return Double.NaN;
    }
    Collections.sort(values);
    int n = values.size();
    return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
  }

  /**
   * A field's number: {@code rtt:0.9/0.3} is 0.9 (ms), {@code retrans:0/12} is 12 (all retransmitted segments),
   * {@code rwnd_limited:2480ms(61.5%)} is 61.5 (% of the connection's time), others as they are.
   */
  static double value(String field, String raw) {
    switch (field) {
      case "rtt":
      case "retrans":
        return Double.parseDouble(raw.substring(field.equals("rtt") ? 0 : raw.indexOf('/') + 1,
            field.equals("rtt") ? raw.indexOf('/') : raw.length()));
      case "rwnd_limited":
        Matcher share = LIMITED.matcher(raw);
        return share.find() ? Double.parseDouble(share.group(1)) : Double.NaN;
      default:
        return Double.parseDouble(raw.replaceAll("[^0-9.].*$", ""));
    }
  }

  /** One sentence for the bench's notes: {@code receivers} and {@code senders} sampled in one mode. */
  public static String summary(String mode, SocketSamples receivers, SocketSamples senders) {
    return String.format(Locale.ROOT, "`ss -tin` in mode %s (medians over %d samples of receiving connections, %d of"
        + " sending ones): receiver rcv_space %s B, rcv_ssthresh %s B, rcv_rtt %s ms; sender rtt %s ms, cwnd %s"
        + " segments, receive window advertised to it (snd_wnd) %s B, limited by it %s%% of the time, %s segments"
        + " retransmitted per connection so far.", mode, receivers.size(), senders.size(),
        number(receivers.median("rcv_space")), number(receivers.median("rcv_ssthresh")),
        number(receivers.median("rcv_rtt")), number(senders.median("rtt")), number(senders.median("cwnd")),
        number(senders.median("snd_wnd")), number(senders.median("rwnd_limited")), number(senders.median("retrans")));
  }

  private static String number(double value) {
    if (Double.isNaN(value)) {
      return "n/a";
    }
    return value == Math.rint(value) ? String.format(Locale.ROOT, "%.0f", value)
        : String.format(Locale.ROOT, "%.2f", value);
  }
}
