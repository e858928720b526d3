package org.eafr.sim.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.rate.ReceiveRateController;
import org.eafr.sim.engine.EventQueue;
import org.junit.jupiter.api.Test;

class NetworkTest {
  private static final double LINK = 100_000_000.0;

  private static Cluster threeServersOneRack() {
    return serversOnOneRack(3);
  }

  private static Cluster serversOnOneRack(int count) {
    List<SimServer> servers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      servers.add(new SimServer(i, 0, 10, 1L << 40, LINK, ServerRole.HOT));
    }
    return Cluster.of(servers, 1);
  }

  @Test
  void incastGoodputFollowsTheModel() {
    assertThat(Network.incastGoodput(1)).isEqualTo(1.0);
    assertThat(Network.incastGoodput(2)).isCloseTo(1 / 1.6, within(1e-12));
    assertThat(Network.incastGoodput(8)).isCloseTo(1 / 5.2, within(1e-12));
  }

  @Test
  void oneFlowRunsAtTheFullLink() {
    EventQueue queue = new EventQueue();
    Network network = new Network(threeServersOneRack(), queue, null);
    long[] done = new long[1];
    network.start(0, 0, 2, 100_000_000L, (flow, t, completed) -> done[0] = t);
    queue.runUntil(Long.MAX_VALUE);
    assertThat(done[0]).isEqualTo(1_000_000L); // 100 MB at 100 MB/s
  }

  @Test
  void twoInflowsShareTheLinkAndSufferIncastWithoutRateControl() {
    EventQueue queue = new EventQueue();
    Network network = new Network(threeServersOneRack(), queue, null);
    List<Long> done = new ArrayList<>();
    network.start(0, 0, 2, 50_000_000L, (flow, t, completed) -> done.add(t));
    network.start(1, 0, 2, 50_000_000L, (flow, t, completed) -> done.add(t));
    queue.runUntil(Long.MAX_VALUE);
    // Each gets 100 MB/s / 2 x 1/1.6 = 31.25 MB/s: 50 MB take 1.6 s.
    assertThat(done).containsExactly(1_600_000L, 1_600_000L);
  }

  @Test
  void rateControlAvoidsTheIncastCollapse() {
    EventQueue free = new EventQueue();
    EventQueue controlled = new EventQueue();
    long[] withoutControl = new long[1];
    long[] withControl = new long[1];
    Network plain = new Network(serversOnOneRack(5), free, null);
    Network eafr = new Network(serversOnOneRack(5), controlled, new ReceiveRateController(0.2, 0.5));
    for (int sender = 0; sender < 4; sender++) {
      plain.start(sender, 0, 4, 500_000_000L, (flow, t, completed) -> withoutControl[0] = Math.max(withoutControl[0], t));
      eafr.start(sender, 0, 4, 500_000_000L, (flow, t, completed) -> withControl[0] = Math.max(withControl[0], t));
    }
    free.runUntil(Long.MAX_VALUE);
    controlled.runUntil(Long.MAX_VALUE);
    // Without control 4 inflows get 1 / (1 + 0.6 x 3) of the link: 2 GB at 35.7 MB/s take 56 s.
    assertThat(withoutControl[0]).isEqualTo(56_000_000L);
    // With control the senders settle between 50% and 80% of the link, 2 GB then take 25 to 40 s.
    assertThat(withControl[0]).isBetween(25_000_000L, 40_000_000L);
  }
}
