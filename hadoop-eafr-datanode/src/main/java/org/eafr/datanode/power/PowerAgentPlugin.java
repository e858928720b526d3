package org.eafr.datanode.power;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.eafr.datanode.config.EafrDataNodePlugin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DataNode's in-band power agent ({@code dfs.datanode.plugins}), for hosts only Wake-on-LAN can wake: see
 * {@link PowerAgent}. Off unless {@code eafr.datanode.power-agent.enabled} is true: then nothing runs. On, it polls
 * every NameNode of the DataNode's configuration every {@code eafr.datanode.power-agent.poll.ms} as the DataNode's
 * login user, over the NameNode's RPC port (no port of its own). Settings are checked when Hadoop creates the plugin
 * ({@link EafrDataNodePlugin}).
 */
public class PowerAgentPlugin extends EafrDataNodePlugin<PowerAgentSettings> {
  private static final Logger LOG = LoggerFactory.getLogger(PowerAgentPlugin.class);

  private PowerAgent agent;
  private PowerAgentMetrics metrics;
  private volatile ScheduledExecutorService scheduler;

  public PowerAgentPlugin() {
    super(LOG, "power agent");
  }

  @Override
  protected PowerAgentSettings readSettings(Configuration configuration) {
    return PowerAgentSettings.from(configuration::get,
        configuration.getValByRegex("^" + PowerAgentSettings.PREFIX.replace(".", "\\.")));
  }

  @Override
  public void start(Object service) {
    DataNode dataNode = (DataNode) service;
    PowerAgentSettings settings = settings(dataNode);
    if (!settings.enabled()) {
      LOG.info("EAFR power agent is off ({} = false)", PowerAgentSettings.ENABLED_KEY);
      return;
    }
    NameNodeSleepChannel channel;
    try {
      channel = new NameNodeSleepChannel(dataNode.getConf(), UserGroupInformation.getLoginUser());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    agent = new PowerAgent(settings, channel, dataNode::getDatanodeUuid, dataNode::shutdown,
        AgentSecrets.of(dataNode.getConf(), System.getenv()));
    metrics = new PowerAgentMetrics(dataNode.getDisplayName(), agent);
    DefaultMetricsSystem.instance().register(metrics.name(), "EAFR in-band power agent", metrics);
    scheduler = daemonScheduler("eafr-power-agent");
    scheduler.scheduleWithFixedDelay(agent::pollOnce, settings.pollMillis(), settings.pollMillis(),
        TimeUnit.MILLISECONDS);
    LOG.info("EAFR power agent on: NameNodes {}, {}", channel.nameNodes(), settings);
  }

  /** The agent's state (IDLE when off), for tests and diagnostics. */
  public PowerAgentState state() {
    return agent == null ? PowerAgentState.IDLE : agent.state();
  }

  /**
   * Stops polling. Called by the DataNode's shutdown, also when the agent itself stops the DataNode: then its thread
   * is not interrupted (it runs the host command next) and the metrics source stays until the process exits.
   */
  @Override
  public void stop() {
    ScheduledExecutorService running = scheduler;
    if (running == null) {
      return;
    }
    scheduler = null;
    if (agent.goingDown()) {
      running.shutdown();
      return;
    }
    running.shutdownNow();
    DefaultMetricsSystem.instance().unregisterSource(metrics.name());
    LOG.info("EAFR power agent stopped");
  }
}
