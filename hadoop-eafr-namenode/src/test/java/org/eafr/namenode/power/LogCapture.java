package org.eafr.namenode.power;

import java.io.StringWriter;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.PatternLayout;
import org.apache.log4j.WriterAppender;

/** Everything logged (message and stack traces, every level from DEBUG) while it is open. */
public final class LogCapture implements AutoCloseable {
  private final StringWriter text = new StringWriter();
  private final WriterAppender appender = new WriterAppender(new PatternLayout("%p %c{1} - %m%n"), text);
  private final Level rootLevel = Logger.getRootLogger().getLevel();
  private final Level eafrLevel = Logger.getLogger("org.eafr").getLevel();

  private final org.apache.log4j.AppenderSkeleton console =
      (org.apache.log4j.AppenderSkeleton) Logger.getRootLogger().getAppender("stdout");
  private final org.apache.log4j.Priority consoleThreshold = console == null ? null : console.getThreshold();

  public LogCapture() {
    if (console != null) {
      console.setThreshold(Level.INFO); // the capture sees DEBUG; the console stays readable
    }
    Logger.getRootLogger().addAppender(appender);
    Logger.getRootLogger().setLevel(Level.DEBUG);
    Logger.getLogger("org.eafr").setLevel(Level.DEBUG);
  }

  public synchronized String text() {
    return text.toString();
  }

  @Override
  public void close() {
    Logger.getRootLogger().removeAppender(appender);
    Logger.getRootLogger().setLevel(rootLevel);
    Logger.getLogger("org.eafr").setLevel(eafrLevel);
    if (console != null) {
      console.setThreshold(consoleThreshold);
    }
  }
}
