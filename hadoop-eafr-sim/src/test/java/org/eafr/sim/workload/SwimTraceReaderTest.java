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

  /** 1 GB of output at byte scale 0.5 over 100 MB files: 5 new file versions; 10 bytes of output: still 1. */
  @Test
  void outputBytes_writeTheScaledOutputAsSeveralFileVersions() throws IOException {
    Path trace = gzip("job0\t49\t49\t300000000\t0\t1000000000\njob1\t60\t11\t1000\t0\t10\n");
    try (SwimTraceReader reader = new SwimTraceReader(trace.toString(), 5_000, 1, 1.0, true, 0.5, 100e6)) {
      assertThat(reader.next().kind()).isEqualTo(TraceEvent.Kind.READ);
      for (int i = 0; i < 5; i++) {
        TraceEvent write = reader.next();
        assertThat(write.kind()).isEqualTo(TraceEvent.Kind.REWRITE);
        assertThat(write.timeMicros()).isEqualTo(49_000_000L);
      }
      assertThat(reader.next().kind()).isEqualTo(TraceEvent.Kind.READ);
      assertThat(reader.next().kind()).isEqualTo(TraceEvent.Kind.REWRITE);
      assertThat(reader.next()).isNull();
    }
  }

  @Test
  void jobsNamingTheSamePathReadTheSameFileInTheOrderPathsFirstAppear() throws IOException {
    Path trace = gzip("""
        j0\t1\t1\t100\t0\t0\t/data/a
        j1\t2\t1\t100\t0\t0\t/data/b
        j2\t3\t1\t100\t0\t0\t/data/a
        j3\t4\t1\t100\t0\t0\t/data/c
        j4\t5\t1\t100\t0\t0\t/data/a
        """);
    try (SwimTraceReader reader = new SwimTraceReader(trace.toString(), 1_000, 1, 1.0)) {
      int[] files = new int[5];
      for (int i = 0; i < files.length; i++) {
        files[i] = reader.next().file();
      }
      assertThat(files).containsExactly(0, 1, 0, 2, 0);
      assertThat(reader.distinctPaths()).isEqualTo(3);
      assertThat(reader.next()).isNull();
    }
  }

  @Test
  void pathsBeyondTheCatalogWrapAroundAndLinesWithoutAPathUseTheModel() throws IOException {
    Path trace = gzip("""
        j0\t1\t1\t100\t0\t0\t/a
        j1\t2\t1\t100\t0\t0\t/b
        j2\t3\t1\t100\t0\t0\t/c
        j3\t4\t1\t100\t0\t0\t/b
        j4\t5\t1\t100\t0\t0
        j5\t6\t1\t100\t0\t0\t 
        """);
    try (SwimTraceReader reader = new SwimTraceReader(trace.toString(), 2, 1, 1.0)) {
      assertThat(reader.next().file()).isEqualTo(0);
      assertThat(reader.next().file()).isEqualTo(1);
      assertThat(reader.next().file()).isEqualTo(0); // the third path wraps onto file 0 of 2
      assertThat(reader.next().file()).isEqualTo(1);
      assertThat(reader.next().file()).isBetween(0, 1); // no path: the model's choice
      assertThat(reader.next().file()).isBetween(0, 1); // a blank path is no path
      assertThat(reader.distinctPaths()).isEqualTo(3);
    }
  }

  @Test
  void aLineWithMoreThanSevenFieldsIsMalformed() throws IOException {
    Path trace = gzip("j0\t1\t1\t100\t0\t0\t/a\textra\n");
    try (SwimTraceReader reader = new SwimTraceReader(trace.toString(), 10, 1, 1.0)) {
      assertThatThrownBy(reader::next).hasMessage("trace " + trace + " line 1: expected 6 or 7 tab-separated fields"
          + " (job, submit s, gap s, input, shuffle, output bytes, optional input path), got 8");
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

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource({"FB-2009_samples_24_times_1hr_0.tsv.gz, 5894",
      "FB-2009_samples_24_times_1hr_1.tsv.gz, 6638", "FB-2010_samples_24_times_1hr_0.tsv.gz, 24442"})
  void theShippedFacebookTracesReadToTheEnd(String name, int expectedJobs) throws IOException {
    int jobs = 0;
    try (SwimTraceReader reader = new SwimTraceReader("classpath:" + name, 50_000, 1, 1.0)) {
      for (TraceEvent event = reader.next(); event != null; event = reader.next()) {
        if (event.kind() == TraceEvent.Kind.READ) {
          jobs++;
        }
      }
    }
    assertThat(jobs).isEqualTo(expectedJobs);
  }
}
