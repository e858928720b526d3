package org.eafr.placement.gear.relayout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.layout.EqualWorkLayout;

/**
 * Where a geared layout lets a block that is already stored live: one or more <em>alternatives</em>, each a list of
 * <em>slots</em>, one per replica, and each slot the set of servers that may hold that replica. Relayout keeps a
 * replica wherever a holder fits a slot of the alternative it picks, so the wider the slots, the less moves.
 *
 * <ul>
 *   <li>Equal-work (Rabbit Sec. 3.1 and 3.5): a block belongs to one recovery group c; its homes are one primary of
 *       the group (the primaries j with j mod g = c) and r - 1 servers of the group's gear groups. Which primary and
 *       which gear-group servers is the layout's choice (the write path deals them by shares), so each of the g
 *       alternatives is "a primary of group c" plus r - 1 slots "a gear-group server of group c". Replicas beyond
 *       the layout's r may be anywhere.</li>
 *   <li>Any other layout (Accordion): the homes {@link GearedLayout#placeExisting} names with every server on, each
 *       slot one server (Accordion Sec. 3.4 keeps a block's lowest-group copies, so those slots are its holders).</li>
 * </ul>
 */
public interface HomeChoices {
  /** The alternatives for a block with {@code replicas} replicas now held on {@code holders}; never empty. */
  List<List<ActiveSet>> alternatives(String blockId, int replicas, int[] holders);

  /** The choices {@code layout} leaves (see the class comment). */
  static HomeChoices of(GearedLayout layout) {
    if (layout instanceof EqualWorkLayout) {
      return recoveryGroups((EqualWorkLayout) layout);
    }
    ActiveSet all = ActiveSet.all(layout.chain());
    return (blockId, replicas, holders) -> {
      BlockPlacement homes = layout.placeExisting(BlockRequest.of(blockId, replicas), all, holders);
      List<ActiveSet> slots = new ArrayList<>();
      for (int i = 0; i < homes.size(); i++) {
        slots.add(ActiveSet.of(layout.chain(), homes.home(i)));
      }
      return Collections.singletonList(slots);
    };
  }

  private static HomeChoices recoveryGroups(EqualWorkLayout layout) {
    int groups = layout.groupSize();
    List<ActiveSet> primaries = new ArrayList<>();
    List<ActiveSet> gearGroups = new ArrayList<>();
    for (int c = 0; c < groups; c++) {
      java.util.BitSet ofGroup = new java.util.BitSet();
      for (int j = c; j < layout.primaries(); j += groups) {
        ofGroup.set(j);
      }
      primaries.add(ActiveSet.of(layout.chain(), ofGroup));
      gearGroups.add(layout.recoveryGroup(c));
    }
    ActiveSet anywhere = ActiveSet.all(layout.chain());
    int layoutReplicas = layout.shares().replicas();
    return (blockId, replicas, holders) -> {
      List<List<ActiveSet>> alternatives = new ArrayList<>(groups);
      for (int c = 0; c < groups; c++) {
        List<ActiveSet> slots = new ArrayList<>(replicas);
        for (int k = 0; k < replicas; k++) {
          slots.add(k == 0 ? primaries.get(c) : k < layoutReplicas ? gearGroups.get(c) : anywhere);
        }
        alternatives.add(slots);
      }
      return alternatives;
    };
  }
}
