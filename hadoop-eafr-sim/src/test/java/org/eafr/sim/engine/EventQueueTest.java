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

  @Test
  void sameInstantEventsKeepSchedulingOrderAcrossNearAndFarEvents() {
    EventQueue queue = new EventQueue();
    List<String> fired = new ArrayList<>();
    queue.schedule(25_000, t -> fired.add("far@" + t)); // 25 ms ahead: a far event
    queue.schedule(10_000, t -> queue.schedule(25_000, u -> fired.add("near@" + u))); // then 15 ms ahead: near
    queue.schedule(25_000, t -> fired.add("far2@" + t));
    queue.runUntil(100_000);
    assertThat(fired).containsExactly("far@25000", "far2@25000", "near@25000");
  }

  @Test
  void eventsScheduledWhileFiringAtRandomDelaysFireInTimeThenSchedulingOrder() {
    EventQueue queue = new EventQueue();
    SplittableRandom random = new SplittableRandom(11);
    List<long[]> fired = new ArrayList<>();
    long[] scheduled = {0};
    class Spawner implements Event {
      final long order;

      Spawner(long order) {
        this.order = order;
      }

      @Override
      public void fire(long t) {
        fired.add(new long[] {t, order});
        for (int k = random.nextInt(3); k > 0 && scheduled[0] < 200_000; k--) {
          // Delays on both sides of the ring's horizon, many ring turns, and same-instant ties.
          long delay = random.nextInt(4) == 0 ? random.nextLong(100_000) : random.nextLong(25) * 1_000;
          queue.after(delay, new Spawner(scheduled[0]++));
        }
      }
    }
    for (int i = 0; i < 50; i++) {
      queue.schedule(random.nextLong(50_000), new Spawner(scheduled[0]++));
    }
    queue.runUntil(Long.MAX_VALUE);
    assertThat(fired).hasSize((int) scheduled[0]);
    for (int i = 1; i < fired.size(); i++) {
      long[] a = fired.get(i - 1);
      long[] b = fired.get(i);
      // Time never goes back; at one instant, events fire in scheduling order.
      assertThat(a[0] < b[0] || (a[0] == b[0] && a[1] < b[1])).as("event %d after %d", i, i - 1).isTrue();
    }
  }
}
