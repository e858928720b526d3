package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The redfish driver's measured draw against a fixture HTTPS BMC (a JDK server with the test's trusted certificate)
 * serving the two resource shapes: the chassis' {@code EnvironmentMetrics} {@code PowerWatts.Reading} and the older
 * {@code Power} {@code PowerControl[].PowerConsumedWatts}; a chassis with neither (as the sushy-tools emulator serves:
 * Thermal only) is "not offered", checked against sushy itself too. Chassis and meter paths the BMC names are followed
 * only on the BMC, as reset targets are: a link to another server is refused and that server gets no request.
 */
class RedfishPowerReadingTest {
  private static final String PASSWORD = "Meter-pw-8e21a";
  private static final String SYSTEM = "/redfish/v1/Systems/1";
  private static final String CHASSIS = "/redfish/v1/Chassis/1";

  private static String system(String chassisLink) {
    return "{\"@odata.id\": \"" + SYSTEM + "\", \"PowerState\": \"On\""
        + (chassisLink == null ? "" : ", \"Links\": {\"Chassis\": [{\"@odata.id\": \"" + chassisLink + "\"}]}") + "}";
  }

  private static String chassis(String... links) {
    StringBuilder json = new StringBuilder("{\"@odata.id\": \"" + CHASSIS + "\", \"Thermal\": {\"@odata.id\": \""
        + CHASSIS + "/Thermal\"}");
    for (String link : links) {
      json.append(", \"").append(link.substring(link.lastIndexOf('/') + 1)).append("\": {\"@odata.id\": \"")
          .append(link).append("\"}");
    }
    return json.append('}').toString();
  }

  private static final String ENVIRONMENT = "{\"PowerWatts\": {\"DataSourceUri\": \"" + CHASSIS + "/Sensors/Power\","
      + " \"Reading\": 187.5}}";
  private static final String POWER = "{\"PowerControl\": [{\"MemberId\": \"0\", \"PowerConsumedWatts\": 344,"
      + " \"PowerCapacityWatts\": 750}]}";

  private static PowerReading read(Path dir, TestTls tls, int port) throws Exception {
    try (PowerManager manager = RedfishPowerTest.manager(dir, tls, port, PASSWORD, true, SYSTEM)) {
      return manager.driver("dn1").powerReading();
    }
  }

  @Test
  void environmentMetrics_isReadFirst_thenOneGetPerReading() throws Exception {
    Path dir = TestDirs.create("redfish-meter-env");
    TestTls tls = TestTls.create(dir);
    try (FixtureRedfishBmc bmc = new FixtureRedfishBmc(tls).with(SYSTEM, system(CHASSIS))
        .with(CHASSIS, chassis(CHASSIS + "/EnvironmentMetrics", CHASSIS + "/Power"))
        .with(CHASSIS + "/EnvironmentMetrics", ENVIRONMENT).with(CHASSIS + "/Power", POWER);
        PowerManager manager = RedfishPowerTest.manager(dir, tls, bmc.port(), PASSWORD, true, SYSTEM)) {
      assertThat(manager.driver("dn1").powerReading()).isEqualTo(PowerReading.watts(187.5));
      bmc.requests.clear();

      assertThat(manager.driver("dn1").powerReading()).isEqualTo(PowerReading.watts(187.5));
      assertThat(bmc.requests).containsExactly("GET " + CHASSIS + "/EnvironmentMetrics");
    }
  }

  @Test
  void olderPowerResource_givesPowerConsumedWatts_throughTheOnlyChassis() throws Exception {
    Path dir = TestDirs.create("redfish-meter-power");
    TestTls tls = TestTls.create(dir);
    try (FixtureRedfishBmc bmc = new FixtureRedfishBmc(tls).with(SYSTEM, system(null))
        .with("/redfish/v1/Chassis", "{\"Members\": [{\"@odata.id\": \"" + CHASSIS + "\"}]}")
        .with(CHASSIS, chassis(CHASSIS + "/Power")).with(CHASSIS + "/Power", POWER)) {
      assertThat(read(dir, tls, bmc.port())).isEqualTo(PowerReading.watts(344));
    }
  }

  @Test
  void nullReading_isUnavailable_aChassisWithoutMeter_isNotOffered() throws Exception {
    Path dir = TestDirs.create("redfish-meter-none");
    TestTls tls = TestTls.create(dir);
    try (FixtureRedfishBmc bmc = new FixtureRedfishBmc(tls).with(SYSTEM, system(CHASSIS))
        .with(CHASSIS, chassis(CHASSIS + "/EnvironmentMetrics"))
        .with(CHASSIS + "/EnvironmentMetrics", "{\"PowerWatts\": {\"Reading\": null}}")) {
      PowerReading nullReading = read(dir, tls, bmc.port());
      assertThat(nullReading.measured()).isFalse();
      assertThat(nullReading.lasting()).isFalse();

      bmc.with(CHASSIS, chassis());
      PowerReading none = read(dir, tls, bmc.port());
      assertThat(none.lasting()).isTrue();
      assertThat(none.notOfferedReason()).isEqualTo("redfish BMC 127.0.0.1:" + bmc.port() + " chassis " + CHASSIS
          + " has neither EnvironmentMetrics nor Power");
    }
  }

  @Test
  void linksToAnotherServer_areRefused_andItGetsNoRequest() throws Exception {
    Path dir = TestDirs.create("redfish-meter-hostile");
    TestTls tls = TestTls.create(dir);
    try (FixtureRedfishBmc bystander = new FixtureRedfishBmc(tls).with(CHASSIS, chassis(CHASSIS + "/Power"))
        .with(CHASSIS + "/Power", POWER)) {
      String elsewhere = "https://127.0.0.1:" + bystander.port();
      for (boolean viaMeter : new boolean[] {false, true}) {
        try (FixtureRedfishBmc bmc = new FixtureRedfishBmc(tls)) {
          bmc.with(SYSTEM, system(viaMeter ? CHASSIS : elsewhere + CHASSIS))
              .with(CHASSIS, chassis(viaMeter ? "@127.0.0.1:" + bystander.port() + "/x/Power" : CHASSIS + "/Power"));
          assertThatThrownBy(() -> read(dir, tls, bmc.port())).isInstanceOf(PowerException.class)
              .hasMessageContaining("redfish BMC 127.0.0.1:" + bmc.port() + " sent a path that is refused: ");
        }
      }
      assertThat(bystander.requests).isEmpty();
    }
  }

  @Test
  void sushyEmulator_hasNoPowerResource_soNoReadingIsOffered() throws Exception {
    Path dir = TestDirs.create("redfish-meter-sushy");
    TestTls tls = TestTls.create(dir);
    try (SushyBmc bmc = SushyBmc.start(dir, tls, PASSWORD, tls.clientContext());
        PowerManager manager = RedfishPowerTest.manager(dir, tls, bmc.port(), PASSWORD, true, null)) {
      PowerReading reading = manager.driver("dn1").powerReading();

      assertThat(reading.measured()).isFalse();
      assertThat(reading.lasting()).isTrue();
    }
  }
}
