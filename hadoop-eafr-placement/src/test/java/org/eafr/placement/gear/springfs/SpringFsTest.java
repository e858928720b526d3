package org.eafr.placement.gear.springfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.FixedStoredBlocks;
import org.eafr.placement.gear.GearServers;
import org.eafr.placement.gear.MutableClock;
import org.eafr.placement.gear.OffloadLedger;
import org.eafr.placement.gear.StorageRoom;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.gear.read.ReadOffloadBalancer;
import org.eafr.placement.gear.read.RecentLoad;
import org.junit.jupiter.api.Test;

class SpringFsTest {
  private final MutableClock clock = new MutableClock();

  @Test
  void offloadSetSize_workedExample() {
    assertThat(OffloadSetSize.of(250e6, 100e6, 2, 7)).isEqualTo(3);
    assertThat(OffloadSetSize.of(80e6, 100e6, 2, 7)).isEqualTo(2);
    assertThat(OffloadSetSize.of(2e9, 100e6, 2, 7)).isEqualTo(7);
  }

  @Test
  void recentLoad_decays0point95Every5Seconds() {
    RecentLoad load = RecentLoad.springFs(3, clock);
    for (int i = 0; i < 10; i++) {
      load.record(1);
    }
    clock.advanceMillis(10_000);

    assertThat(load.load(1)).isCloseTo(9.025, within(1e-12));
    assertThat(load.load(0)).isZero();
  }

  @Test
  void readOffloading_workedExample_leastRecentlyLoadedHigherNumberedHolder_orTheReadersOwnCopy() {
    ExpansionChain chain = GearServers.chain(13, 1);
    RecentLoad load = RecentLoad.springFs(13, clock);
    for (int i = 0; i < 30; i++) {
      load.record(1);
    }
    for (int i = 0; i < 4; i++) {
      load.record(7);
      load.record(12);
    }
    ReadOffloadBalancer balancer = new ReadOffloadBalancer(load);
    ActiveSet all = ActiveSet.all(chain);

    assertThat(balancer.choose(new int[] {1, 7, 12}, all)).isEqualTo(12);
    assertThat(balancer.chooseFor(7, new int[] {1, 7, 12}, all)).isEqualTo(7);
    assertThat(balancer.choose(new int[] {1, 7}, ActiveSet.of(chain, 0, 2))).isEqualTo(-1);
  }

  /** B = 1,000 blocks: the 20th server (share 1/20) holds its share at 50 blocks, not at 49; nothing before B > 0. */
  @Test
  void passiveMigration_fullnessFromCounts_workedExample() {
    EqualWorkLayout layout = new EqualWorkLayout(GearServers.chain(120, 1), 5, 1, 4);
    FixedStoredBlocks stored = new FixedStoredBlocks(120).total(1000).with(19, 50).with(20, 47);

    PassiveMigration.ServerFullness full = PassiveMigration.fromCounts(layout, stored);

    assertThat(layout.share(19)).isCloseTo(1.0 / 20, within(1e-12));
    assertThat(full.holdsItsShare(19)).isTrue();
    assertThat(full.holdsItsShare(20)).isFalse(); // 47 < 1000 / 21 = 47.6
    stored.with(19, 49);
    assertThat(full.holdsItsShare(19)).isFalse();
    assertThat(PassiveMigration.fromCounts(layout, new FixedStoredBlocks(120)).holdsItsShare(19)).isFalse();
  }

  /**
   * Owed moves to a server that future writes filled to its share are dropped (SpringFS Sec. 3): 30 blocks owed to
   * the 20th server, which stores 50 of B = 1,000; owed to the 21st, which stores 40, they are planned (1/T of them).
   */
  @Test
  void passiveMigration_fromCounts_dropsWorkOwedToAServerAtItsShare() {
    EqualWorkLayout layout = new EqualWorkLayout(GearServers.chain(120, 1), 5, 1, 4);
    FixedStoredBlocks stored = new FixedStoredBlocks(120).total(1000).with(19, 50).with(20, 40);
    List<BlockMove> owed = new java.util.ArrayList<>();
    for (int b = 0; b < 30; b++) {
      owed.add(new BlockMove("f" + b, 0, 19, true));
      owed.add(new BlockMove("g" + b, 0, 20, true));
    }

    PassiveMigration.Plan plan = new PassiveMigration(10, 20).plan(owed, PassiveMigration.fromCounts(layout, stored));

    assertThat(plan.dropped()).isEqualTo(30);
    assertThat(plan.moves()).hasSize(3).allMatch(move -> move.to() == 20);
  }

  @Test
  void passiveMigration_workedExample_tenthOfTheWork_oneExtraServer_fullServersDropped() {
    PassiveMigration migration = new PassiveMigration(10, 20);
    List<BlockMove> owed = new java.util.ArrayList<>();
    for (int b = 0; b < 95; b++) {
      owed.add(new BlockMove("b" + b, 0, 5, true));
    }
    owed.add(new BlockMove("full", 0, 6, true));

    PassiveMigration.Plan plan = migration.plan(owed, position -> position == 6);

    assertThat(plan.moves()).hasSize(10);
    assertThat(plan.extraServers()).isEqualTo(1);
    assertThat(plan.dropped()).isEqualTo(1);
  }

