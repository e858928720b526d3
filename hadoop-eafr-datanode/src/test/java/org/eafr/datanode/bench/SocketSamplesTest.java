package org.eafr.datanode.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SocketSamplesTest {
  private static final String RECEIVER = "0      0      10.213.0.11:9866 10.213.0.3:41234\n"
      + "\t cubic wscale:7,7 rto:204 rtt:0.05/0.025 ato:40 mss:536 pmtu:1500 rcvmss:1448 advmss:1448 cwnd:10"
      + " bytes_received:1000000 segs_out:300 segs_in:700 send 857Mbps lastrcv:4 delivered:1 app_limited"
      + " rcv_rtt:1.5 rcv_space:5792 rcv_ssthresh:2896 minrtt:0.05";
  private static final String SENDER = "\t cubic wscale:7,7 rto:204 rtt:1.25/0.5 ato:40 mss:1448 cwnd:10"
      + " ssthresh:7 bytes_retrans:2896 send 92.7Mbps busy:3000ms rwnd_limited:1845ms(61.5%) unacked:3"
      + " retrans:0/2 rcv_space:14480 minrtt:0.05 snd_wnd:5792";

  @Test
  void infoLines_areSamples_andFieldsReadAsNumbers() {
    SocketSamples receivers = new SocketSamples().add(List.of(RECEIVER.split("\n")));
    SocketSamples senders = new SocketSamples().add(List.of(SENDER, SENDER.replace("retrans:0/2", "retrans:1/6")
        .replace("rtt:1.25/0.5", "rtt:2.5/0.5").replace("(61.5%)", "(20%)")));

    assertThat(receivers.size()).isEqualTo(1);
    assertThat(receivers.median("rcv_space")).isEqualTo(5792.0);
    assertThat(receivers.median("rcv_rtt")).isEqualTo(1.5);
    assertThat(senders.median("rtt")).isEqualTo((1.25 + 2.5) / 2);
    assertThat(senders.median("retrans")).isEqualTo(4.0);
    assertThat(senders.median("rwnd_limited")).isEqualTo((61.5 + 20) / 2);
    assertThat(senders.median("snd_wnd")).isEqualTo(5792.0);
    assertThat(receivers.median("snd_wnd")).isNaN();
    assertThat(SocketSamples.summary("window", receivers, senders)).isEqualTo("`ss -tin` in mode window (medians"
        + " over 1 samples of receiving connections, 2 of sending ones): receiver rcv_space 5792 B, rcv_ssthresh"
        + " 2896 B, rcv_rtt 1.50 ms; sender rtt 1.88 ms, cwnd 10 segments, receive window advertised to it"
        + " (snd_wnd) 5792 B, limited by it 40.75% of the time, 4 segments retransmitted per connection so far.");
  }
}
