package org.eafr.namenode.transfer;

/** One timed DataNode-to-DataNode copy: the destination, the bytes copied and how long the copy took. */
public final class TransferSample {
  private final String targetId;
  private final long bytes;
  private final long elapsedMillis;

  public TransferSample(String targetId, long bytes, long elapsedMillis) {
    this.targetId = targetId;
    this.bytes = bytes;
    this.elapsedMillis = elapsedMillis;
  }

  public String targetId() {
    return targetId;
  }

  public long bytes() {
    return bytes;
  }

  public long elapsedMillis() {
    return elapsedMillis;
  }

  @Override
  public String toString() {
    return bytes + " B to " + targetId + " in " + elapsedMillis + " ms";
  }
}
