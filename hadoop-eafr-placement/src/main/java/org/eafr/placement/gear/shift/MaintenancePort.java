package org.eafr.placement.gear.shift;

import java.util.Set;

/**
 * Puts DataNodes into HDFS maintenance and takes them out (the NameNode's hosts overlay and refreshNodes). Both calls
 * are idempotent: a DataNode already in the asked state is left as it is.
 */
public interface MaintenancePort {
  void enter(Set<String> ids);

  void leave(Set<String> ids);
}
