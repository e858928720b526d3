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
    long ticket = next++;
    if (queue.enqueue(move, false)) {
      inFlight.put(move.blockId(), ticket);
      replies.put(ticket, Reply.PENDING);
    } else {
      replies.put(ticket, Reply.failed("block " + move.blockId() + " cannot move from position " + move.from()
          + " to " + move.to() + " now"));
    }
    return ticket;
  }

  /**
   * A move the policy asked for (reflection, passive migration, or with {@code cleanup} one that empties a server
   * before it sleeps): queued the same way, with no ticket (the policy learns of it when it lands). The policy asks
   * again for what did not start.
   */
  public void startForPolicy(BlockMove move, boolean cleanup) {
    queue.enqueue(move, cleanup);
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
