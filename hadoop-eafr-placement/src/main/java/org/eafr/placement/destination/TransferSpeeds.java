package org.eafr.placement.destination;

/**
 * Expected transfer speed from a source server to a destination server, in bytes per second: what destination
 * selection ranks by (EAFR Sec. 3.3). {@link TransferSpeedEstimator} answers it from measured transfers (Eq. 9); a
 * simulator or a test can answer it from a model.
 */
@FunctionalInterface
public interface TransferSpeeds {
  /**
   * @param sourceId the server sending the replica, or null when unknown (e.g. a new write)
   * @param destinationId the candidate destination
   */
  double expectedSpeed(String sourceId, String destinationId);
}
