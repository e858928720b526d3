package org.eafr.namenode.admin;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;

/** One run of {@code hdfs eafr ...} through the real Tool against a test cluster: exit code, stdout, stderr. */
public final class AdminRun {
  public final int code;
  public final String out;
  public final String err;

  private AdminRun(int code, String out, String err) {
    this.code = code;
    this.out = out;
    this.err = err;
  }

  public static AdminRun run(Configuration conf, String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    AdminTool tool = new AdminTool(new Configuration(conf), new PrintStream(out, true, "UTF-8"),
        new PrintStream(err, true, "UTF-8"));
    int code = ToolRunner.run(tool, args);
    return new AdminRun(code, out.toString("UTF-8"), err.toString("UTF-8"));
  }

  /** An attribute of the NameNode's EafrNameNode metrics bean. */
  public static Object jmx(String attribute) {
    return jmx("EafrNameNode", attribute);
  }

  /**
   * An attribute of the bean {@code name} (EafrNameNode, EafrPower, EafrDataNodes). Its service is NameNode in a
   * NameNode; in a MiniDFSCluster a metrics source registered after the DataNodes started is under service DataNode.
   */
  public static Object jmx(String name, String attribute) {
    try {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      Set<ObjectName> beans = server.queryNames(new ObjectName("Hadoop:service=*,name=" + name), null);
      if (beans.isEmpty()) {
        throw new IllegalStateException("no bean Hadoop:service=*,name=" + name);
      }
      return server.getAttribute(beans.iterator().next(), attribute);
    } catch (javax.management.JMException e) {
      throw new IllegalStateException(e);
    }
  }
}
