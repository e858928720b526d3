package org.eafr.namenode.placement;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.eafr.namenode.testing.EafrCluster;
import org.junit.jupiter.api.Test;

/** A NameNode configured with the EAFR policy refuses to start on a bad setting or roles file, naming the fault. */
class BadConfigurationTest {

  @Test
  void epsNotBelowR_stopsTheNameNode() throws Exception {
    Configuration conf = EafrCluster.baseConf("bad-eps");
    conf.set("eafr.min-replicas", "2");
    conf.set("eafr.min-hot-replicas", "2");
    assertThatThrownBy(() -> EafrCluster.start(conf).close())
        .hasStackTraceContaining("eafr.min-hot-replicas")
        .hasStackTraceContaining("must be below eafr.min-replicas")
        .hasStackTraceContaining("FSNamesystem");
  }

  @Test
  void malformedRolesFile_stopsTheNameNode() throws Exception {
    Configuration conf = EafrCluster.baseConf("bad-roles");
    Path roles = Path.of(conf.get("eafr.roles.file"));
    Files.write(roles, List.of("hot 10.0.0.1", "sleepy 10.0.0.2"));
    assertThatThrownBy(() -> EafrCluster.start(conf).close())
        .hasStackTraceContaining("line 2 'sleepy 10.0.0.2' is malformed")
        .hasStackTraceContaining("FSNamesystem");
  }

  @Test
  void misspelledKey_stopsTheNameNode_namingTheNearestKey() throws Exception {
    Configuration conf = EafrCluster.baseConf("bad-key");
    conf.set("eafr.min-replica", "3");
    assertThatThrownBy(() -> EafrCluster.start(conf).close())
        .hasStackTraceContaining("eafr.min-replica = 3 is not allowed: unknown key; did you mean eafr.min-replicas?")
        .hasStackTraceContaining("FSNamesystem");
  }

  @Test
  void rolesFileWithNoHotDataNode_stopsTheNameNode_whileEpsIsAtLeastOne() throws Exception {
    Configuration conf = EafrCluster.baseConf("no-hot");
    Files.write(Path.of(conf.get("eafr.roles.file")), List.of("unlisted standby", "standby 10.0.0.2"));
    assertThatThrownBy(() -> EafrCluster.start(conf).close())
        .hasStackTraceContaining("makes no DataNode hot, but eafr.min-hot-replicas = 1")
        .hasStackTraceContaining("FSNamesystem");
  }
}
