package org.eafr.datanode.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchReportTest {

  private static BlockTransfer transfer(long start, long end, long bytes) {
    return new BlockTransfer("blk_" + start, "10.0.0.1:" + start, start, end, bytes);
  }

  @Test
  void round_summarisesPercentilesGoodputAndCompletion() {
    List<BlockTransfer> transfers = new ArrayList<>();
    for (int i = 1; i <= 100; i++) { // durations 100, 200, ..., 10000 ms, all starting at 1000
      transfers.add(transfer(1000, 1000 + 100L * i, 1_000_000));
    }
    RoundResult result = RoundResult.of("incast", "stock", 1, transfers, 500, 42, 3);

    assertThat(result.blocks()).isEqualTo(100);
    assertThat(result.p50Millis()).isEqualTo(5_000);
    assertThat(result.p99Millis()).isEqualTo(9_900);
    // 100 MB in 10 s: 80 Mbit/s
    assertThat(result.goodputMbitPerSecond()).isCloseTo(80.0, within(1e-9));
    assertThat(result.completionMillis()).isEqualTo(11_000 - 500);
    assertThat(RoundResult.parseCsv(result.toCsv()).toCsv()).isEqualTo(result.toCsv())
        .isEqualTo("incast,stock,1,100,5000,9900,80.00,42,3,10500");
  }

  @Test
  void nearestRank_ofFewValues() {
    assertThat(RoundResult.nearestRank(List.of(10L, 20L, 30L), 50)).isEqualTo(20L);
    assertThat(RoundResult.nearestRank(List.of(10L, 20L, 30L), 99)).isEqualTo(30L);
    assertThat(RoundResult.nearestRank(List.of(10L), 1)).isEqualTo(10L);
  }

  @Test
  void noTransfers_isAnErrorSayingWhy() {
    assertThatThrownBy(() -> RoundResult.of("incast", "eafr", 2, List.of(), 0, 0, 0))
        .hasMessageContaining("incast eafr round 2: no block copies found");
  }

  @Test
  void report_mediansAndRatios() {
    List<RoundResult> rows = List.of(
        RoundResult.parseCsv("incast,stock,1,24,9000,12000,90.00,500,10,30000"),
        RoundResult.parseCsv("incast,eafr,1,24,5000,9000,85.00,20,0,31000"),
        RoundResult.parseCsv("incast,stock,2,24,9000,14000,92.00,700,12,30000"),
        RoundResult.parseCsv("incast,eafr,2,24,5000,10000,87.00,40,0,31000"),
        RoundResult.parseCsv("incast,stock,3,24,9000,13000,91.00,600,11,30000"),
        RoundResult.parseCsv("incast,eafr,3,24,5000,11000,86.00,30,1,31000"));
    BenchReport report = new BenchReport(rows);

    assertThat(report.ratio("incast", "eafr", RoundResult::p99Millis)).isCloseTo(10_000.0 / 13_000, within(1e-12));
    assertThat(report.markdown())
        .contains("| scenario | metric | stock | eafr | eafr / stock | goal |\n|---|---|---|---|---|---|\n")
        .contains("| incast | block transfer time p99 (s) | 13.0 | 10.0 | 0.77x | <= 0.8: met |")
        .contains("| incast | goodput into receivers (Mbit/s) | 91.0 | 86.0 | 0.95x | >= 0.95: not met |")
        .contains("| incast | TCP retransmitted segments | 600 | 30.0 | 0.05x |  |")
        .contains("| incast | eafr | 3 | 24 | 5000 | 11000 | 86.0 | 30 | 1 | 31000 |");
    assertThat(report.ratio("hetero", "eafr", RoundResult::completionMillis)).isNaN();
  }

  @Test
  void report_everyModeAgainstStock_withAVerdictEach() {
    List<RoundResult> rows = List.of(
        RoundResult.parseCsv("incast,stock,1,24,9000,20000,90.00,500,10,30000"),
        RoundResult.parseCsv("incast,pacing,1,24,15000,19000,70.00,900,14,40000"),
        RoundResult.parseCsv("incast,window,1,24,9000,12000,90.00,0,0,30000"));
    String table = new BenchReport(rows).markdown();

    assertThat(table)
        .contains("| scenario | metric | stock | pacing | window | pacing / stock | window / stock | goal |\n"
            + "|---|---|---|---|---|---|---|---|\n")
        .contains("| incast | block transfer time p99 (s) | 20.0 | 19.0 | 12.0 | 0.95x | 0.60x | <= 0.8: pacing not"
            + " met, window met |")
        .contains("| incast | TCP retransmission timeouts | 10.0 | 14.0 | 0.0 | 1.40x | 0.00x | <= 1.0: pacing not met,"
            + " window met |");
  }

  @Test
  void evenCount_medianIsTheMeanOfTheMiddleTwo() {
    List<RoundResult> rows = List.of(RoundResult.parseCsv("hetero,stock,1,8,1,2,3.0,0,0,10000"),
        RoundResult.parseCsv("hetero,stock,2,8,1,2,3.0,0,0,20000"));
    assertThat(BenchReport.median(rows, RoundResult::completionMillis)).isEqualTo(15_000.0);
  }

  @Test
  void replaceSection_replacesBetweenTheMarkers_orAppends() {
    String appended = BenchReport.replaceSection("# Evaluation\n\ntext\n", "## Bench\nold\n");
    assertThat(appended).startsWith("# Evaluation\n\ntext\n\n" + BenchReport.BEGIN + "\n## Bench\nold\n");

    String replaced = BenchReport.replaceSection(appended + "after\n", "## Bench\nnew\n");
    assertThat(replaced).isEqualTo("# Evaluation\n\ntext\n\n" + BenchReport.BEGIN + "\n## Bench\nnew\n"
        + BenchReport.END + "\nafter\n");
  }

  @Test
  void reportWithDoc_writesTheMediansIntoTheDoc_andEveryRoundIntoBench(@TempDir Path dir) throws IOException {
    Path csv = dir.resolve("results.csv");
    Files.writeString(csv, "header\nincast,stock,1,24,9000,20000,90.00,500,10,30000\n"
        + "incast,window,1,24,9000,12000,90.00,0,0,30000\n");
    Path doc = dir.resolve("evaluation.md");
    Files.writeString(doc, "# Evaluation\n");

    IncastBench.report(Map.of("--results", csv.toString(), "--doc", doc.toString(), "--title", "Incast"));

    assertThat(Files.readString(doc))
        .contains("## Incast\n\n| scenario | metric | stock | window |")
        .contains("Every round: [bench/incast-rounds.md](bench/incast-rounds.md).\n" + BenchReport.END)
        .doesNotContain("| incast | window | 1 |");
    assertThat(Files.readString(dir.resolve("bench/incast-rounds.md")))
        .contains("into evaluation.md (times in ms)")
        .contains("| incast | window | 1 | 24 | 9000 | 12000 | 90.0 | 0 | 0 | 30000 |");
  }

  @Test
  void malformedResultsLine_isNamed() {
    assertThatThrownBy(() -> RoundResult.parseCsv("incast,stock,1")).hasMessageContaining("'incast,stock,1'");
  }
}
