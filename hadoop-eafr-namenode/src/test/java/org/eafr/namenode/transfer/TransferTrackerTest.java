package org.eafr.namenode.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The tracker's timing rules on a hand-driven replica map and clock: exact samples, bound, expiry, claims. */
class TransferTrackerTest {
  private static final long MB = 1 << 20;
  private static final List<String> HOLDERS = List.of("a:1", "b:1");

  private final FakeBlockLocations replicas = new FakeBlockLocations();
  private final List<TransferSample> samples = new ArrayList<>();
  private final TransferTracker tracker = new TransferTracker(2, MB, 10_000, this::record);

  private void record(String target, long bytes, long elapsed) {
    samples.add(new TransferSample(target, bytes, elapsed));
  }

  @Test
  void workedExample_elapsedRunsFromTheSourcesFirstHeartbeatToTheFirstPollSeeingTheTarget() {
    replicas.block(11, 4 * MB, "a:1", "b:1");
    replicas.heartbeat("a:1", 900);
    assertThat(tracker.scheduled("/f", 4 * MB, HOLDERS, "a:1", "t:1", 1000)).isTrue();
    tracker.poll(replicas, 1200); // resolved; the source has not heartbeaten since
    replicas.heartbeat("a:1", 1700);
    tracker.poll(replicas, 1800); // dispatched at 1700
    tracker.poll(replicas, 4000);
    assertThat(samples).isEmpty();
    replicas.block(11, 4 * MB, "a:1", "b:1", "t:1");
    tracker.poll(replicas, 4200);
    assertThat(samples).singleElement().satisfies(s -> {
      assertThat(s.targetId()).isEqualTo("t:1");
      assertThat(s.bytes()).isEqualTo(4 * MB);
      assertThat(s.elapsedMillis()).isEqualTo(2500);
    });
    assertThat(tracker.timed()).isEqualTo(1);
    assertThat(tracker.timedBytes()).isEqualTo(4 * MB);
    assertThat(tracker.following()).isZero();
    assertThat(tracker.lastSamples()).containsOnlyKeys("t:1");
  }

  @Test
  void queuedBytes_countFollowedCopiesUntilTheyAreReceivedOrDropped() {
    replicas.block(11, 4 * MB, "a:1", "b:1");
    replicas.block(12, 4 * MB, "a:1", "b:1");
    tracker.scheduled("/f", 4 * MB, HOLDERS, "a:1", "t:1", 1000);
    tracker.scheduled("/g", 4 * MB, HOLDERS, "a:1", "t:1", 1000);
    assertThat(tracker.queuedBytes("t:1")).isEqualTo(8 * MB);
    assertThat(tracker.queuedBytes("u:1")).isZero();

    tracker.poll(replicas, 1200); // /g's file has no such block: dropped
    assertThat(tracker.queuedBytes("t:1")).isEqualTo(4 * MB);
    replicas.heartbeat("a:1", 1500);
    replicas.block(11, 4 * MB, "a:1", "b:1", "t:1");
    tracker.poll(replicas, 1600); // /f's copy received
    assertThat(tracker.queuedBytes("t:1")).isZero();
  }

  @Test
  void workedExample_aCopyHeldInTheSourcesQueue_startsAtTheHeartbeatThatHandsItOut() {
    replicas.block(11, 4 * MB, "a:1", "b:1");
    replicas.heartbeat("a:1", 900);
    tracker.scheduled("/f", 4 * MB, HOLDERS, "a:1", "t:1", 1000);
    replicas.queued("a:1", 1); // another copy is ahead of it: the source still holds this one
    replicas.heartbeat("a:1", 1700);
    tracker.poll(replicas, 1800);
    replicas.queued("a:1", 0);
    replicas.heartbeat("a:1", 2700);
    tracker.poll(replicas, 2800); // handed out at 2700
    replicas.block(11, 4 * MB, "a:1", "b:1", "t:1");
    tracker.poll(replicas, 4200);

    assertThat(samples).extracting(TransferSample::elapsedMillis).containsExactly(1500L);
  }

  @Test
  void aCopyScheduledAfterAnotherFromTheSameSource_isNotHeldByTheOthersPlaceInTheQueue() {
    replicas.block(11, 4 * MB, "a:1", "b:1");
    replicas.block(12, 4 * MB, "a:1", "b:1");
    replicas.heartbeat("a:1", 900);
    tracker.scheduled("/f", 4 * MB, HOLDERS, "a:1", "t:1", 1000);
    tracker.scheduled("/f", 4 * MB, HOLDERS, "a:1", "u:1", 1000);
    replicas.queued("a:1", 1); // the first was handed out, the second is queued
    replicas.heartbeat("a:1", 1700);
    tracker.poll(replicas, 1800);
    replicas.block(11, 4 * MB, "a:1", "b:1", "t:1");
    tracker.poll(replicas, 3000);

    assertThat(samples).singleElement().satisfies(s -> {
      assertThat(s.targetId()).isEqualTo("t:1");
      assertThat(s.elapsedMillis()).isEqualTo(1300);
    });
  }

