package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.eafr.namenode.power.PowerTestSupport.await;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.conf.Configuration;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.junit.jupiter.api.Test;

/**
 * The redfish driver over HTTPS against the sushy-tools emulator (fake driver: the state changes 1 to 11 s after a
 * reset, so polling is exercised) and, for faults sushy cannot make, a JDK HTTPS server. The BMC certificate is the
 * test's own, trusted only through {@code eafr.power.redfish.truststore}; the password comes from a CredentialProvider
 * store and never shows in a log line or an exception message.
 */
class RedfishPowerTest {
  private static final String PASSWORD = "Redfish-pw-c41e8";
  private static final String WRONG_PASSWORD = "Nope-pw-0b77d";

  static PowerManager manager(Path dir, TestTls tls, int port, String storedPassword, boolean trust,
      String system) throws Exception {
    return manager(dir, tls, port, storedPassword, trust, system, 20_000); // sushy's fake host takes up to 11 s
  }

  private static PowerManager manager(Path dir, TestTls tls, int port, String storedPassword, boolean trust,
      String system, long stateTimeoutMillis) throws Exception {
    Configuration conf = PowerTestSupport.fastConf(dir, "{\"nodes\": [{\"host\": \"dn1\", \"driver\": \"redfish\","
        + " \"address\": \"127.0.0.1\", \"port\": " + port + ", \"user\": \"" + SushyBmc.USER + "\","
        + " \"credential\": \"eafr.bmc.dn1\"" + (system == null ? "" : ", \"system\": \"" + system + "\"") + "}]}");
    conf.set("eafr.power.state-timeout.ms", String.valueOf(stateTimeoutMillis));
    // the driver's default: a TLS handshake with a test BMC can take over 3 s on a loaded 2-core machine
    conf.set(PowerSettings.COMMAND_TIMEOUT_MS.key(), "20000");
    conf.set("eafr.power.poll.max.ms", "1000");
    // not trusted: a truststore that lacks the BMC's certificate
    conf.set(PowerSettings.REDFISH_TRUSTSTORE_KEY, trust ? tls.truststore.toString() : emptyTruststore(dir));
    conf.set(PowerSettings.REDFISH_TRUSTSTORE_PASSWORD_ALIAS_KEY, "eafr.redfish.truststore");
    TestCredentials.store(conf, dir, "eafr.bmc.dn1", storedPassword, "eafr.redfish.truststore",
        TestTls.STORE_PASSWORD);
    return PowerDrivers.startManager(conf, PowerTestSupport.ANY_HOST_MAY_POWER_OFF, 2);
  }

  private static String emptyTruststore(Path dir) throws Exception {
    Path file = dir.resolve("empty-truststore.p12");
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    try (OutputStream out = Files.newOutputStream(file)) {
      store.store(out, TestTls.STORE_PASSWORD.toCharArray());
    }
    return file.toString();
  }

  /** The messages of the failure of {@code action}, cause by cause. */
  static String failure(CompletableFuture<?> action) {
    try {
      await(action);
    } catch (Exception e) {
      StringBuilder messages = new StringBuilder();
      for (Throwable t = e; t != null; t = t.getCause()) {
        messages.append(t.getMessage()).append('\n');
      }
      return messages.toString();
    }
    throw new AssertionError("expected a failure");
  }

  private static void assertNoPassword(LogCapture log, String... messages) {
    assertThat(log.text()).contains("EAFR power").doesNotContain(PASSWORD).doesNotContain(WRONG_PASSWORD);
    for (String message : messages) {
      assertThat(message).doesNotContain(PASSWORD).doesNotContain(WRONG_PASSWORD);
    }
  }

  @Test
  void onAndGracefulOff_overHttps_pollUntilTheEmulatedHostGetsThere() throws Exception {
    Path dir = TestDirs.create("redfish-on-off");
    TestTls tls = TestTls.create(dir);
    try (LogCapture log = new LogCapture(); SushyBmc bmc = SushyBmc.start(dir, tls, PASSWORD, tls.clientContext());
        PowerManager manager = manager(dir, tls, bmc.port(), PASSWORD, true, null)) {
      assertThat(await(manager.readState("dn1"))).isEqualTo(PowerState.OFF);

      PowerResult on = await(manager.powerOn("dn1", Requester.OPERATOR));
      assertThat(on.changed()).isTrue();
      assertThat(await(manager.readState("dn1"))).isEqualTo(PowerState.ON);

      PowerResult off = await(manager.powerOff("dn1", false, Requester.OPERATOR));
      assertThat(off.state()).isEqualTo(PowerState.OFF);
      assertThat(manager.metrics().poweredOn()).isEqualTo(1);
      assertThat(manager.metrics().poweredOff()).isEqualTo(1);
      assertNoPassword(log);
    }
  }

