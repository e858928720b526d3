package org.eafr.demo;

import java.nio.file.Paths;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.eafr.namenode.admin.AdminTool;

/**
 * {@code DemoStatus STATE_DIR} ({@code scripts/demo.sh status}): what the NameNode says, not what the script
 * remembers: {@code hdfs eafr status} (gears; each DataNode's rack, role, admin state and liveness) and {@code hdfs eafr power status HOST} for every host of the power inventory (a live read through the
 * host's BMC driver). One JVM runs the same Tool the {@code hdfs eafr} command runs.
 */
public final class DemoStatus {
  private DemoStatus() {
  }

  public static void main(String[] args) throws Exception {
    DemoHosts hosts = new DemoState(Paths.get(args[0])).hosts();
    HdfsConfiguration conf = new HdfsConfiguration();
    int code = new AdminTool(conf).run(new String[] {"status"});
    System.out.println();
    System.out.println("power (hdfs eafr power status HOST, read through each host's BMC):");
    for (DemoHosts.Host host : hosts.hosts()) {
      System.out.printf("  %-16s %-8s %-7s ", host.name(), host.driver().inventoryName(), host.rack());
      System.out.flush();
      code |= new AdminTool(conf).run(new String[] {"power", "status", host.name()});
    }
    System.exit(code);
  }
}
