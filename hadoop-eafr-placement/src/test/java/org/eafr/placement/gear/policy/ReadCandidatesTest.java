package org.eafr.placement.gear.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.StoredBlocks;
import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Candidates {@link ReadCandidates#ordered} from a block's replicas (read through the order, the reader's rack given
 * as a flag per replica: the NameNode's way) choose exactly what the same candidates copied into candidate order, with
 * their rack names, choose, read after read, under every geared policy:
 * two twins of each policy's read ordering, one asked each way, stay in step over 3,000 seeded reads.
 */
class ReadCandidatesTest {
  private static final Clock CLOCK = Clock.fixed(Instant.EPOCH, ZoneOffset.UTC);
  private static final String[] RACKS = {"/r0", "/r1", "/r2", "/off"};

  static List<GearedPolicySpec<?>> policies() {
    return GearedPolicies.entries();
  }

  private static GearedParts twin(GearedPolicySpec<?> policy) {
    List<Server> servers = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      servers.add(Server.builder(String.format("s%03d", i)).rack(RACKS[i % 3]).build());
    }
    EafrSettings shape = EafrSettings.defaults().toBuilder().set(EafrSettings.GEAR_PRIMARIES, 4)
        .set(EafrSettings.GEAR_GROUP_SIZE, 2).set(EafrSettings.GEAR_ACCORDION_LOWEST_GROUP, 3).build();
    return policy.build(new LayoutContext(shape, ExpansionChain.rackInterleaved(servers), 24, CLOCK,
        () -> new Random(7)), StoredBlocks.NONE);
  }

  @ParameterizedTest
  @MethodSource("policies")
  void orderedCandidates_chooseAsCopiedOnes_readAfterRead(GearedPolicySpec<?> policy) {
    GearedParts copied = twin(policy);
    GearedParts ordered = twin(policy);
    int servers = copied.layout().chain().size();
    ActiveSet on = copied.layout().serversOn(copied.layout().maximumGear() - 1);
    Random random = new Random(20261127);
    int chosenSomewhere = 0;
    for (int read = 0; read < 3_000; read++) {
      int replicas = 1 + random.nextInt(5);
      int[] positions = new int[replicas];
      String[] racks = new String[replicas];
      int[] queues = new int[replicas];
      for (int r = 0; r < replicas; r++) {
        positions[r] = random.nextInt(8) == 0 ? -1 : random.nextInt(servers);
        racks[r] = RACKS[random.nextInt(RACKS.length)];
        queues[r] = random.nextInt(30);
      }
      int count = 1 + random.nextInt(replicas);
      int[] order = shuffled(replicas, random);
      int slots = 1 + random.nextInt(20);
      String readerRack = random.nextInt(4) == 0 ? null : RACKS[random.nextInt(RACKS.length)];

      int expected = copied.reads().first(copiedInOrder(readerRack, order, count, positions, racks, queues, slots,
          on));
      boolean[] local = new boolean[replicas];
      for (int r = 0; r < replicas; r++) {
        local[r] = racks[r].equals(readerRack);
      }
      int actual = ordered.reads().first(ReadCandidates.ordered(order, count, positions, local, queues, slots, on));

      assertThat(actual).as("read %d", read).isEqualTo(expected);
      chosenSomewhere += expected > 0 ? 1 : 0;
    }
    assertThat(chosenSomewhere).as("reads whose first candidate is not the one chosen").isGreaterThan(300);
  }

  private static ReadCandidates copiedInOrder(String readerRack, int[] order, int count, int[] positions,
      String[] racks, int[] queues, int slots, ActiveSet on) {
    int[] orderedPositions = new int[count];
    String[] orderedRacks = new String[count];
    int[] orderedQueues = new int[count];
    int[] orderedSlots = new int[count];
    for (int i = 0; i < count; i++) {
      orderedPositions[i] = positions[order[i]];
      orderedRacks[i] = racks[order[i]];
      orderedQueues[i] = queues[order[i]];
      orderedSlots[i] = slots;
    }
    return new ReadCandidates(readerRack, orderedPositions, orderedRacks, orderedQueues, orderedSlots, count, on);
  }

  private static int[] shuffled(int n, Random random) {
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int swap = order[i];
      order[i] = order[j];
      order[j] = swap;
    }
    return order;
  }
}
