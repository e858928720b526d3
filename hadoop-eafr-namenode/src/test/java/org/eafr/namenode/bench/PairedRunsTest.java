package org.eafr.namenode.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class PairedRunsTest {
  @Test
  void javadocExample_ratiosPerPairWithMinMedianMax() {
    PairedRuns runs = PairedRuns.parse(List.of(
        "# pair label metric value",
        PairedRuns.line(1, "stock", "create", 1000), PairedRuns.line(1, "eafr", "create", 900),
        PairedRuns.line(2, "eafr", "create", 840), PairedRuns.line(2, "stock", "create", 800),
        PairedRuns.line(3, "stock", "create", 1000), PairedRuns.line(3, "eafr", "create", 1000), ""));

    assertThat(runs.ratios("create")).containsExactly(new double[] {0.90, 1.05, 1.00}, within(1e-9));
    assertThat(PairedRuns.median(runs.ratios("create"))).isEqualTo(1.00, within(1e-9));
    assertThat(runs.report(List.of("create", "open")))
        .contains("  pair  2  stock        800.0  eafr        840.0")
        .contains("create" + " ".repeat(30) + "     3   0.900   1.000   1.050")
        .contains("open" + " ".repeat(32) + "     0     n/a     n/a     n/a");
  }

  @Test
  void aPairWithOneRunOnly_givesNoRatio_andAnEvenCountTakesTheMiddleMean() {
    PairedRuns runs = new PairedRuns();
    runs.add(1, "stock", "open", 100);
    runs.add(1, "eafr", "open", 90);
    runs.add(2, "stock", "open", 100);
    runs.add(2, "eafr", "open", 110);
    runs.add(3, "stock", "open", 100);

    assertThat(runs.ratios("open")).hasSize(2);
    assertThat(PairedRuns.median(runs.ratios("open"))).isEqualTo(1.0, within(1e-9));
  }

  @Test
  void badInput_isRejectedNamingTheLine() {
    assertThatThrownBy(() -> PairedRuns.parse(List.of("1\tstock\tcreate"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("line 1 '1\tstock\tcreate' is not allowed: expected pair, label, metric and value separated by tabs");
    assertThatThrownBy(() -> PairedRuns.parse(List.of("x\tstock\tcreate\t1")))
        .hasMessageContaining("pair must be an integer");
    assertThatThrownBy(() -> new PairedRuns().add(1, "fork", "create", 1))
        .hasMessage("label fork is not allowed: expected stock or eafr");
    PairedRuns runs = new PairedRuns();
    runs.add(1, "eafr", "create", 1);
    assertThatThrownBy(() -> runs.add(1, "eafr", "create", 2)).hasMessage("pair 1 has two eafr figures for create");
  }
}
