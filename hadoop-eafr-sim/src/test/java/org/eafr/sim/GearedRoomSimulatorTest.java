package org.eafr.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.sim.model.SimServer;
import org.eafr.sim.policy.GearedPolicy;
import org.eafr.sim.stats.RunResult;
import org.junit.jupiter.api.Test;

/** A geared layout on servers too small for their equal-work shares: full homes are skipped, no replica is lost. */
class GearedRoomSimulatorTest {
  private static final long FILE = 200_000_000_000L;

  @Test
  void rabbitOnServersSmallerThanTheirShares_placesEveryReplica_inGear0First_andOverfillsNone() {
    Simulator simulator = gear0TooSmall();

    RunResult result = simulator.run("test", "rabbit");

    EqualWorkLayout layout = (EqualWorkLayout) ((GearedPolicy) simulator.policy()).layout();
    assertThat(layout.displacedReplicas()).as("replicas whose home was full").isPositive();
    assertThat(result.get("replicas_per_file")).isEqualTo(2.0);
    long gear0Room = 0;
    ActiveSet gear0 = layout.serversOn(0);
    for (int s = 0; s < 20; s++) {
      SimServer server = simulator.cluster().server(s);
      assertThat(server.storageUsed()).isLessThanOrEqualTo(server.storageCapacity());
      gear0Room += gear0.contains(server.snapshot().id()) ? server.storageCapacity() / FILE : 0;
    }
    long inGear0 = simulator.files().stream().filter(file -> Arrays.stream(file.replicas())
        .anyMatch(s -> gear0.contains(simulator.cluster().server(s).snapshot().id()))).count();
    assertThat(inGear0).as("files with a replica in gear 0 (room there for %d)", gear0Room)
        .isEqualTo(Math.min(10, gear0Room));
  }

  /**
   * Files a full gear 0 pushed out of it are owed nothing, so the layout's ledger does not know them; the controller's
   * floor does: with no load it runs the lowest gear in which every file has a replica, not gear 0 (which the shift's
   * availability check would refuse, leaving the shift wherever it stood).
   */
  @Test
  void filesOutOfAFullGear0_holdTheControllerAtTheLowestGearThatHoldsThemAll() {
    Simulator simulator = gear0TooSmall();

    simulator.run("test", "rabbit");

    GearedPolicy policy = (GearedPolicy) simulator.policy();
    EqualWorkLayout layout = (EqualWorkLayout) policy.layout();
    int holdsAll = 0;
    for (var file : simulator.files()) {
      holdsAll = Math.max(holdsAll, Arrays.stream(file.replicas())
          .map(s -> layout.gearOf(layout.chain().requirePosition(simulator.cluster().server(s).id()))).min()
          .orElseThrow());
    }
    assertThat(holdsAll).as("the lowest gear holding every file").isPositive();
    assertThat(policy.gear()).isEqualTo(holdsAll);
  }

  /**
   * 20 servers of 250, 500 or 750 GB, p = 2 primaries, r = 2, 10 files of 200 GB: by block counts each primary is
   * owed 5 files (1 TB), more than any server holds, and the first gear group b_3 = 10 / 3 of them.
   */
  private static Simulator gear0TooSmall() {
    SimSettings settings = SimSettings.of(Map.ofEntries(Map.entry("sim.servers", "20"), Map.entry("sim.racks", "2"),
        Map.entry("sim.files", "10"), Map.entry("sim.read-files", "10"), Map.entry("sim.duration.hours", "0.05"),
        Map.entry("sim.concurrency", "1"), Map.entry("eafr.gear.primaries", "2"),
        Map.entry("eafr.gear.group-size", "1"), Map.entry("eafr.gear.replicas", "2")));
    long[] sizes = new long[10];
    Arrays.fill(sizes, FILE);
    return new Simulator(settings, "rabbit", new InlineWorkload(sizes, List.of()), f -> { });
  }
}
