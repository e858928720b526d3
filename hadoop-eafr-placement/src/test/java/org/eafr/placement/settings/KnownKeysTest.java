package org.eafr.placement.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class KnownKeysTest {
  private static final List<String> CORE = EafrSettings.all().stream().map(Setting::key).collect(Collectors.toList());

  @Test
  void editDistance_countsSingleCharacterEdits() {
    assertThat(KnownKeys.editDistance("kitten", "sitting")).isEqualTo(3);
    assertThat(KnownKeys.editDistance("eafr.min-replica", "eafr.min-replicas")).isEqualTo(1);
    assertThat(KnownKeys.editDistance("", "abc")).isEqualTo(3);
  }

  @Test
  void misspelledKey_isRefusedNamingTheNearestKnownKey() {
    assertThatThrownBy(() -> KnownKeys.check(Map.of("eafr.min-replica", "3"), CORE, List.of()))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("eafr.min-replica = 3 is not allowed: unknown key; did you mean eafr.min-replicas? the known keys"
            + " are in docs/configuration.md");
    assertThatThrownBy(() -> KnownKeys.check(Map.of("eafr.intervall.ms", "1000"), CORE, List.of()))
        .hasMessageContaining("did you mean eafr.interval.ms?");
  }

  @Test
  void keyFarFromEveryKnownKey_isRefusedWithoutAGuess() {
    assertThatThrownBy(() -> KnownKeys.check(Map.of("eafr.colour", "blue"), CORE, List.of()))
        .hasMessage("eafr.colour = blue is not allowed: unknown key; the known keys are in docs/configuration.md");
  }

  @Test
  void knownKeysAndOtherOwnersKeys_pass() {
    assertThatCode(() -> KnownKeys.check(Map.of("eafr.min-replicas", "3", "eafr.datanode.x", "1"), CORE,
        List.of("eafr.datanode."))).doesNotThrowAnyException();
  }
}
