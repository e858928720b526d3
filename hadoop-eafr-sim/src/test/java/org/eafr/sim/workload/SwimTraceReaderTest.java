package org.eafr.sim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SwimTraceReaderTest {
  @TempDir
  Path dir;

  private Path gzip(String text) throws IOException {
    Path file = dir.resolve("trace.tsv.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return file;
  }

  @Test
  void readsJobsFromGzipWithOneTaskPer128MbBlockAndAnUpdateForOutput() throws IOException {
    Path trace = gzip("job0\t49\t49\t300000000\t0\t5\njob1\t101.5\t52\t1000\t0\t0\n");
    try (SwimTraceReader reader = new SwimTraceReader(trace.toString(), 5_000, 1, 1.0)) {
      TraceEvent first = reader.next();
      assertThat(first.timeMicros()).isEqualTo(49_000_000L);
      assertThat(first.kind()).isEqualTo(TraceEvent.Kind.READ);
      assertThat(first.copies()).isEqualTo(3); // 300 MB = 3 blocks of 128 MiB (rounded up)
      TraceEvent update = reader.next();
      assertThat(update.kind()).isEqualTo(TraceEvent.Kind.WRITE);
      assertThat(update.file()).isEqualTo(first.file());
      TraceEvent second = reader.next();
      assertThat(second.timeMicros()).isEqualTo(101_500_000L);
      assertThat(second.copies()).isEqualTo(1);
      assertThat(reader.next()).isNull();
    }
  }

  @Test
  void aMalformedLineNamesTheTraceAndLine() throws IOException {
    Path trace = gzip("job0\t49\t49\t300\t0\t5\njob1\tsoon\t52\t1000\t0\t0\n");
    try (SwimTraceReader reader = new SwimTraceReader(trace.toString(), 10, 1, 1.0)) {
      reader.next();
      reader.next();
      assertThatThrownBy(reader::next).hasMessage("trace " + trace + " line 2: submit time soon is not allowed:"
          + " expected a number >= 0");
    }
  }

  @Test
  void theShippedFacebookTraceReadsToTheEnd() throws IOException {
    int jobs = 0;
    try (SwimTraceReader reader = new SwimTraceReader("classpath:FB-2009_samples_24_times_1hr_0.tsv.gz", 50_000, 1,
        1.0)) {
      for (TraceEvent event = reader.next(); event != null; event = reader.next()) {
        if (event.kind() == TraceEvent.Kind.READ) {
          jobs++;
        }
      }
    }
    assertThat(jobs).isEqualTo(5_894);
  }
}
