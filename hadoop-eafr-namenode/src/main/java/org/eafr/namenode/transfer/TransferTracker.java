package org.eafr.namenode.transfer;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.eafr.placement.destination.TransferBacklog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Times the DataNode-to-DataNode copies the NameNode schedules (re-replication, EAFR's added replicas and
 * migrations), so that EAFR Eq. 9's transfer-speed EWMA is fed with bytes over completion time per destination.
 *
 * <p>HDFS has no hook that reports a copy's start or end, so the tracker reconstructs both from what the NameNode
 * already knows, polled every few hundred milliseconds:
 * <ol>
 *   <li><b>Scheduled</b> ({@link #scheduled}, on the placement policy's thread): the file, the block's length, the
 *       live holders, the source and the target. O(1) and never blocking; at most {@code maxTracked} copies are
 *       followed at once (beyond that a copy is simply not timed), and blocks shorter than {@code minSampleBytes}
 *       are not followed at all, as the poll interval would dominate their time.</li>
 *   <li><b>Resolved</b> (first poll): the policy sees no block, so the candidates are the file's blocks of that
 *       length held by every listed holder and not by the target. None: the copy is not timed.</li>
 *   <li><b>Dispatched</b>: HDFS hands out copy commands in heartbeat replies, first in, first out, from each
 *       source's queue, and a source takes a new one only when its copies in progress allow it
 *       ({@code dfs.namenode.replication.max-streams}). So a copy starts at the first heartbeat of its source after
 *       scheduling at which the source's queue ({@link BlockLocations#queuedCopies}) no longer holds it: the queue is
 *       shorter than the number of followed copies from that source scheduled after it. Timing a copy from the
 *       heartbeat after scheduling instead would count the time it waited behind the source's other copies as time
 *       on the target's link.</li>
 *   <li><b>Completed</b>: the first poll that sees the target holding a candidate block not claimed by an earlier
 *       copy to the same target; the sample is (target, length, completion - dispatch, at least 1 ms). A copy not
 *       completed within {@code timeoutMillis} of scheduling is dropped untimed.</li>
 * </ol>
 * Worked example (the unit test checks it): scheduled at 1000 ms, the source heartbeats at 1700 ms, a poll at
 * 4200 ms is the first to see the target holding the block: the sample is 4200 - 1700 = 2500 ms. Had the source's
 * queue still held the copy at 1700 ms (another copy ahead of it) and released it at the heartbeat of 2700 ms, the
 * sample would be 1500 ms.
 *
 * <p>The copies followed and not yet done are also the backlog of each target ({@link #queuedBytes}): what EAFR's
 * destination choice adds to a copy's own bytes when it ranks by expected finish time. For that ranking a target's
 * speed must be its link's, not a copy's share of it, so with a link window L &gt; 0 a target's samples are its busy
 * periods: from the dispatch of a copy while none was in flight to it, to the completion at which none is left in
 * flight, with the bytes completed in between. A target never idle gives a sample at the first completion at least
 * L after its period's start, and the next period starts at the dispatch of the earliest copy still in flight: that
 * copy's time may count in both, which can only make the link look slower, never faster. Copies that overlap count
 * their common time once, and no sample covers a sliver of time: two copies sharing a link that finish 10 ms apart
 * would otherwise give a 10 ms sample of a whole block, which lands in an EWMA window of its own as a speed many
 * times the link's. Worked example: copies of 16 MB to t dispatched at 0 and 1 s and seen completed at 4 and 6 s
 * give one sample of 32 MB in 6 s.
 *
 * <p>Threads: {@link #scheduled} and {@link #queuedBytes} from any thread; {@link #poll} from one poller thread at a
 * time.
 */
public final class TransferTracker implements TransferBacklog {
  private static final Logger LOG = LoggerFactory.getLogger(TransferTracker.class);

  /** Where completed samples go: EAFR's transfer-speed estimator in the NameNode. */
  public interface Sink {
    void record(String targetId, long bytes, long elapsedMillis);
  }

  private final int maxTracked;
  private final long minSampleBytes;
  private final long timeoutMillis;
  private final Sink sink;
  private final long linkWindowMillis;
  private final Map<String, BusyPeriod> busyByTarget = new HashMap<>(); // the poller's
  private final ConcurrentLinkedQueue<Copy> arrivals = new ConcurrentLinkedQueue<>();
  private final AtomicInteger tracked = new AtomicInteger();
  private final List<Copy> followed = new ArrayList<>();
  private final AtomicLong timed = new AtomicLong();
  private final AtomicLong timedBytes = new AtomicLong();
  private final AtomicLong untimed = new AtomicLong();
  private final Map<String, TransferSample> lastByTarget = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> queuedByTarget = new ConcurrentHashMap<>();

  /**
   * @param maxTracked most copies followed at once, at least 0
   * @param minSampleBytes blocks shorter than this are not timed
   * @param timeoutMillis a copy not seen completed this long after scheduling is dropped, at least 1
   * @param sink receives every timed copy
   */
  public TransferTracker(int maxTracked, long minSampleBytes, long timeoutMillis, Sink sink) {
    this(maxTracked, minSampleBytes, timeoutMillis, sink, 0);
  }

  /**
   * @param linkWindowMillis L: 0 for one sample per copy, else samples are a target's busy periods, cut at the first
   *     completion at least L after their start (see the class comment)
   */
  public TransferTracker(int maxTracked, long minSampleBytes, long timeoutMillis, Sink sink, long linkWindowMillis) {
    if (maxTracked < 0 || timeoutMillis < 1 || minSampleBytes < 1 || linkWindowMillis < 0) {
      throw new IllegalArgumentException("maxTracked = " + maxTracked + ", minSampleBytes = " + minSampleBytes
          + ", timeoutMillis = " + timeoutMillis + ", linkWindowMillis = " + linkWindowMillis + " are not allowed:"
          + " expected maxTracked >= 0, minSampleBytes >= 1, timeoutMillis >= 1 and linkWindowMillis >= 0");
    }
    this.maxTracked = maxTracked;
    this.minSampleBytes = minSampleBytes;
    this.timeoutMillis = timeoutMillis;
    this.sink = sink;
    this.linkWindowMillis = linkWindowMillis;
  }

  /**
   * The NameNode has chosen {@code targetId} to receive a copy of a block of {@code path} from {@code sourceId}.
   *
   * @return whether the copy will be followed (false: too short, or too many copies followed already)
   */
  public boolean scheduled(String path, long blockBytes, Collection<String> holderIds, String sourceId,
      String targetId, long nowMillis) {
    if (blockBytes < minSampleBytes) {
      return false;
    }
    if (tracked.incrementAndGet() > maxTracked) {
      tracked.decrementAndGet();
      untimed.incrementAndGet();
      return false;
    }
    queuedByTarget.computeIfAbsent(targetId, id -> new AtomicLong()).addAndGet(blockBytes);
    arrivals.add(new Copy(path, blockBytes, Set.copyOf(holderIds), sourceId, targetId, nowMillis));
    return true;
  }

  /**
   * Moves every followed copy on by what {@code replicas} shows now; completed copies go to the sink. A copy whose
   * file cannot be read is dropped untimed, so one bad entry never stalls the others.
   */
  public synchronized void poll(BlockLocations replicas, long nowMillis) {
    for (Copy copy = arrivals.poll(); copy != null; copy = arrivals.poll()) {
      followed.add(copy);
    }
    countScheduledAfter();
    Map<String, List<StoredBlock>> blocksThisPoll = new HashMap<>();
    for (Iterator<Copy> it = followed.iterator(); it.hasNext(); ) {
      Copy copy = it.next();
      boolean done;
      try {
        done = nowMillis - copy.scheduledMillis >= timeoutMillis
            || advance(copy, blocksThisPoll.computeIfAbsent(copy.path, replicas::blocksOf), replicas, nowMillis);
      } catch (RuntimeException | AssertionError e) { // e.g. a path HDFS cannot resolve: drop just this copy
        done = true;
      }
      if (done) {
        if (!copy.completed) {
          untimed.incrementAndGet();
          if (copy.dispatchedMillis != Long.MIN_VALUE) {
            leftFlight(copy, false, nowMillis);
          }
        }
        it.remove();
        tracked.decrementAndGet();
        queuedByTarget.get(copy.targetId).addAndGet(-copy.bytes);
      }
    }
  }

  /** True when {@code copy} is done with: timed, or without a candidate block to time. */
  private boolean advance(Copy copy, List<StoredBlock> blocks, BlockLocations replicas, long nowMillis) {
    if (copy.candidates == null) {
      copy.candidates = candidates(copy, blocks);
    }
    if (copy.candidates.isEmpty()) {
      return true;
    }
    if (copy.dispatchedMillis == Long.MIN_VALUE) {
      long heartbeat = replicas.lastHeartbeatMillis(copy.sourceId);
      if (heartbeat <= copy.scheduledMillis || replicas.queuedCopies(copy.sourceId) > copy.scheduledAfter) {
        return false; // not handed out yet: no heartbeat since, or still in the source's queue
      }
      copy.dispatchedMillis = heartbeat;
      if (linkWindowMillis > 0) {
        busyByTarget.computeIfAbsent(copy.targetId, id -> new BusyPeriod()).dispatched(heartbeat);
      }
    }
    for (StoredBlock block : blocks) {
      if (copy.candidates.contains(block.id()) && block.holders().contains(copy.targetId)) {
        complete(copy, block.id(), nowMillis);
        return true;
      }
    }
    return false;
  }

  private static Set<Long> candidates(Copy copy, List<StoredBlock> blocks) {
    Set<Long> candidates = new HashSet<>();
    for (StoredBlock block : blocks) {
      if (block.length() == copy.bytes && block.holders().containsAll(copy.holderIds)
          && !block.holders().contains(copy.targetId)) {
        candidates.add(block.id());
      }
    }
    return candidates;
  }

  /**
   * For each followed copy not yet dispatched, how many followed copies from its source were scheduled after it
   * (the followed list is in scheduling order).
   */
  private void countScheduledAfter() {
    Map<String, Integer> later = new HashMap<>();
    for (int i = followed.size() - 1; i >= 0; i--) {
      Copy copy = followed.get(i);
      copy.scheduledAfter = later.getOrDefault(copy.sourceId, 0);
      later.merge(copy.sourceId, 1, Integer::sum);
    }
  }

  /** Records the sample (per copy, or the target's busy period) and claims the block for this copy. */
  private void complete(Copy copy, long blockId, long nowMillis) {
    copy.completed = true;
    if (linkWindowMillis > 0) {
      leftFlight(copy, true, nowMillis);
    } else {
      record(copy.targetId, copy.bytes, nowMillis - copy.dispatchedMillis);
    }
    timed.incrementAndGet();
    timedBytes.addAndGet(copy.bytes);
    for (Copy other : followed) {
      if (other != copy && other.candidates != null && other.targetId.equals(copy.targetId)) {
        other.candidates.remove(blockId);
      }
    }
  }

  /** A dispatched copy is done: received ({@code completed}) or dropped. */
  private void leftFlight(Copy copy, boolean completed, long nowMillis) {
    BusyPeriod busy = busyByTarget.get(copy.targetId);
    if (busy == null) {
      return;
    }
    busy.done(copy.dispatchedMillis, completed ? copy.bytes : 0, completed, nowMillis);
    boolean idle = busy.inFlight.isEmpty();
    if (busy.bytes > 0 && (idle || busy.lastCompletion - busy.start >= linkWindowMillis)) {
      record(copy.targetId, busy.bytes, busy.lastCompletion - busy.start);
      busy.restart();
    }
    if (idle) {
      busyByTarget.remove(copy.targetId);
    }
  }

  private void record(String targetId, long bytes, long millis) {
    long elapsed = Math.max(1, millis);
    sink.record(targetId, bytes, elapsed);
    lastByTarget.put(targetId, new TransferSample(targetId, bytes, elapsed));
    LOG.debug("timed {} bytes to {} in {} ms", bytes, targetId, elapsed);
  }

  /** Bytes of the copies to {@code destinationId} followed now: scheduled, not yet seen received or dropped. */
  @Override
  public long queuedBytes(String destinationId) {
    AtomicLong queued = queuedByTarget.get(destinationId);
    return queued == null ? 0 : queued.get();
  }

  /** Copies timed so far. */
  public long timed() {
    return timed.get();
  }

  /** Bytes of the copies timed so far. */
  public long timedBytes() {
    return timedBytes.get();
  }

  /** Copies scheduled but not timed: over the bound, no matching block, or not completed in time. */
  public long untimed() {
    return untimed.get();
  }

  /** Copies followed now (scheduled, not yet timed or dropped). */
  public int following() {
    return tracked.get();
  }

  /** The last timed copy to each destination (one entry per DataNode ever timed). */
  public Map<String, TransferSample> lastSamples() {
    return Map.copyOf(lastByTarget);
  }

  /** One scheduled copy and what the polls have learnt about it; its mutable fields belong to the poller. */
  private static final class Copy {
    final String path;
    final long bytes;
    final Set<String> holderIds;
    final String sourceId;
    final String targetId;
    final long scheduledMillis;
    Set<Long> candidates;
    long dispatchedMillis = Long.MIN_VALUE;
    int scheduledAfter;
    boolean completed;

    Copy(String path, long bytes, Set<String> holderIds, String sourceId, String targetId, long scheduledMillis) {
      this.path = path;
      this.bytes = bytes;
      this.holderIds = holderIds;
      this.sourceId = sourceId;
      this.targetId = targetId;
      this.scheduledMillis = scheduledMillis;
    }
  }

  /** One target's current busy period: its start, the bytes completed in it, and the dispatches of the copies in flight. */
  private static final class BusyPeriod {
    long start;
    long lastCompletion;
    long bytes;
    final List<Long> inFlight = new ArrayList<>();

    void dispatched(long dispatchMillis) {
      if (inFlight.isEmpty() && bytes == 0) {
        start = dispatchMillis;
      }
      inFlight.add(dispatchMillis);
    }

    void done(long dispatchMillis, long completedBytes, boolean completed, long nowMillis) {
      inFlight.remove(Long.valueOf(dispatchMillis));
      bytes += completedBytes;
      if (completed) {
        lastCompletion = nowMillis;
      }
    }

    /** After a sample that left copies in flight: the next one starts when the earliest of them did. */
    void restart() {
      bytes = 0;
      start = inFlight.stream().mapToLong(Long::longValue).min().orElse(lastCompletion);
    }
  }
}
