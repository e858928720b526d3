package org.eafr.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplayPlanTest {
  @Test
  void sliceOfTheShippedTraceIsCompressedIntoTheRun() throws Exception {
    ReplayPlan plan = ReplayPlan.of(DemoSettings.load(null, List.of("demo.trace.hours=2", "demo.duration.s=60")));
    // FB-2009_samples_24_times_1hr_0: 78 jobs in hour 0 and 161 in hour 1, each reading at most 3 times
    assertThat(plan.ops()).allMatch(op -> op.atMillis() >= 0 && op.atMillis() < 60_000);
    assertThat(plan.reads()).isBetween(239L, 3 * 239L);
    assertThat(plan.writes()).isBetween(1L, 239L);
    int[] windows = plan.opsPerWindow(2);
    assertThat(windows[1]).isGreaterThan(windows[0]); // the second trace hour is busier
    assertThat(plan.fileBytes()).hasSize(120);
    assertThat(java.util.Arrays.stream(plan.fileBytes())).allMatch(b -> b >= 64 << 10 && b <= 1024 << 10);
    assertThat(ReplayPlan.of(DemoSettings.load(null, List.of("demo.trace.hours=2", "demo.duration.s=60"))).ops())
        .isEqualTo(plan.ops());
  }

  @Test
  void largestBurstIsOneJobsReadsOfOneFile_atMostTheClients() throws Exception {
    ReplayPlan plan = ReplayPlan.of(DemoSettings.load(null, List.of("demo.duration.s=240")));
    // the default replay: a job reads its file at most 3 times at once (demo.reads-per-job = 3); two jobs of one
    // instant on the same popular file make the largest burst, 4 reads (4 client threads run at most 4 together)
    assertThat(plan.largestBurst(100)).isEqualTo(4);
    assertThat(plan.largestBurst(4)).isEqualTo(4);
    assertThat(plan.largestBurst(2)).isEqualTo(2);
    // one read a job: only the two jobs of one instant on one file remain
    assertThat(ReplayPlan.of(DemoSettings.load(null, List.of("demo.duration.s=240", "demo.reads-per-job=1")))
        .largestBurst(4)).isEqualTo(2);
  }

  @Test
  void fileContentIsFixedBySeedAndName() throws Exception {
    ByteArrayOutputStream first = new ByteArrayOutputStream();
    String md5 = FileContent.write(first, 7, "/demo/data/file-00001", 100_000);
    ByteArrayOutputStream again = new ByteArrayOutputStream();
    assertThat(FileContent.write(again, 7, "/demo/data/file-00001", 100_000)).isEqualTo(md5);
    assertThat(again.toByteArray()).isEqualTo(first.toByteArray()).hasSize(100_000);
    assertThat(FileContent.read(new ByteArrayInputStream(first.toByteArray()))).isEqualTo(
        new FileContent.Read(md5, 100_000));
    assertThat(FileContent.write(new ByteArrayOutputStream(), 7, "/demo/data/file-00002", 100_000)).isNotEqualTo(md5);
  }
}
