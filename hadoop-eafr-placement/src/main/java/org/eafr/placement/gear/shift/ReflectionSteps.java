package org.eafr.placement.gear.shift;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.ExpansionChain;

/**
 * Reflection (Accordion Sec. 3.4; SpringFS Sec. 4's passive migration of what a re-integrated server missed): each
 * step walks the owed blocks a batch at a time from a cursor, and for each missing home that is live starts a move
 * from a live holder away from home (on the home's rack when there is one), dropping that copy once the home holds
 * it; a block written with fewer replicas than homes (too few DataNodes were on) gets its missing replica copied from
 * any live holder. At most {@code movesPerStep} moves in flight. A block is forgotten only when every home holds it and
 * no move of it is in flight (or it no longer exists): a home that sleeps keeps the record for a later gear-up, and the
 * copy a finished move leaves on its source is the one the host deletes (HDFS: the move's deletion hint). Reflection is over when a whole pass over
 * the owed blocks found no move to make or to wait for.
 *
 * <p>Worked example ({@code GearShiftTest}; racks r0, r1, r2 dealt round-robin, so s2 and s5 share r2): homes s0, s5,
 * s9 of a block written in gear 0 onto s0, s1, s2; after a gear-up that wakes s5 and s9, with one move per step,
 * reflection's step 1 moves s2 -> s5 (the holder on s5's rack), step 2 s1 -> s9, step 3 finds the block at home,
 * forgets it, and the pass ends clean: the shift is steady.
 */
final class ReflectionSteps {
  private final ShiftPorts ports;
  private ExpansionChain chain;
  private final ShiftSettings settings;
  private final Map<String, InFlight> inFlight = new HashMap<>();
  private String cursor = "";
  private boolean workThisPass;
  /** Moves this step may still start. */
  private int budget;

  ReflectionSteps(ShiftPorts ports, ExpansionChain chain, ShiftSettings settings) {
    this.ports = ports;
    this.chain = chain;
    this.settings = settings;
  }

  /** The chain grew ({@link GearShift#grow}): moves in flight carry on; new moves use the longer chain. */
  void chain(ExpansionChain longer) {
    this.chain = longer;
  }

  /** One batch; returns whether reflection still has work (a move in flight or to make, a pass not yet clean). */
  boolean step(long now) {
    settle(now);
    budget = settings.movesPerStep() - inFlight.size();
    int batch = Math.max(budget, 1) * 4;
    List<OwedBlock> owed = ports.store.owedAfter(cursor, batch);
    for (OwedBlock block : owed) {
      cursor = ports.store.cursorOf(block); // asked before reflect may forget the block
      workThisPass |= reflect(block, now);
    }
    if (owed.size() < batch) {
      boolean clean = !workThisPass && inFlight.isEmpty();
      cursor = "";
      workThisPass = false;
      return !clean;
    }
    return true;
  }

  /** Whether {@code block} has work now: a move in flight, or a live home to copy it to. */
  private boolean reflect(OwedBlock block, long now) {
    Optional<ReplicatedFile> held = ports.cluster.block(block.blockId());
    if (held.isEmpty()) {
      ports.store.forget(block.blockId());
      return false;
    }
    List<String> holders = held.get().replicaServers();
    if (inFlight.containsKey(block.blockId())) {
      return true; // forgotten only once its move has ended: the host deletes the source's copy, never a home's
    }
    if (holders.containsAll(block.homes())) {
      ports.store.forget(block.blockId());
      ports.events.blockReflected(block.blockId());
      return false;
    }
    List<String> missing = new ArrayList<>();
    for (String home : block.homes()) {
      if (!holders.contains(home) && ports.cluster.dataNode(home).liveInService()) {
        missing.add(home);
      }
    }
    if (missing.isEmpty()) {
      return false; // every missing home sleeps or is down: kept for a later gear-up
    }
    String to = missing.get(0);
    Optional<String> source = source(holders, block.homes(), to);
    boolean copy = source.isEmpty() && holders.size() < block.homes().size();
    if (copy) {
      source = source(holders, List.of(), to); // a replica never written (too few DataNodes were on): copy one
    }
    if (source.isEmpty()) {
      return false; // no live copy away from home to move now; looked at again next pass
    }
    if (budget > 0) {
      BlockMove move = new BlockMove(block.blockId(), chain.requirePosition(source.get()),
          chain.requirePosition(to), !copy);
      inFlight.put(block.blockId(), new InFlight(ports.moves.start(move), now));
      budget--;
    }
    return true;
  }

  /** A live holder away from home, on {@code to}'s rack when there is one ({@link MoveSource}). */
  private Optional<String> source(List<String> holders, List<String> homes, String to) {
    return MoveSource.pick(chain, holders, homes, to, holder -> ports.cluster.dataNode(holder).alive());
  }

  /** Forgets moves that ended (a failed one is tried again next pass) or went unanswered past the timeout. */
  private void settle(long now) {
    inFlight.entrySet().removeIf(entry -> {
      Reply reply = ports.moves.poll(entry.getValue().ticket);
      if (reply.kind() == Reply.Kind.FAILED || reply.kind() == Reply.Kind.REFUSED) {
        ports.events.moveFailed(entry.getKey(), reply.reason());
      }
      return reply.kind() != Reply.Kind.PENDING || now - entry.getValue().startedAt >= settings.moveTimeoutMillis();
    });
  }

  /** Moves in flight now. */
  int inFlight() {
    return inFlight.size();
  }

  /** A move started and not yet answered. */
  private static final class InFlight {
    final long ticket;
    final long startedAt;

    InFlight(long ticket, long startedAt) {
      this.ticket = ticket;
      this.startedAt = startedAt;
    }
  }
}
