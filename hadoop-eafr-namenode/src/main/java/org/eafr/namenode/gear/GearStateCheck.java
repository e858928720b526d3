package org.eafr.namenode.gear;

import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.hdfs.server.namenode.NameNode;

/**
 * At NameNode start: refuses a configuration under which DataNodes the gears put to sleep would stay powered off with
 * nothing tracking them, naming them and the fix. Three ways: the gears switched off ({@code eafr.layout = random})
 * while the gear state records sleepers; {@code eafr.gear.state.dir} pointing elsewhere than the directory that holds
 * the state with sleepers; or that directory deleted while DataNodes slept. The evidence is the record
 * {@link GearStore#writeHome} keeps on the root directory beside the state itself.
 */
public final class GearStateCheck {
  private GearStateCheck() {
  }

  /** Throws IllegalStateException naming the sleepers and the fix, or returns when nothing is left untracked. */
  public static void refuseUntrackedSleepers(NameNode nameNode, GearSettings settings) throws IOException {
    Optional<GearStore.Home> home = GearStore.readHome(nameNode);
    if (home.isEmpty() || settings.geared() && new GearStore(nameNode, settings.stateDir()).read().isPresent()) {
      return; // never geared, or the configured directory holds the state (moved there with it)
    }
    String dir = home.get().dir;
    Optional<GearRecord> state = new GearStore(nameNode, dir).read();
    Set<String> sleeping = state.isPresent() ? state.get().sleeping() : home.get().sleeping;
    if (sleeping.isEmpty()) {
      return;
    }
    String asleep = sleeping.size() + " DataNodes asleep " + sleeping;
    if (state.isEmpty()) {
      throw new IllegalStateException("the gear state directory " + dir + " (" + GearSettings.STATE_DIR_KEY + ") is"
          + " gone, but " + asleep + " were powered off by the gears: restore it (from the trash or a snapshot) and"
          + " restart the NameNode; or power each of those hosts on ('hdfs eafr power on HOST'), then remove the"
          + " record with 'hdfs dfs -setfattr -x " + GearStore.HOME_XATTR + " /' as the HDFS superuser and restart");
    }
    if (!settings.geared()) {
      throw new IllegalStateException(GearSettings.LAYOUT_KEY + " is " + settings.layout() + " (gears off), but the"
          + " gear state in " + dir + " has " + asleep + ": they would stay powered off with nothing tracking them."
          + " Set " + GearSettings.LAYOUT_KEY + " back to " + home.get().layout + ", restart, shift to the top gear"
          + " ('hdfs eafr gear up' until every DataNode is on), then switch the gears off");
    }
    if (!dir.equals(settings.stateDir())) {
      throw new IllegalStateException(GearSettings.STATE_DIR_KEY + " is " + settings.stateDir() + ", but the gear"
          + " state, with " + asleep + ", is in " + dir + ": set " + GearSettings.STATE_DIR_KEY + " back to " + dir
          + " and restart (to move it, first shift to the top gear so that no DataNode sleeps)");
    }
  }
}
