package org.eafr.namenode.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.eafr.namenode.runtime.SettingsDefaults;
import org.eafr.namenode.read.ReadCountingAuditLogger;
import org.eafr.placement.settings.InvalidSettingException;
import org.junit.jupiter.api.Test;

class NamenodeSettingsTest {

  @Test
  void defaultsFile_isGeneratedFromTheCode() throws IOException {
    String checkedIn = new String(Files.readAllBytes(Paths.get("src/main/resources/eafr-default.xml")),
        StandardCharsets.UTF_8);
    assertThat(checkedIn)
        .as("regenerate with: java -cp hadoop-eafr-namenode/target/classes:hadoop-eafr-placement/target/classes"
            + " org.eafr.namenode.runtime.SettingsDefaults > hadoop-eafr-namenode/src/main/resources/eafr-default.xml")
        .isEqualTo(SettingsDefaults.xml());
  }

  @Test
  void defaultsFile_loadedByHadoop_givesTheDefaults() {
    Configuration conf = new Configuration(false);
    conf.addResource("eafr-default.xml");
    NamenodeSettings settings = NamenodeSettings.from(conf::get);
    NamenodeSettings defaults = NamenodeSettings.defaults();
    assertThat(settings.core()).isEqualTo(defaults.core());
    assertThat(settings.serviceCapacity()).isEqualTo(64);
    assertThat(settings.recentReadsHalfLifeMillis()).isEqualTo(10_000L);
    assertThat(settings.randomSeed()).isEqualTo(1L);
    assertThat(settings.maxConcurrentActions()).isEqualTo(100);
    assertThat(settings.maxBytesPerSecond()).isEqualTo(104_857_600L);
    assertThat(settings.transferMaxTracked()).isEqualTo(1_000);
    assertThat(settings.transferMinSampleBytes()).isEqualTo(67_108_864L);
    assertThat(settings.transferPollMillis()).isEqualTo(200L);
    assertThat(settings.transferTimeoutMillis()).isEqualTo(600_000L);
    assertThat(settings.rolesFile()).isEmpty();
    assertThat(settings.coldPaths()).isEmpty();
  }

  @Test
  void exampleHdfsSite_isValidAndNamesLoadableClasses() throws Exception {
    Configuration conf = new Configuration(false);
    conf.addResource(new org.apache.hadoop.fs.Path("../conf/hdfs-site.eafr.xml"));
    NamenodeSettings settings = NamenodeSettings.from(conf::get);
    assertThat(settings.coldPaths()).as("the example leaves eafr.cold.paths commented out, a site value").isEmpty();
    assertThat(settings.rolesFile()).isEqualTo("/etc/hadoop/conf/eafr-roles");
    for (String key : List.of("dfs.block.replicator.classname", "dfs.net.topology.impl", "dfs.namenode.plugins",
        "dfs.namenode.hosts.provider.classname")) {
      assertThat(Class.forName(conf.get(key))).as(key).isNotNull();
    }
    assertThat(conf.get("dfs.namenode.audit.loggers")).isEqualTo("default," + ReadCountingAuditLogger.class.getName());
    List<String> example = Files.readAllLines(Paths.get("../conf/eafr-roles.example"));
    assertThat(RolesFile.parse("eafr-roles.example", example).entries()).hasSize(9);
  }

  @Test
  void epsNotBelowR_isRefusedNamingBothKeys() {
    Map<String, String> conf = Map.of("eafr.min-replicas", "2", "eafr.min-hot-replicas", "2");
    assertThatThrownBy(() -> NamenodeSettings.from(conf::get))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("eafr.min-hot-replicas")
        .hasMessageContaining("2")
        .hasMessageContaining("must be below eafr.min-replicas");
  }

  @Test
  void outOfRangeAdapterValue_isRefusedWithTheRange() {
    Map<String, String> conf = Map.of("eafr.server.service-capacity", "0");
    assertThatThrownBy(() -> NamenodeSettings.from(conf::get))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("eafr.server.service-capacity")
        .hasMessageContaining("0")
        .hasMessageContaining("[1, 1000000]");
  }

  @Test
  void transferPollIntervalOutOfRange_isRefusedWithTheRange() {
    Map<String, String> conf = Map.of("eafr.transfer.poll.ms", "5");
    assertThatThrownBy(() -> NamenodeSettings.from(conf::get))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("eafr.transfer.poll.ms")
        .hasMessageContaining("5")
        .hasMessageContaining("[10, 60000]");
  }