  @Test
  void workedExample_linkTime_overlappingCopiesToOneTargetAreOneBusyPeriod() {
    TransferTracker links = new TransferTracker(2, MB, 10_000, this::record, 60_000);
    replicas.block(11, 16 * MB, "a:1", "b:1");
    replicas.block(12, 16 * MB, "a:1", "b:1");
    links.scheduled("/f", 16 * MB, HOLDERS, "a:1", "t:1", -100);
    replicas.heartbeat("a:1", 0);
    links.poll(replicas, 0); // both resolved; the first dispatched at 0
    links.scheduled("/f", 16 * MB, HOLDERS, "a:1", "t:1", 500);
    replicas.heartbeat("a:1", 1000);
    links.poll(replicas, 1000); // the second dispatched at 1 s
    replicas.block(11, 16 * MB, "a:1", "b:1", "t:1");
    links.poll(replicas, 4000);
    assertThat(samples).isEmpty(); // the second copy is still in flight
    replicas.block(12, 16 * MB, "a:1", "b:1", "t:1");
    links.poll(replicas, 6000);

    assertThat(samples).singleElement().satisfies(s -> {
      assertThat(s.bytes()).isEqualTo(32 * MB);
      assertThat(s.elapsedMillis()).isEqualTo(6000);
    });
  }

  @Test
  void linkTime_copiesFinishingMomentsApart_giveNoSliverSample() {
    TransferTracker links = new TransferTracker(2, MB, 60_000, this::record, 5_000);
    replicas.block(11, 16 * MB, "a:1", "b:1");
    replicas.block(12, 16 * MB, "a:1", "b:1");
    links.scheduled("/f", 16 * MB, HOLDERS, "a:1", "t:1", -100);
    links.scheduled("/f", 16 * MB, HOLDERS, "a:1", "t:1", -100);
    replicas.heartbeat("a:1", 0);
    links.poll(replicas, 0); // both dispatched at 0, sharing t's link
    replicas.block(11, 16 * MB, "a:1", "b:1", "t:1");
    links.poll(replicas, 10_000);
    replicas.block(12, 16 * MB, "a:1", "b:1", "t:1");
    links.poll(replicas, 10_010);

    // The first completion is 10 s after the period began (at least L = 5 s): 16 MB in 10 s. The next period starts
    // at the dispatch of the copy still in flight (0), not at 10 s, where its 10 ms would be a sample 1000 times
    // faster than the link.
    assertThat(samples).extracting(TransferSample::bytes, TransferSample::elapsedMillis)
        .containsExactly(tuple(16 * MB, 10_000L), tuple(16 * MB, 10_010L));
  }

  @Test
  void dispatchAndCompletionSeenInOnePoll_elapsedIsAtLeastOneMillisecond() {
    replicas.block(11, 4 * MB, "a:1", "b:1");
    tracker.scheduled("/f", 4 * MB, HOLDERS, "a:1", "t:1", 1000);
    tracker.poll(replicas, 1100);
    replicas.heartbeat("a:1", 1300);
    replicas.block(11, 4 * MB, "a:1", "b:1", "t:1");
    tracker.poll(replicas, 1300);
    assertThat(samples).extracting(TransferSample::elapsedMillis).containsExactly(1L);
  }

  @Test
  void copiesBeyondTheBound_areNotFollowed_andTheCallerIsNotHeldUp() {
    replicas.block(11, 4 * MB, "a:1", "b:1");
    assertThat(tracker.scheduled("/f", 4 * MB, HOLDERS, "a:1", "t:1", 1000)).isTrue();
    assertThat(tracker.scheduled("/f", 4 * MB, HOLDERS, "a:1", "u:1", 1000)).isTrue();
    assertThat(tracker.scheduled("/f", 4 * MB, HOLDERS, "a:1", "v:1", 1000)).isFalse();
    assertThat(tracker.following()).isEqualTo(2);
    assertThat(tracker.untimed()).isEqualTo(1);
  }

  @Test
  void blocksShorterThanTheMinimumSample_areNotFollowed() {
    assertThat(tracker.scheduled("/f", MB - 1, HOLDERS, "a:1", "t:1", 1000)).isFalse();
    assertThat(tracker.following()).isZero();
    assertThat(tracker.untimed()).isZero();
  }

