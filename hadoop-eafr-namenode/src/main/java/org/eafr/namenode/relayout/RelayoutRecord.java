package org.eafr.namenode.relayout;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.eafr.placement.gear.relayout.RelayoutPlanner;

/**
 * Where a relayout is, as persisted when each batch starts (JSON in the xattr {@value #XATTR} on the gear state
 * directory, so it goes through the edit log and a restarted or failed-over NameNode goes on from it): whether it
 * runs, the cursor of its namespace walk and the planner's state past the batch's files, and what the batches up to
 * {@link #batches} moved (the batch under way: {@link BatchMoves}).
 * Mutable; the relayout service's thread owns it.
 */
final class RelayoutRecord {
  static final String XATTR = "trusted.eafr.relayout";
  private static final ObjectMapper JSON = new ObjectMapper();

  boolean running;
  boolean finished;
  String cursor = "";
  long files;
  long movedBytes;
  long movedReplicas;
  long failedMoves;
  long skippedMoves;
  /** The batches whose moves the counts above hold: every batch up to this number ({@link BatchMoves#number}). */
  long batches;
  long startedMillis;
  /** The walk under way: 1 for the first; a later one checks that no block is left off its homes. */
  int pass = 1;
  /** The first walk's plan and lower bound, once it is over (the bound every relayout of these blocks must move). */
  long firstPlannedBytes = -1;
  long firstBoundBytes = -1;
  /** Bytes the first walk's moves moved, once it is over. */
  long firstMovedBytes = -1;
  /** The layout's primaries before and after the growth this relayout carries the blocks to; 0 when it grew none. */
  int grownFrom;
  int grownTo;
  /** The planner's state at the cursor (the batch under way planned); null before the first batch. */
  RelayoutPlanner.State planner;

  static RelayoutRecord started(long now) {
    RelayoutRecord record = new RelayoutRecord();
    record.running = true;
    record.startedMillis = now;
    return record;
  }

  byte[] toBytes() {
    ObjectNode root = JSON.createObjectNode().put("running", running).put("finished", finished).put("cursor", cursor)
        .put("files", files).put("movedBytes", movedBytes).put("movedReplicas", movedReplicas)
        .put("failedMoves", failedMoves).put("skippedMoves", skippedMoves).put("batches", batches)
        .put("startedMillis", startedMillis)
        .put("pass", pass).put("firstPlannedBytes", firstPlannedBytes).put("firstBoundBytes", firstBoundBytes)
        .put("firstMovedBytes", firstMovedBytes).put("grownFrom", grownFrom).put("grownTo", grownTo);
    if (planner != null) {
      ObjectNode state = root.putObject("planner");
      array(state.putArray("assigned"), planner.assigned());
      array(state.putArray("held"), planner.held());
      array(state.putArray("alternatives"), planner.alternativeBytes());
      array(state.putArray("counters"), planner.counters());
      array(state.putArray("expectedHeld"), planner.expectedHeld());
      array(state.putArray("movableHeld"), planner.movableHeld());
    }
    return root.toString().getBytes(StandardCharsets.UTF_8);
  }

  static RelayoutRecord fromBytes(byte[] bytes) throws IOException {
    JsonNode root = JSON.readTree(bytes);
    RelayoutRecord record = new RelayoutRecord();
    record.running = root.path("running").asBoolean();
    record.finished = root.path("finished").asBoolean();
    record.cursor = root.path("cursor").asText("");
    record.files = root.path("files").asLong();
    record.movedBytes = root.path("movedBytes").asLong();
    record.movedReplicas = root.path("movedReplicas").asLong();
    record.failedMoves = root.path("failedMoves").asLong();
    record.skippedMoves = root.path("skippedMoves").asLong();
    record.batches = root.path("batches").asLong();
    record.startedMillis = root.path("startedMillis").asLong();
    record.pass = root.path("pass").asInt(1);
    record.firstPlannedBytes = root.path("firstPlannedBytes").asLong(-1);
    record.firstBoundBytes = root.path("firstBoundBytes").asLong(-1);
    record.firstMovedBytes = root.path("firstMovedBytes").asLong(-1);
    record.grownFrom = root.path("grownFrom").asInt(0);
    record.grownTo = root.path("grownTo").asInt(0);
    JsonNode state = root.path("planner");
    if (state.isObject()) {
      record.planner = new RelayoutPlanner.State(longs(state.path("assigned")), longs(state.path("held")),
          longs(state.path("alternatives")), longs(state.path("counters")), longs(state.path("expectedHeld")),
          longs(state.path("movableHeld")));
    }
    return record;
  }

  private static void array(ArrayNode node, long[] values) {
    for (long value : values) {
      node.add(value);
    }
  }

  private static long[] longs(JsonNode node) {
    long[] values = new long[node.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = node.get(i).asLong();
    }
    return values;
  }
}