  @Test
  void warmUpOutOfRange_isRefusedWithTheRange_andReadWhenInIt() {
    assertThatThrownBy(() -> NamenodeSettings.from(key -> key.equals("eafr.reads.warm-up.ms") ? "-1" : null))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("eafr.reads.warm-up.ms")
        .hasMessageContaining("-1")
        .hasMessageContaining("[0, 3600000]");
    assertThat(NamenodeSettings.from(key -> key.equals("eafr.reads.warm-up.ms") ? "5000" : null).readsWarmUpMillis())
        .isEqualTo(5_000L);
    assertThat(NamenodeSettings.defaults().readsWarmUpMillis()).isEqualTo(30_000L);
  }

  @Test
  void transferTimeoutBelowThePollInterval_isRefusedNamingBothKeys() {
    Map<String, String> conf = Map.of("eafr.transfer.poll.ms", "500", "eafr.transfer.timeout.ms", "100");
    assertThatThrownBy(() -> NamenodeSettings.from(conf::get))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("eafr.transfer.timeout.ms")
        .hasMessageContaining("100")
        .hasMessageContaining("must be at least eafr.transfer.poll.ms (500)");
  }

  @Test
  void malformedNumber_isRefusedNamingTheKey() {
    Map<String, String> conf = Map.of("eafr.reads.recent.half-life.ms", "ten");
    assertThatThrownBy(() -> NamenodeSettings.from(conf::get))
        .hasMessageContaining("eafr.reads.recent.half-life.ms")
        .hasMessageContaining("ten");
  }

  @Test
  void coldPaths_areParsedAndMatchedByPrefix() {
    NamenodeSettings settings = NamenodeSettings.from(Map.of("eafr.cold.paths", " /archive/ , /logs/old")::get);
    assertThat(settings.coldPaths()).containsExactly("/archive", "/logs/old");
    assertThat(settings.isUnderColdPath("/archive")).isTrue();
    assertThat(settings.isUnderColdPath("/archive/2019/a.csv")).isTrue();
    assertThat(settings.isUnderColdPath("/archived/a.csv")).isFalse();
    assertThat(settings.isUnderColdPath("/logs/new/x")).isFalse();
    assertThat(settings.isUnderColdPath(null)).isFalse();
  }

  @Test
  void relativeColdPath_isRefused() {
    assertThatThrownBy(() -> NamenodeSettings.from(Map.of("eafr.cold.paths", "/a,archive")::get))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("eafr.cold.paths")
        .hasMessageContaining("'archive' is not one");
  }

  @Test
  void adapterSettings_areListedOnce() {
    assertThat(NamenodeSettings.adapterSettings()).extracting(s -> s.key()).containsExactly(
        "eafr.server.service-capacity", "eafr.reads.recent.half-life.ms", "eafr.reads.warm-up.ms", "eafr.random.seed",
        "eafr.monitor.max-concurrent-actions", "eafr.monitor.bytes-per-second", "eafr.transfer.max-tracked",
        "eafr.transfer.min-sample-bytes", "eafr.transfer.poll.ms", "eafr.transfer.timeout.ms", "eafr.energy.sample.ms");
    assertThat(List.copyOf(NamenodeSettings.adapterSettings())).doesNotHaveDuplicates();
  }

  @Test
  void everyKeyOfEafrDefaultXml_isAKnownKey_soTheMisspellingCheckNeverRefusesADocumentedKey() {
    Configuration conf = new Configuration(false);
    conf.addResource("eafr-default.xml");
    assertThat(SettingsDefaults.knownKeys()).containsAll(conf.getValByRegex("^eafr\\.").keySet());
    SettingsDefaults.checkKeys(conf.getValByRegex("^eafr\\."));
  }

  @Test
  void gridKeysAreKnown_aMisspelledOneIsRefusedNamingTheNearest() {
    SettingsDefaults.checkKeys(Map.of("eafr.grid.objective", "carbon", "eafr.grid.signal.file", "/etc/grid.csv",
        "eafr.grid.defer.reflection.ms", "3600000"));

    assertThatThrownBy(() -> SettingsDefaults.checkKeys(Map.of("eafr.grid.signal.fil", "/etc/grid.csv")))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("eafr.grid.signal.fil = /etc/grid.csv is not allowed: unknown key; did you mean"
            + " eafr.grid.signal.file? the known keys are in docs/configuration.md");
  }

  @Test
  void anUnknownGridObjectiveIsRefusedNamingWhatIsAllowed() {
    assertThatThrownBy(() -> org.eafr.namenode.gear.GearSettings.from(Map.of("eafr.grid.objective", "green")::get))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("eafr.grid.objective = green").hasMessageContaining("[energy, carbon, price]");
  }
}