  @Test
  void aCopyNotCompletedWithinTheTimeout_isDroppedWithoutASample_andFreesItsPlace() {
    replicas.block(11, 4 * MB, "a:1", "b:1");
    tracker.scheduled("/f", 4 * MB, HOLDERS, "a:1", "t:1", 1000);
    replicas.heartbeat("a:1", 1500);
    tracker.poll(replicas, 10_999);
    assertThat(tracker.following()).isEqualTo(1);
    tracker.poll(replicas, 11_000);
    replicas.block(11, 4 * MB, "a:1", "b:1", "t:1");
    tracker.poll(replicas, 11_200);
    assertThat(samples).isEmpty();
    assertThat(tracker.following()).isZero();
    assertThat(tracker.untimed()).isEqualTo(1);
  }

  @Test
  void noMatchingBlockAtFirstLook_dropsTheCopy() {
    replicas.block(11, 3 * MB, "a:1", "b:1"); // other length
    replicas.block(12, 4 * MB, "a:1"); // not held by b
    replicas.block(13, 4 * MB, "a:1", "b:1", "t:1"); // already on the target
    tracker.scheduled("/f", 4 * MB, HOLDERS, "a:1", "t:1", 1000);
    tracker.poll(replicas, 1200);
    assertThat(tracker.following()).isZero();
    assertThat(tracker.untimed()).isEqualTo(1);
  }

  @Test
  void twoCopiesToOneTarget_withTheSameCandidates_eachClaimOneBlock() {
    replicas.block(11, 4 * MB, "a:1", "b:1");
    replicas.block(12, 4 * MB, "a:1", "b:1");
    tracker.scheduled("/f", 4 * MB, HOLDERS, "a:1", "t:1", 1000);
    tracker.scheduled("/f", 4 * MB, HOLDERS, "b:1", "t:1", 1000);
    tracker.poll(replicas, 1100);
    replicas.heartbeat("a:1", 1500);
    replicas.heartbeat("b:1", 1600);
    replicas.block(12, 4 * MB, "a:1", "b:1", "t:1");
    tracker.poll(replicas, 2000); // the earlier-scheduled copy claims block 12
    assertThat(samples).extracting(TransferSample::elapsedMillis).containsExactly(500L);
    tracker.poll(replicas, 2500); // block 12 is claimed: the second copy waits for block 11
    assertThat(samples).hasSize(1);
    replicas.block(11, 4 * MB, "a:1", "b:1", "t:1");
    tracker.poll(replicas, 3000);
    assertThat(samples).extracting(TransferSample::elapsedMillis).containsExactly(500L, 1400L);
  }

  @Test
  void aFileThatCannotBeRead_dropsOnlyItsCopy_andTheOthersAreStillTimed() {
    replicas.block(11, 4 * MB, "a:1", "b:1");
    tracker.scheduled("/broken", 4 * MB, HOLDERS, "a:1", "t:1", 1000); // scheduled first: polled first
    tracker.scheduled("/f", 4 * MB, HOLDERS, "a:1", "u:1", 1000);
    tracker.poll(replicas, 1100);
    assertThat(tracker.following()).isEqualTo(1);
    assertThat(tracker.untimed()).isEqualTo(1);
    replicas.heartbeat("a:1", 1500);
    replicas.block(11, 4 * MB, "a:1", "b:1", "u:1");
    tracker.poll(replicas, 2000);
    assertThat(samples).extracting(TransferSample::targetId).containsExactly("u:1");
  }

  @Test
  void invalidBoundOrTimeout_isRefused() {
    assertThatThrownBy(() -> new TransferTracker(-1, MB, 1, this::record)).hasMessageContaining("maxTracked = -1");
    assertThatThrownBy(() -> new TransferTracker(1, MB, 0, this::record)).hasMessageContaining("timeoutMillis = 0");
    assertThatThrownBy(() -> new TransferTracker(1, 0, 1, this::record)).hasMessageContaining("minSampleBytes = 0");
  }

  /** One file's blocks and the sources' heartbeats, set by hand. */
  private static final class FakeBlockLocations implements BlockLocations {
    private final Map<Long, StoredBlock> blocks = new HashMap<>();
    private final Map<String, Long> heartbeats = new HashMap<>();
    private final Map<String, Integer> queues = new HashMap<>();

    void block(long id, long length, String... holders) {
      blocks.put(id, new StoredBlock(id, length, List.of(holders)));
    }

    void heartbeat(String node, long millis) {
      heartbeats.put(node, millis);
    }

    void queued(String node, int copies) {
      queues.put(node, copies);
    }

    @Override
    public int queuedCopies(String nodeId) {
      return queues.getOrDefault(nodeId, 0);
    }

    @Override
    public List<StoredBlock> blocksOf(String path) {
      if (path.equals("/broken")) {
        throw new IllegalStateException("cannot resolve " + path); // as a path HDFS refuses would
      }
      return path.equals("/f") ? new ArrayList<>(blocks.values()) : List.of();
    }

    @Override
    public long lastHeartbeatMillis(String nodeId) {
      return heartbeats.getOrDefault(nodeId, Long.MIN_VALUE);
    }
  }
}