  @Test
  void wrongPassword_is401_untrustedCertificate_isRefused_andNeitherShowsAPassword() throws Exception {
    Path dir = TestDirs.create("redfish-auth");
    TestTls tls = TestTls.create(dir);
    try (LogCapture log = new LogCapture(); SushyBmc bmc = SushyBmc.start(dir, tls, PASSWORD, tls.clientContext())) {
      String unauthorized;
      try (PowerManager manager = manager(dir, tls, bmc.port(), WRONG_PASSWORD, true, null)) {
        unauthorized = failure(manager.powerOn("dn1", Requester.AUTOMATIC));
        assertThat(manager.status("dn1").quarantined()).isTrue();
      }
      assertThat(unauthorized).contains("redfish BMC 127.0.0.1:" + bmc.port() + " GET /redfish/v1/Systems answered"
          + " 401: user admin was not accepted (check the password under credential alias eafr.bmc.dn1)");

      String untrusted;
      try (PowerManager manager = manager(dir, tls, bmc.port(), PASSWORD, false, null)) {
        untrusted = failure(manager.powerOn("dn1", Requester.AUTOMATIC));
      }
      // our prefix and the JDK's exception type; the JDK's own text changes between updates
      assertThat(untrusted).contains("redfish BMC 127.0.0.1:" + bmc.port() + " GET /redfish/v1/Systems failed:"
          + " SSLHandshakeException");
      assertNoPassword(log, unauthorized, untrusted);
    }
  }

  @Test
  void noTruststore_stopsTheManagerAtStart_namingTheKey_theJdksPublicCasAreNotTrusted() throws Exception {
    Path dir = TestDirs.create("redfish-no-truststore");
    Configuration conf = PowerTestSupport.fastConf(dir, "{\"nodes\": [{\"host\": \"dn1\", \"driver\": \"redfish\","
        + " \"address\": \"127.0.0.1\", \"port\": " + TestDirs.freeTcpPort() + ", \"user\": \"" + SushyBmc.USER
        + "\", \"credential\": \"eafr.bmc.dn1\"}]}");
    TestCredentials.store(conf, dir, "eafr.bmc.dn1", PASSWORD);

    assertThatThrownBy(() -> PowerDrivers.startManager(conf, PowerTestSupport.ANY_HOST_MAY_POWER_OFF, 2))
        .hasStackTraceContaining("eafr.power.redfish.truststore = (empty) is not allowed with a redfish entry in the"
            + " power inventory");
  }

  @Test
  void connectionRefused_failsEveryAttempt_thenQuarantines() throws Exception {
    Path dir = TestDirs.create("redfish-refused");
    TestTls tls = TestTls.create(dir);
    try (LogCapture log = new LogCapture();
        PowerManager manager = manager(dir, tls, TestDirs.freeTcpPort(), PASSWORD, true, null)) {
      String refused = failure(manager.powerOn("dn1", Requester.AUTOMATIC));

      assertThat(refused).contains("failed after 2 attempts (node quarantined)").contains("ConnectException");
      assertThat(manager.metrics().failedAttempts()).isEqualTo(2);
      assertNoPassword(log, refused);
    }
  }

  @Test
  void resetAnswered500_isAFailedAttemptNamingTheBmcError() throws Exception {
    Path dir = TestDirs.create("redfish-500");
    TestTls tls = TestTls.create(dir);
    try (LogCapture log = new LogCapture();
        FakeRedfishBmc bmc = new FakeRedfishBmc(tls, FakeRedfishBmc.Behaviour.FAIL_RESET_WITH_500, "Off");
        PowerManager manager = manager(dir, tls, bmc.port(), PASSWORD, true, FakeRedfishBmc.SYSTEM)) {
      String error = failure(manager.powerOn("dn1", Requester.AUTOMATIC));

      assertThat(error).contains("redfish BMC 127.0.0.1:" + bmc.port() + " POST /redfish/v1/Systems/1/Actions/"
          + "ComputerSystem.Reset ResetType On answered 500: {\"error\": {\"message\": \"Internal BMC error: power"
          + " controller not responding\"}}");
      assertThat(bmc.resets).containsExactly("{\"ResetType\":\"On\"}", "{\"ResetType\":\"On\"}");
      assertNoPassword(log, error);
    }
  }

  @Test
  void hostNeverReachingTheState_afterForceOff_timesOut_thenQuarantines() throws Exception {
    Path dir = TestDirs.create("redfish-stuck");
    TestTls tls = TestTls.create(dir);
    try (LogCapture log = new LogCapture();
        FakeRedfishBmc bmc = new FakeRedfishBmc(tls, FakeRedfishBmc.Behaviour.ACCEPT_RESET_BUT_STAY, "On");
        PowerManager manager = manager(dir, tls, bmc.port(), PASSWORD, true, FakeRedfishBmc.SYSTEM, 1_500)) {
      String error = failure(manager.powerOff("dn1", true, Requester.AUTOMATIC));

      assertThat(error).contains("dn1 did not reach OFF within 1500 ms (eafr.power.state-timeout.ms) after"
          + " forced-off; last state ON").contains("(node quarantined)");
      assertThat(bmc.resets).containsExactly("{\"ResetType\":\"ForceOff\"}", "{\"ResetType\":\"ForceOff\"}");
      assertThat(log.text()).contains("ERROR PowerManager - EAFR power: node dn1 quarantined after 2 consecutive"
          + " failed attempts: driver redfish (127.0.0.1:" + bmc.port() + "), command forced-off");
      assertNoPassword(log, error);
    }
  }
}
