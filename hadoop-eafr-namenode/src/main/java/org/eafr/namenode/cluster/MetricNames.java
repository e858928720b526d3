package org.eafr.namenode.cluster;

import java.util.LinkedHashMap;
import java.util.Map;

/** Metric names (JMX, capitalized) as {@code hdfs eafr status -json} spells them: the first letter lower case. */
public final class MetricNames {
  private MetricNames() {
  }

  /** {@code metrics} with each name's first letter lower-cased, in the same order. */
  public static Map<String, Object> toJson(Map<String, ?> metrics) {
    Map<String, Object> json = new LinkedHashMap<>();
    metrics.forEach((name, value) -> json.put(Character.toLowerCase(name.charAt(0)) + name.substring(1), value));
    return json;
  }
}
