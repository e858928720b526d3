package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * What safe mode powers on, in the words of {@code hdfs eafr status} ({@code GearSafeModeWake}): each dead DataNode's
 * recovery group, sorted, then the other sleepers powered on once safe mode outlasted the groups' reports.
 */
class GearStatusSafeModeWakeTest {
  @Test
  void eachDeadDataNodesGroupThenTheSleepersPoweredForSafeMode() {
    Map<String, Set<String>> groups = new TreeMap<>(Map.of("10.0.0.1:9866", Set.of("10.0.0.9:9866", "10.0.0.5:9866"),
        "10.0.0.2:9866", Set.of("10.0.0.6:9866")));

    assertThat(GearStatus.safeModeWake(Map.of(), Set.of())).isNull();
    assertThat(GearStatus.safeModeWake(groups, Set.of())).isEqualTo("10.0.0.5:9866, 10.0.0.9:9866 for dead"
        + " 10.0.0.1:9866; 10.0.0.6:9866 for dead 10.0.0.2:9866");
    assertThat(GearStatus.safeModeWake(groups, Set.of("10.0.0.8:9866", "10.0.0.7:9866"))).isEqualTo("10.0.0.5:9866,"
        + " 10.0.0.9:9866 for dead 10.0.0.1:9866; 10.0.0.6:9866 for dead 10.0.0.2:9866; 10.0.0.7:9866, 10.0.0.8:9866"
        + " as safe mode outlasted them");
  }
}
