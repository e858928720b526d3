package org.apache.hadoop.hdfs.server.balancer;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;

/**
 * {@code hdfs balancer ARGS} in this JVM: HDFS's own command-line Balancer (its Tool is package-private, hence this
 * class's package), with its exit code, as an operator runs it.
 */
public final class BalancerCommand {
  private BalancerCommand() {
  }

  /** Runs the Balancer with {@code args}; its exit code ({@link ExitStatus}). */
  public static int run(Configuration conf, String... args) throws Exception {
    return ToolRunner.run(new Configuration(conf), new Balancer.Cli(), args);
  }

  /** The exit code of {@code status}, e.g. to tell "nothing could be moved" from success. */
  public static int code(String status) {
    return ExitStatus.valueOf(status).getExitCode();
  }
}
