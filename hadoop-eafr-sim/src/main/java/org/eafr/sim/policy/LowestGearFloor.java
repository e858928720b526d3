package org.eafr.sim.policy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.CleanupWork;
import org.eafr.placement.gear.GearFloor;
import org.eafr.placement.gear.OffloadLedger;
import org.eafr.placement.gear.UnavailableBlock;
import org.eafr.sim.model.SimFile;
import org.eafr.sim.model.SimServer;

/**
 * The gear controller's floor in the simulator: the layout's {@link OffloadLedger} for the blocks it owes, and the
 * files placed with no replica in the lowest gear, which the ledger does not know. A layout keeps one replica of every
 * block in its lowest gear while that gear has room; once it has none, a displaced primary goes to the next server
 * with room up the chain and nothing is owed (with p = 40 at 50% fill in the fill scenario, 26,313 of 123,824 files
 * had no replica on the 40 primaries, and the lowest gear holding them all kept 104 servers on). A floor of the ledger
 * alone would let the controller ask for gears the shift's availability check refuses, and the shift would stay
 * wherever a gear-up left it (rabbit there: gears of 168-253 servers while the controller held gear 0). A NameNode's
 * floor reads its block map and knows these blocks.
 *
 * <p>Each question reads the current replicas of those files (O(their replicas); none while every block has a
 * replica in the lowest gear), the last file found unavailable first: the controller asks gear after gear up, and the
 * same file usually holds several of them up. Not thread-safe: the simulator asks between events.
 */
final class LowestGearFloor implements GearFloor {
  private final OffloadLedger ledger;
  private final Map<String, SimFile> offLowest = new LinkedHashMap<>();
  private SimFile lastUnavailable;

  LowestGearFloor(OffloadLedger ledger) {
    this.ledger = ledger;
  }

  /** Records where {@code file}'s new version was placed; {@code lowest} is the lowest gear's servers. */
  void placed(SimFile file, BlockPlacement placement, ActiveSet lowest) {
    boolean inLowest = false;
    for (int i = 0; i < placement.size() && !inLowest; i++) {
      inLowest = lowest.contains(placement.holder(i));
    }
    if (placement.size() > 0 && !inLowest) {
      offLowest.put(file.id(), file);
    } else {
      offLowest.remove(file.id());
    }
  }

  /** Files placed with no replica in the lowest gear, as the floor tracks them. */
  int offLowest() {
    return offLowest.size();
  }

  @Override
  public CleanupWork cleanupFor(ActiveSet staysOn) {
    return ledger.cleanupFor(staysOn);
  }

  /**
   * The ledger's answer, else the first tracked file (the ledger answers for those it owes; a file with no replica at
   * all is a failed write no gear cures) none of whose replicas stays on.
   */
  @Override
  public Optional<UnavailableBlock> firstUnavailable(ActiveSet staysOn) {
    Optional<UnavailableBlock> owed = ledger.firstUnavailable(staysOn);
    if (owed.isPresent()) {
      return owed;
    }
    if (lastUnavailable != null && offLowest.containsKey(lastUnavailable.id()) && unavailable(lastUnavailable, staysOn)) {
      return Optional.of(blocked(lastUnavailable));
    }
    for (SimFile file : offLowest.values()) {
      if (unavailable(file, staysOn)) {
        lastUnavailable = file;
        return Optional.of(blocked(file));
      }
    }
    return Optional.empty();
  }

  private boolean unavailable(SimFile file, ActiveSet staysOn) {
    int[] replicas = file.replicas();
    if (replicas.length == 0 || ledger.placement(file.id()).isPresent()) {
      return false;
    }
    for (int r : replicas) {
      if (staysOn.contains(SimServer.idOf(r))) {
        return false;
      }
    }
    return true;
  }

  private static UnavailableBlock blocked(SimFile file) {
    List<String> holders = new ArrayList<>();
    for (int r : file.replicas()) {
      holders.add(SimServer.idOf(r));
    }
    return new UnavailableBlock(file.id(), holders);
  }
}