  @Test
  void boundedOffloading_primariesStayInTheOffloadSet_nonPrimariesLeaveIt_shrinkingToMNeedsNoCleanup() {
    ExpansionChain chain = GearServers.chain(30, 1);
    SpringFsLayout layout = new SpringFsLayout(new EqualWorkLayout(chain, 4, 1, 3), RecentLoad.springFs(30, clock),
        new Random(7));
    layout.offloadSet(8);
    OffloadLedger ledger = new OffloadLedger();
    ActiveSet all = ActiveSet.all(chain);
    int offloadedPrimaries = 0;

    for (int b = 0; b < 3000; b++) {
      BlockPlacement placement = layout.place(BlockRequest.of("b" + b, 3), all);
      ledger.record("b" + b, placement);
      assertThat(placement.holder(0)).isLessThan(8);
      assertThat(placement.home(0)).isLessThan(4);
      offloadedPrimaries += placement.isOffloaded(0) ? 1 : 0;
      for (int i = 1; i < 3; i++) {
        assertThat(placement.holder(i) < 4 || placement.holder(i) >= 8).isTrue();
      }
    }

    // Primaries balanced over the 8 servers: about half land past the 4 primaries.
    assertThat(offloadedPrimaries).isBetween(1350, 1650);
    assertThat(ledger.cleanupFor(ActiveSet.firstN(chain, 8)).isEmpty()).isTrue();
    assertThat(ledger.cleanupFor(ActiveSet.firstN(chain, 4)).blocks()).isPositive();
  }

  /**
   * By capacity the primaries hold what the layout deals them: a primary replica whose draw falls on a primary lands
   * on the one the equal-work layout dealt (an identical layout fed the same blocks deals the same homes). By load
   * alone, the primaries of a layout dealt by bytes filled unevenly past their shares (271 homes displaced at 50%
   * fill).
   */
  @Test
  void byCapacity_aPrimaryReplicaOnAPrimary_isOnTheDealtOne() {
    List<Server> servers = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      servers.add(Server.builder("s" + i).rack("r0").storageCapacity((i < 2 ? 750 : 500) * 1_000_000_000L).build());
    }
    ExpansionChain chain = ExpansionChain.of(servers);
    SpringFsLayout layout = new SpringFsLayout(new EqualWorkLayout(chain, 4, 1, 3, 30, true),
        RecentLoad.springFs(30, clock), new Random(7));
    EqualWorkLayout twin = new EqualWorkLayout(chain, 4, 1, 3, 30, true);
    layout.offloadSet(8);
    ActiveSet all = ActiveSet.all(chain);
    int onPrimaries = 0;

    for (int b = 0; b < 3000; b++) {
      BlockPlacement placement = layout.place(BlockRequest.of("b" + b, 3), all);
      int dealt = twin.place(BlockRequest.of("b" + b, 3), all).home(0);
      if (placement.holder(0) < 4) {
        onPrimaries++;
        assertThat(placement.holder(0)).as("block b%d", b).isEqualTo(dealt);
      }
      assertThat(placement.home(0)).isEqualTo(dealt);
    }

