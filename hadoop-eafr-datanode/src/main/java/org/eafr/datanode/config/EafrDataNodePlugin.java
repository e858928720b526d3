package org.eafr.datanode.config;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.util.ServicePlugin;
import org.slf4j.Logger;

/**
 * What every EAFR DataNode plugin ({@code dfs.datanode.plugins}) does the same way: its settings are read and checked
 * when Hadoop creates the plugin ({@link #setConf}), where an exception stops the DataNode with the key, the value and
 * what is allowed (one thrown from {@code start} would only be logged, and the DataNode would run without the feature
 * its operator asked for); its periodic work runs on one daemon thread.
 *
 * @param <S> the plugin's validated settings
 */
public abstract class EafrDataNodePlugin<S> implements ServicePlugin, Configurable {
  private final Logger log;
  private final String feature;
  private Configuration conf;
  private S settings;

  /** {@code feature} names the plugin in its log lines, e.g. "receive rate control". */
  protected EafrDataNodePlugin(Logger log, String feature) {
    this.log = log;
    this.feature = feature;
  }

  /** Reads and checks the plugin's settings; throws naming the key, the value and what is allowed. */
  protected abstract S readSettings(Configuration configuration);

  @Override
  public final void setConf(Configuration configuration) {
    this.conf = configuration;
    try {
      this.settings = readSettings(configuration);
    } catch (RuntimeException e) {
      log.error("EAFR {} refuses to start: {}", feature, e.getMessage());
      throw e;
    }
  }

  @Override
  public final Configuration getConf() {
    return conf;
  }

  /** The settings, read from the DataNode's configuration when Hadoop started the plugin without calling setConf. */
  protected final S settings(DataNode dataNode) {
    if (settings == null) {
      setConf(dataNode.getConf());
    }
    return settings;
  }

  /** A single daemon thread named {@code threadName}: the plugin's periodic work never keeps the JVM alive. */
  protected static ScheduledExecutorService daemonScheduler(String threadName) {
    return Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, threadName);
      thread.setDaemon(true);
      return thread;
    });
  }

  @Override
  public void close() {
    stop();
  }
}
