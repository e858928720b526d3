package org.eafr.placement.destination;

/**
 * Bytes already on their way to a destination: copies scheduled to it and not yet received. With a destination's
 * expected speed ({@link TransferSpeeds}) it gives the time a new copy would finish there, so that copies scheduled in
 * one burst do not all pick the server that was fastest when it was idle ({@link DestinationSelector}). The NameNode
 * answers it from the copies it follows; {@link #NONE} says nothing is queued anywhere.
 */
@FunctionalInterface
public interface TransferBacklog {
  /** No destination has anything queued. */
  TransferBacklog NONE = destinationId -> 0;

  /** Bytes scheduled to {@code destinationId} and not yet received, at least 0. */
  long queuedBytes(String destinationId);
}
