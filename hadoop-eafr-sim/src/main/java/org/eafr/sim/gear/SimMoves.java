package org.eafr.sim.gear;

import java.util.HashMap;
import java.util.Map;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.shift.MovePort;
import org.eafr.placement.gear.shift.Reply;

/**
 * Block moves over the simulator's transfer queue: each move is one replica copy from its source's queue (dropping
 * the source copy when the move says so); done when the copy lands, failed when it is abandoned or cannot start (the
 * block is not on the source, already on the target, or moving already). The gear shift's reflection and the policy's
 * own (reflection, passive migration, cleanup before a server sleeps) go the same way.
 */
public final class SimMoves implements MovePort {
  /** Queues a move as a copy; whether it was queued. */
  @FunctionalInterface
  public interface Queue {
    boolean enqueue(BlockMove move, boolean cleanup);
  }

  private final Queue queue;
  private final Map<Long, Reply> replies = new HashMap<>();
  private final Map<String, Long> inFlight = new HashMap<>();
  private long next;

  public SimMoves(Queue queue) {
    this.queue = queue;
  }

  @Override
  public long start(BlockMove move) {
    return start(move, false);
  }

  /** A move that empties a server before it sleeps (Rabbit's cleanup after write offloading). */
  public long startCleanup(BlockMove move) {
    return start(move, true);
  }

  private long start(BlockMove move, boolean cleanup) {
    long ticket = next++;
    if (queue.enqueue(move, cleanup)) {
      inFlight.put(move.blockId(), ticket);
      replies.put(ticket, Reply.PENDING);
    } else {
      replies.put(ticket, Reply.failed("block " + move.blockId() + " cannot move from position " + move.from()
          + " to " + move.to() + " now"));
    }
    return ticket;
  }

  /** The copy of {@code move} landed or was abandoned. */
  public void ended(BlockMove move, boolean landed) {
    Long ticket = inFlight.remove(move.blockId());
    if (ticket != null) {
      replies.put(ticket, landed ? Reply.DONE : Reply.failed("the copy of block " + move.blockId()
          + " was abandoned"));
    }
  }

  @Override
  public Reply poll(long ticket) {
    Reply reply = replies.getOrDefault(ticket, Reply.PENDING);
    if (reply.kind() != Reply.Kind.PENDING) {
      replies.remove(ticket); // answered once: the shift forgets a move once it has ended
    }
    return reply;
  }
}
