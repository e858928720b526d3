package org.eafr.namenode.admin;

import java.io.IOException;
import org.apache.hadoop.ipc.RefreshRegistry;
import org.apache.hadoop.ipc.RefreshResponse;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.log4j.Level;
import org.apache.log4j.LogManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the NameNode log says of {@code hdfs eafr} calls: one INFO line per command that changes state (who ran it,
 * and the first line of the answer or refusal), DEBUG for the rest (status tables, plans, the DataNode power agents'
 * polls every few seconds), so the log shows what operators changed and not what anyone read.
 */
public final class AdminLog {
  private static final Logger LOG = LoggerFactory.getLogger(AdminLog.class);
  /** The longest answer text an INFO line carries. */
  private static final int MAX_INFO_CHARS = 300;

  private AdminLog() {
  }

  /** Logs {@code response} to {@code request} and returns it. */
  public static RefreshResponse answered(AdminRequest request, RefreshResponse response) {
    boolean accepted = response.getReturnCode() == AdminHandler.ACCEPTED;
    boolean ok = accepted || response.getReturnCode() == AdminHandler.OK
        || response.getReturnCode() == AdminHandler.NOT_ACTIVE;
    if (request.verb().changesState()) {
      String message = response.getMessage(); // an accepted command's first line is only its number
      LOG.info("EAFR admin: {} ran 'hdfs eafr {}': {}{}", caller(), request, ok ? "" : "refused: ",
          summary(accepted && message != null ? message.substring(message.indexOf('\n') + 1) : message));
    } else if (LOG.isDebugEnabled()) {
      LOG.debug("EAFR admin: {} ran 'hdfs eafr {}': {} ({} chars)", caller(), request, ok ? "answered" : "refused",
          response.getMessage() == null ? 0 : response.getMessage().length());
    }
    return response;
  }

  /**
   * Hadoop's {@link RefreshRegistry} logs every answer of every handler in full at INFO (whole status tables, every
   * agent poll); lowers its logger to WARN unless the log4j configuration sets its level
   * ({@code log4j.logger.org.apache.hadoop.ipc.RefreshRegistry=INFO} brings the lines back).
   */
  public static void quietRefreshRegistry() {
    try {
      var registry = LogManager.getLogger(RefreshRegistry.class); // log4j 1's Logger, beside slf4j's LOG
      if (registry.getLevel() == null) {
        registry.setLevel(Level.WARN);
      }
    } catch (LinkageError e) { // a logging backend without the log4j 1 API: Hadoop's lines stay
      LOG.debug("EAFR admin: cannot set the level of {}: {}", RefreshRegistry.class.getName(), e.toString());
    }
  }

  /** The answer's first line (a JSON answer on one line), cut to {@value #MAX_INFO_CHARS} characters. */
  private static String summary(String message) {
    if (message == null) {
      return "";
    }
    String text = message.startsWith("{") ? message.replaceAll("\\s+", " ") : message.split("\n", 2)[0];
    return text.length() <= MAX_INFO_CHARS ? text : text.substring(0, MAX_INFO_CHARS) + " ...";
  }

  private static String caller() {
    UserGroupInformation remote = Server.getRemoteUser();
    if (remote != null) {
      return "user " + remote.getShortUserName();
    }
    try {
      return "user " + UserGroupInformation.getCurrentUser().getShortUserName();
    } catch (IOException e) {
      return "an unknown user";
    }
  }
}
