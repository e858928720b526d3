package org.eafr.datanode.rate;

/**
 * Reads the peer of a DataNode transfer thread from its name. {@code DataXceiver.updateCurrentThreadName} (Hadoop 3.4
 * and 3.5) names the thread {@code "DataXceiver for client " [CLIENT " at "] REMOTE [" [" STATUS "]"]}, REMOTE being
 * the socket's remote address ({@code /10.0.0.3:40112}); a block write carries the status {@code Receiving block ...},
 * whoever sends it: a client, the upstream DataNode of a pipeline, or a DataNode re-replicating (client name empty).
 */
final class XceiverThreadName {
  private static final String PREFIX = "DataXceiver for client ";
  private static final String CLIENT_SEPARATOR = " at ";
  private static final String STATUS_START = " [";

  private XceiverThreadName() {
  }

  /** The peer as HOST:PORT (the sending connection), or null when the name is not a DataXceiver's. */
  static String peer(String threadName) {
    if (threadName == null || !threadName.startsWith(PREFIX)) {
      return null;
    }
    int statusStart = threadName.indexOf(STATUS_START, PREFIX.length());
    String head = threadName.substring(PREFIX.length(), statusStart < 0 ? threadName.length() : statusStart);
    int at = head.lastIndexOf(CLIENT_SEPARATOR);
    String remote = (at < 0 ? head : head.substring(at + CLIENT_SEPARATOR.length())).trim();
    if (remote.startsWith("/")) {
      remote = remote.substring(1);
    }
    return remote.isEmpty() || remote.contains(" ") ? null : remote;
  }
}
