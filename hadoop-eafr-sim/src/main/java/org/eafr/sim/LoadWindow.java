package org.eafr.sim;

import org.eafr.placement.gear.LoadSample;

/** Reads and writes (operations and bytes) over one period: what the servers served, or what clients offered. */
final class LoadWindow {
  double reads;
  double writes;
  double readBytes;
  double writeBytes;

  LoadSample rates(long micros) {
    double seconds = Math.max(1e-6, micros / 1e6);
    return new LoadSample(reads / seconds, writes / seconds, readBytes / seconds, writeBytes / seconds);
  }

  void reset() {
    reads = 0;
    writes = 0;
    readBytes = 0;
    writeBytes = 0;
  }
}
