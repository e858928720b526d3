package org.eafr.namenode.admin;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eafr.namenode.relayout.RelayoutService;
import org.eafr.namenode.relayout.LowestGearRoom;

/** The answers of {@code hdfs eafr relayout start | status | stop}, text or JSON. */
final class RelayoutCommands {
  private RelayoutCommands() {
  }

  static String answer(RelayoutService relayout, AdminRequest.Verb verb, boolean json) throws IOException {
    requireGears(relayout, verb);
    String message;
    switch (verb) {
      case RELAYOUT_START:
        message = relayout.start();
        break;
      case RELAYOUT_STOP:
        message = relayout.stop();
        break;
      default:
        message = relayout.statusText();
    }
    return answer(relayout, message, json);
  }

  /**
   * {@code relayout grow}: the layout grown to the p the lowest gear's room names ({@link LowestGearRoom}: one whole
   * copy at the cluster's fill, with eafr.gear.capacity-headroom to spare) and relayout started onto it; refused,
   * saying why, when the lowest gear holds one copy already or the whole chain cannot.
   */
  static String grow(RelayoutService relayout, Optional<LowestGearRoom> room, boolean json) throws IOException {
    requireGears(relayout, AdminRequest.Verb.RELAYOUT_GROW);
    LowestGearRoom lowest = room.orElseThrow(() -> new IllegalStateException("relayout grow refused: no geared"
        + " layout in force yet (no expansion chain)"));
    if (lowest.holdsOneCopy()) {
      throw new IllegalStateException("relayout grow refused: the " + lowest.text().trim() + "; nothing to grow");
    }
    int p = lowest.primariesNeeded().orElseThrow(() -> new IllegalStateException("relayout grow refused: the "
        + lowest.text().trim()));
    return answer(relayout, relayout.grow(p), json);
  }

  private static void requireGears(RelayoutService relayout, AdminRequest.Verb verb) {
    if (relayout == null) {
      throw new IllegalStateException("'hdfs eafr " + verb.words() + "' refused: gears are off on this NameNode"
          + " (eafr.layout = random); relayout moves blocks onto a geared layout: set eafr.layout = equal-work or"
          + " accordion and restart the NameNode");
    }
  }

  private static String answer(RelayoutService relayout, String message, boolean json) {
    if (!json) {
      return message;
    }
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("message", message);
    answer.put("relayout", relayout.values());
    return ClusterReport.json(answer);
  }
}
