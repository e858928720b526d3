package org.eafr.datanode.rate;

import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.util.DataTransferThrottler;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.eafr.datanode.config.DatanodeSettings;
import org.eafr.datanode.config.RateMode;
import org.eafr.placement.settings.InvalidSettingException;
import org.eafr.datanode.config.EafrDataNodePlugin;
import org.eafr.placement.rate.ReceiveRateController;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Receive-side rate control against incast (EAFR Alg. 2) in a stock DataNode ({@code dfs.datanode.plugins}).
 *
 * <p>Off unless {@code eafr.datanode.link.bytes-per-second} is set: then nothing is installed and no thread runs.
 * On, it puts a {@link SenderThrottler} in the transfer server's write-throttler slot and runs one round of Alg. 2
 * every {@code eafr.datanode.rate.period.ms}; with {@code eafr.datanode.rate.mode = window} (the default) each round
 * then sets every sending connection's TCP receive window to its rate times its RTT ({@link ReceiveWindows}), with
 * {@code pacing} the throttler spaces each connection's reads instead. Each round first checks the slot: a live reconfiguration of
 * {@code dfs.datanode.data.write.bandwidthPerSec} puts a stock throttler there (or none), and the plugin puts its own
 * back, taking the reconfigured cap as c_b when it is below the link capacity.
 * Settings are checked when Hadoop creates the plugin ({@link EafrDataNodePlugin}).
 */
public class ReceiveRatePlugin extends EafrDataNodePlugin<DatanodeSettings> {
  private static final Logger LOG = LoggerFactory.getLogger(ReceiveRatePlugin.class);

  private DatanodeSettings settings;
  private WriteThrottlerSlot slot;
  private SenderThrottler throttler;
  private DataTransferThrottler displaced;
  private ReceiveStats stats;
  private ReceiveRateMetrics metrics;
  private volatile ScheduledExecutorService scheduler;
  private boolean windowClamp;
  private ReceiveWindows windows;

  public ReceiveRatePlugin() {
    super(LOG, "receive rate control");
  }

  @Override
  protected DatanodeSettings readSettings(Configuration configuration) {
    DatanodeSettings read = DatanodeSettings.from(configuration::get);
    if (read.rateControlEnabled() && read.mode() == RateMode.WINDOW) {
      try {
        windowClamp = ReceiveWindows.probe();
      } catch (IllegalStateException e) {
        throw new InvalidSettingException(RateMode.KEY, RateMode.WINDOW.value(), "this DataNode cannot set a"
            + " connection's receive window (" + e.getMessage() + "); expected " + RateMode.PACING.value() + " here");
      }
    }
    return read;
  }

  @Override
  public void start(Object service) {
    DataNode dataNode = (DataNode) service;
    settings = settings(dataNode);
    if (!settings.rateControlEnabled()) {
      LOG.info("EAFR receive rate control is off ({} = 0)", DatanodeSettings.LINK_BYTES_PER_SECOND.key());
      return;
    }
    slot = WriteThrottlerSlot.of(dataNode);
    stats = new ReceiveStats();
    // The writer waits this long for our acknowledgement (as the DataNode itself reads it, DNConf).
    int socketTimeout = dataNode.getConf().getInt(HdfsClientConfigKeys.DFS_CLIENT_SOCKET_TIMEOUT_KEY,
        HdfsConstants.READ_TIMEOUT);
    boolean window = settings.mode() == RateMode.WINDOW;
    throttler = new SenderThrottler(ReceiveRateController.from(settings.core()), settings.linkBytesPerSecond(),
        SenderThrottler.maxWaitMillis(socketTimeout), !window, stats);
    windows = window ? ReceiveWindows.on(dataNode.getXferPort(), windowClamp) : null;
    installIfReplaced();
    metrics = new ReceiveRateMetrics(ReceiveRateMetrics.nameFor(dataNode.getDisplayName()), stats);
    DefaultMetricsSystem.instance().register(metrics.name(), "EAFR receive rate control", metrics);
    scheduler = daemonScheduler("eafr-receive-rate-control");
    long period = settings.periodMillis();
    scheduler.scheduleAtFixedRate(this::round, period, period, TimeUnit.MILLISECONDS);
    LOG.info("EAFR receive rate control on: c_b = {} bytes/s, eta_l = {}, eta_h = {}, every {} ms, mode {}",
        throttler.getBandwidth(), settings.core().rateLowThreshold(), settings.core().rateHighThreshold(), period,
        window ? "window (rate x RTT through SO_RCVBUF" + (windowClamp ? " and TCP_WINDOW_CLAMP)" : " only)")
            : "pacing (a packet waits at most " + throttler.maxWaitMillis() + " ms)");
  }

  /** The throttler in use, or null when rate control is off or stopped (for tests and diagnostics). */
  public SenderThrottler throttler() {
    return scheduler == null ? null : throttler;
  }

  public ReceiveStats stats() {
    return stats;
  }

  /** Sender to the receive window set on its connection in the last round; empty unless the mode is window. */
  Map<String, ReceiveWindows.Window> windows() {
    return windows == null ? Map.of() : windows.applied();
  }

  private void round() {
    try {
      if (installIfReplaced()) {
        stats.reinstalled();
      }
      throttler.adjust();
      if (windows != null) {
        windows.apply(throttler.ratesOldestFirst());
      }
    } catch (RuntimeException | Error e) { // keep the schedule alive: the next round starts from the slot's state
      LOG.error("EAFR receive rate adjustment failed", e);
    }
  }

  /** Puts the throttler in the slot unless it is there; returns whether it had to. */
  private boolean installIfReplaced() {
    DataTransferThrottler current = slot.get();
    if (current == throttler) {
      return false;
    }
    long capacity = settings.linkBytesPerSecond();
    if (current != null && current.getBandwidth() > 0) { // the operator's stock cap still holds, down to the floor
      capacity = Math.max(Math.min(capacity, current.getBandwidth()),
          Math.min(capacity, DatanodeSettings.MIN_LINK_BYTES_PER_SECOND));
    }
    throttler.setBandwidth(capacity);
    displaced = current;
    slot.set(throttler);
    LOG.info("EAFR receive rate control installed as the write throttler, c_b = {} bytes/s (replaced {})", capacity,
        current == null ? "none" : "a stock throttler of " + current.getBandwidth() + " bytes/s");
    return true;
  }

  @Override
  public void stop() {
    if (scheduler == null) {
      return;
    }
    scheduler.shutdownNow();
    scheduler = null;
    if (slot.get() == throttler) {
      slot.set(displaced);
    }
    DefaultMetricsSystem.instance().unregisterSource(metrics.name());
    LOG.info("EAFR receive rate control stopped");
  }
}
