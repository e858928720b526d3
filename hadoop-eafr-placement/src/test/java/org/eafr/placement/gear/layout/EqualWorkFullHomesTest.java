package org.eafr.placement.gear.layout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearServers;
import org.eafr.placement.gear.StorageRoom;
import org.junit.jupiter.api.Test;

/**
 * Worked examples of full homes (EqualWorkLayout's class comment): p = 2 primaries, g = 1, r = 2 on one rack of 6
 * servers s0..s5. The first block's homes are s0 (the first primary in turn) and s2 (the first gear group, the largest
 * b_i).
 */
class EqualWorkFullHomesTest {
  private static final ExpansionChain CHAIN = GearServers.chain(6, 1);

  private static BlockPlacement firstBlock(StorageRoom room, ActiveSet on) {
    return new EqualWorkLayout(CHAIN, 2, 1, 2).place(BlockRequest.of("b0", 2).withSize(100, room), on);
  }

  private static StorageRoom full(Integer... positions) {
    Set<Integer> fullSet = Set.of(positions);
    return (position, bytes) -> !fullSet.contains(position);
  }

  @Test
  void everyHomeWithRoom_placesAsWithoutRoomChecks() {
    BlockPlacement placement = firstBlock(full(), ActiveSet.all(CHAIN));

    assertThat(placement.holders()).containsExactly(0, 2);
    assertThat(placement.displacedCount()).isZero();
    assertThat(placement.displacedHome(0)).isEqualTo(-1);
  }

  @Test
  void aFullPrimary_displacesItsReplicaToTheNextPrimary_andAFullNonPrimaryToTheNextServerAbove() {
    EqualWorkLayout layout = new EqualWorkLayout(CHAIN, 2, 1, 2);
    BlockPlacement placement = layout.place(BlockRequest.of("b0", 2).withSize(100, full(0, 2)),
        ActiveSet.all(CHAIN));

    assertThat(placement.holders()).containsExactly(1, 3);
    assertThat(placement.home(0)).isEqualTo(1); // the new home: no move is owed to a server without room
    assertThat(placement.home(1)).isEqualTo(3);
    assertThat(placement.displacedHome(0)).isEqualTo(0);
    assertThat(placement.displacedHome(1)).isEqualTo(2);
    assertThat(placement.displacedCount()).isEqualTo(2);
    assertThat(placement.owesMoves()).isFalse();
    assertThat(layout.displacedReplicas()).isEqualTo(2);
  }

  @Test
  void everyPrimaryFull_thePrimaryReplicaLeavesGear0_forTheFirstServerWithRoomNotAnotherReplicasHome() {
    BlockPlacement placement = firstBlock(full(0, 1), ActiveSet.all(CHAIN));

    // s1 is full and s2 is the non-primary's home, so the primary replica goes to s3.
    assertThat(placement.holders()).containsExactly(3, 2);
    assertThat(placement.displacedHome(0)).isEqualTo(0);
    assertThat(placement.displacedHome(1)).isEqualTo(-1);
  }

  @Test
  void inGear0_aDisplacedNonPrimaryIsOwedToItsNewHome_andOffloadedOnlyToAServerWithRoom() {
    // Gear 0 keeps s0 and s1 on; s2 (the home) is full, so the home becomes s3, asleep; s1 has no room either.
    BlockPlacement placement = firstBlock(full(1, 2), ActiveSet.firstN(CHAIN, 2));

    assertThat(placement.size()).isEqualTo(1);
    assertThat(placement.holders()).containsExactly(0);
    assertThat(placement.missingHomes()).containsExactly(3);
  }

  @Test
  void inGear0_aDisplacedNonPrimaryIsOffloadedToAnotherPrimary_withItsNewHomeRecorded() {
    BlockPlacement placement = firstBlock(full(2), ActiveSet.firstN(CHAIN, 2));

    assertThat(placement.holders()).containsExactly(0, 1);
    assertThat(placement.home(1)).isEqualTo(3);
    assertThat(placement.displacedHome(1)).isEqualTo(2);
    assertThat(placement.offloaded("b0")).hasSize(1);
  }

  @Test
  void noServerWithRoom_placesNothing_andOwesNothing() {
    BlockPlacement placement = firstBlock((position, bytes) -> false, ActiveSet.all(CHAIN));

    assertThat(placement.size()).isZero();
    assertThat(placement.missingHomes()).isEmpty();
  }
}