    assertThat(onPrimaries).isBetween(1350, 1650);
  }

  @Test
  void writerInTheOffloadSet_takesThePrimaryItself() {
    ExpansionChain chain = GearServers.chain(30, 1);
    SpringFsLayout layout = new SpringFsLayout(new EqualWorkLayout(chain, 4, 1, 3), RecentLoad.springFs(30, clock),
        new Random(7));
    layout.offloadSet(8);

    BlockPlacement placement = layout.place(BlockRequest.of("b", 3).withWriter(6), ActiveSet.all(chain));

    assertThat(placement.holder(0)).isEqualTo(6);
    assertThat(placement.isOffloaded(0)).isTrue();
  }

  /**
   * The simulator's ledger kept entries whose holder never got the block (126,466 dead planned moves on FB-2010):
   * availability offloading chose an on server without room, the simulator skipped it, the ledger recorded it. A
   * server without room is never a holder: at gear 0 plus server 4 (chain of 30, p = 4, m = 4), with server 4 full,
   * every availability-offloaded non-primary lands on another server that is on, and a writer without room does not
   * take the primary.
   */
  @Test
  void serversWithoutRoom_areNeverHolders() {
    ExpansionChain chain = GearServers.chain(30, 1);
    SpringFsLayout layout = new SpringFsLayout(new EqualWorkLayout(chain, 4, 1, 3), RecentLoad.springFs(30, clock),
        new Random(7));
    ActiveSet lowGear = ActiveSet.firstN(chain, 6);
    StorageRoom fourFull = (position, bytes) -> position != 4;

    for (int b = 0; b < 500; b++) {
      BlockPlacement placement = layout.place(BlockRequest.of("b" + b, 3).withSize(1, fourFull), lowGear);
      assertThat(placement.holds(4)).as("block b%d placed %s", b, placement).isFalse();
      assertThat(placement.size()).isEqualTo(3);
    }
    layout.offloadSet(8);
    BlockPlacement writerFull = layout.place(BlockRequest.of("w", 3).withWriter(4).withSize(1, fourFull), lowGear);
    assertThat(writerFull.holds(4)).isFalse();
  }

  /**
   * By capacity a server past the primaries keeps 5% of its usable bytes free of offloaded primary replicas (chain of
   * 30, p = 4 of 750 GB, the rest 500 GB, m = 8, 1 GB blocks): with 10 GB left, under its 25 GB spare, server 4 takes
   * none of 600 blocks' primary replicas (nor as their writer), servers 5-7 still take offloads; with 100 GB left it
   * takes its part.
   */
  @Test
  void byCapacity_anOffloadTargetPastThePrimaries_keepsItsSpare() {
    List<Server> servers = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      servers.add(Server.builder("s" + i).rack("r0").storageCapacity((i < 4 ? 750 : 500) * 1_000_000_000L).build());
    }
    ExpansionChain chain = ExpansionChain.of(servers);
    ActiveSet all = ActiveSet.all(chain);
    long gb = 1_000_000_000L;

    int[] tight = offloadsBy(chain, (position, bytes) -> position != 4 || bytes <= 10 * gb, all);
    assertThat(tight[4]).isZero();
    assertThat(tight[5] + tight[6] + tight[7]).isPositive();
    int[] roomy = offloadsBy(chain, (position, bytes) -> position != 4 || bytes <= 100 * gb, all);
    assertThat(roomy[4]).isPositive();

    SpringFsLayout layout = new SpringFsLayout(new EqualWorkLayout(chain, 4, 1, 3, 30, true),
        RecentLoad.springFs(30, clock), new Random(7), 0.05);
    layout.offloadSet(8);
    StorageRoom tenLeft = (position, bytes) -> position != 4 || bytes <= 10 * gb;
    BlockPlacement written = layout.place(BlockRequest.of("w", 3).withWriter(4).withSize(gb, tenLeft), all);
    assertThat(written.holder(0)).isNotEqualTo(4);
  }

  /** Primary replicas each position holds after 600 blocks of 1 GB with m = 8. */
  private int[] offloadsBy(ExpansionChain chain, StorageRoom room, ActiveSet on) {
    SpringFsLayout layout = new SpringFsLayout(new EqualWorkLayout(chain, 4, 1, 3, 30, true),
        RecentLoad.springFs(30, clock), new Random(7), 0.05);
    layout.offloadSet(8);
    int[] primaries = new int[30];
    for (int b = 0; b < 600; b++) {
      primaries[layout.place(BlockRequest.of("b" + b, 3).withSize(1_000_000_000L, room), on).holder(0)]++;
    }
    return primaries;
  }

  /**
   * Availability offloading keeps the spare too (chain of 30, p = m = 4 of 750 GB, the rest 500 GB, servers 0-5 on):
   * a non-primary whose home sleeps goes to server 4 or 5 or a primary; with 10 GB left on server 4 it takes none of
   * 600 blocks' offloaded non-primaries, with 100 GB left it takes its part.
   */
  @Test
  void byCapacity_anAvailabilityOffloadTarget_keepsItsSpare() {
    List<Server> servers = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      servers.add(Server.builder("s" + i).rack("r0").storageCapacity((i < 4 ? 750 : 500) * 1_000_000_000L).build());
    }
    ExpansionChain chain = ExpansionChain.of(servers);
    long gb = 1_000_000_000L;
    assertThat(offloadedNonPrimariesOn4(chain, (position, bytes) -> position != 4 || bytes <= 10 * gb)).isZero();
    assertThat(offloadedNonPrimariesOn4(chain, (position, bytes) -> position != 4 || bytes <= 100 * gb)).isPositive();
  }

  /** Non-primary replicas held by position 4 whose home is elsewhere, of 600 blocks of 1 GB at servers 0-5 on. */
  private int offloadedNonPrimariesOn4(ExpansionChain chain, StorageRoom room) {
    SpringFsLayout layout = new SpringFsLayout(new EqualWorkLayout(chain, 4, 1, 3, 30, true),
        RecentLoad.springFs(30, clock), new Random(7), 0.05);
    int offloaded = 0;
    for (int b = 0; b < 600; b++) {
      BlockPlacement placement = layout.place(BlockRequest.of("b" + b, 3).withSize(1_000_000_000L, room),
          ActiveSet.firstN(chain, 6));
      for (int i = 1; i < placement.size(); i++) {
        offloaded += placement.holder(i) == 4 && placement.isOffloaded(i) ? 1 : 0;
      }
    }
    return offloaded;
  }
}
