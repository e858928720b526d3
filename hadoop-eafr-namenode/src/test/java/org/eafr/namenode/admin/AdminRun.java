package org.eafr.namenode.admin;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
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
    try {
      ObjectName bean = new ObjectName("Hadoop:service=NameNode,name=EafrNameNode");
      return ManagementFactory.getPlatformMBeanServer().getAttribute(bean, attribute);
    } catch (javax.management.JMException e) {
      throw new IllegalStateException(e);
    }
  }
}
