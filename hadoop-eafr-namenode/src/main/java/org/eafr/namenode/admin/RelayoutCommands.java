package org.eafr.namenode.admin;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eafr.namenode.relayout.RelayoutService;

/** The answers of {@code hdfs eafr relayout start | status | stop}, text or JSON. */
final class RelayoutCommands {
  private RelayoutCommands() {
  }

  static String answer(RelayoutService relayout, AdminRequest.Verb verb, boolean json) throws IOException {
    if (relayout == null) {
      throw new IllegalStateException("'hdfs eafr " + verb.words() + "' refused: gears are off on this NameNode"
          + " (eafr.layout = random); relayout moves blocks onto a geared layout: set eafr.layout = equal-work or"
          + " accordion and restart the NameNode");
    }
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
    if (!json) {
      return message;
    }
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("message", message);
    answer.put("relayout", relayout.values());
    return ClusterReport.json(answer);
  }
}
