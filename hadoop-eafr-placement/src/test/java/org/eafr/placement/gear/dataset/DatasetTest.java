package org.eafr.placement.gear.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.LinkedHashMap;
import java.util.Map;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.GearServers;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.junit.jupiter.api.Test;

class DatasetTest {

  @Test
  void scores_workedExample_threeDatasetsOnSixServers() {
    DatasetScores one = DatasetScores.empty(6, 2).with();
    assertThat(one.chain(0)).containsExactly(0, 1, 2, 3, 4, 5);
    DatasetScores two = one.with();
    assertThat(two.chain(1)).containsExactly(5, 4, 3, 2, 0, 1);
    assertThat(two.score(0)).isCloseTo(6.0 / 5, within(1e-12));
    assertThat(two.score(1)).isCloseTo(7.0 / 6, within(1e-12));
    assertThat(two.score(2)).isCloseTo(7.0 / 12, within(1e-12));
    assertThat(two.score(3)).isCloseTo(7.0 / 12, within(1e-12));
    DatasetScores three = two.with();
    assertThat(three.chain(2)).containsExactly(2, 3, 1, 5, 0, 4);
  }

  @Test
  void datasetMap_workedExample_longestWholeComponentPrefix() {
    Map<String, String> prefixes = new LinkedHashMap<>();
    prefixes.put("/logs", "logs");
    prefixes.put("/logs/archive/", "archive");
    DatasetMap map = new DatasetMap("default", prefixes);

    assertThat(map.datasetOf("/logs/2024/a")).isEqualTo("logs");
    assertThat(map.datasetOf("/logs")).isEqualTo("logs");
    assertThat(map.datasetOf("/logs/archive/b")).isEqualTo("archive");
    assertThat(map.datasetOf("/logsheet")).isEqualTo("default");
    assertThat(map.datasets()).containsExactly("default", "logs", "archive");
    assertThatThrownBy(() -> new DatasetMap("default", Map.of("logs", "x")))
        .hasMessageContaining("dataset prefix logs is not allowed");
  }

  @Test
  void degreeOfPowerProportionality_workedExample_and_equalWorkIsOne() {
    assertThat(PowerProportionality.degree(new double[] {0.4, 0.3, 0.2, 0.1})).isCloseTo(25.0 / 35, within(1e-12));
    EqualWorkLayout layout = new EqualWorkLayout(GearServers.chain(60, 1), 8, 1, 3);
    for (int n = 8; n <= 60; n++) {
      double[] shares = new double[n];
      for (int i = 0; i < n; i++) {
        shares[i] = layout.share(i);
      }
      assertThat(PowerProportionality.degree(shares)).as("n = %d", n).isEqualTo(1.0);
    }
  }

  @Test
  void multiDataset_blocksFollowTheirDatasetsChain_primariesDiffer() {
    DatasetMap map = new DatasetMap("default", Map.of("/warehouse", "warehouse"));
    MultiDatasetLayout layout = new MultiDatasetLayout(GearServers.servers(60, 2), map, 8, 3);
    ActiveSet all = ActiveSet.all(layout.chain());
    int[] defaultChain = layout.chainOf("default");
    int[] warehouseChain = layout.chainOf("warehouse");

    BlockPlacement a = layout.place(BlockRequest.of("a", 3).withPath("/tmp/x"), all);
    BlockPlacement b = layout.place(BlockRequest.of("b", 3).withPath("/warehouse/t/part-0"), all);

    assertThat(indexIn(defaultChain, a.holder(0))).isLessThan(8);
    assertThat(indexIn(warehouseChain, b.holder(0))).isLessThan(8);
    for (int i = 0; i < 8; i++) {
      assertThat(indexIn(warehouseChain, defaultChain[i])).as("default primary %d", defaultChain[i])
          .isGreaterThanOrEqualTo(8);
    }
    assertThat(layout.serversOn(0).size()).isEqualTo(16);
    assertThat(layout.serversOn(layout.maximumGear())).isEqualTo(all);
    assertThatThrownBy(() -> layout.dataset("nope")).hasMessage("unknown dataset nope; the datasets are [default,"
        + " warehouse]");
  }

  private static int indexIn(int[] chain, int position) {
    for (int i = 0; i < chain.length; i++) {
      if (chain[i] == position) {
        return i;
      }
    }
    return -1;
  }
}
