package org.eafr.datanode.rate;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.util.DataTransferThrottler;

/**
 * The DataNode transfer server's write throttler, the one HDFS uses for every inbound block write. The server
 * ({@code DataXceiverServer}) is package-private; its public getter and setter are reached by reflection, which works
 * on JDK 8 to 21 for classes on the class path.
 */
public final class WriteThrottlerSlot {
  private final Object server;
  private final Method getter;
  private final Method setter;

  private WriteThrottlerSlot(Object server, Method getter, Method setter) {
    this.server = server;
    this.getter = getter;
    this.setter = setter;
  }

  /** The slot of a running DataNode; fails naming what is missing when the Hadoop version has no such server. */
  public static WriteThrottlerSlot of(DataNode dataNode) {
    Object server = dataNode.getXferServer();
    if (server == null) {
      throw new IllegalStateException("DataNode " + dataNode.getDisplayName() + " has no transfer server yet");
    }
    try {
      Method getter = server.getClass().getMethod("getWriteThrottler");
      Method setter = server.getClass().getMethod("setWriteThrottler", DataTransferThrottler.class);
      getter.setAccessible(true);
      setter.setAccessible(true);
      return new WriteThrottlerSlot(server, getter, setter);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException("this Hadoop's DataXceiverServer has no write throttler (Hadoop 3.3.6 or later"
          + " is needed): " + e.getMessage(), e);
    }
  }

  /** The throttler in place, or null when writes are not throttled. */
  public DataTransferThrottler get() {
    return (DataTransferThrottler) invoke(getter);
  }

  public void set(DataTransferThrottler throttler) {
    invoke(setter, throttler);
  }

  private Object invoke(Method method, Object... args) {
    try {
      return method.invoke(server, args);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot call DataXceiverServer." + method.getName(), e);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException("DataXceiverServer." + method.getName() + " failed", e.getCause());
    }
  }
}
