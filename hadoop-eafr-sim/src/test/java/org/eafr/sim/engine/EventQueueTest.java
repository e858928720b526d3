package org.eafr.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class EventQueueTest {
  @Test
  void firesInTimeOrderAndSameInstantInSchedulingOrder() {
    EventQueue queue = new EventQueue();
    List<String> fired = new ArrayList<>();
    queue.schedule(30, t -> fired.add("c@" + t));
    queue.schedule(10, t -> fired.add("a@" + t));
    queue.schedule(30, t -> fired.add("d@" + t));
    queue.schedule(10, t -> fired.add("b@" + t));
    queue.runUntil(100);
    assertThat(fired).containsExactly("a@10", "b@10", "c@30", "d@30");
    assertThat(queue.fired()).isEqualTo(4);
    assertThat(queue.now()).isEqualTo(100);
  }

  @Test
  void stopsAtTheEndTimeAndKeepsLaterEvents() {
    EventQueue queue = new EventQueue();
    List<Long> fired = new ArrayList<>();
    queue.schedule(5, fired::add);
    queue.schedule(50, fired::add);
    queue.runUntil(20);
    assertThat(fired).containsExactly(5L);
    assertThat(queue.pending()).isEqualTo(1);
  }

  @Test
  void eventsScheduledWhileFiringRunInOrder() {
    EventQueue queue = new EventQueue();
    List<Long> fired = new ArrayList<>();
    queue.schedule(1, t -> {
      fired.add(t);
      queue.after(4, fired::add);
      queue.after(0, fired::add);
    });
    queue.runUntil(10);
    assertThat(fired).containsExactly(1L, 1L, 5L);
  }

  @Test
  void manyRandomEventsComeOutSorted() {
    EventQueue queue = new EventQueue();
    SplittableRandom random = new SplittableRandom(7);
    List<Long> fired = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      queue.schedule(random.nextLong(1_000_000), fired::add);
    }
    queue.runUntil(Long.MAX_VALUE);
    assertThat(fired).hasSize(10_000).isSorted();
  }

  @Test
  void rejectsAnEventInThePast() {
    EventQueue queue = new EventQueue();
    queue.schedule(10, t -> { });
    queue.runUntil(10);
    assertThatThrownBy(() -> queue.schedule(9, t -> { }))
        .hasMessage("event time 9 us is not allowed: expected at least the current time 10 us");
  }
}
