package org.eafr.namenode.replication;

import java.io.IOException;

/** The replication monitor as {@code hdfs eafr plan} sees it: the next round, planned and not carried out. */
public interface RoundPlanner {
  /** What the next round would do if it ran now, leaving every count, cursor and random stream as it is. */
  RoundPreview preview() throws IOException;
}
