package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A rogue Redfish BMC (a JDK HTTPS server with the test's certificate, which the driver trusts) names paths on another
 * server, also trusted, that records every request: as its reset target and as its only system's {@code @odata.id},
 * in the forms that would move a URL built by concatenation to another host. The driver refuses each, and no request
 * (so no Authorization header) ever reaches the other server. A BMC that echoes the credentials in every encoding in
 * its error body has them scrubbed from the message.
 */
class RedfishHostileBmcTest {
  private static final String USER = SushyBmc.USER;
  private static final String PASSWORD = "Hostile pw/+&=c41e";

  private static PowerManager manager(Path dir, TestTls tls, int port, String system) throws Exception {
    return RedfishPowerTest.manager(dir, tls, port, PASSWORD, true, system);
  }

  private static String failure(CompletableFuture<?> action) {
    return RedfishPowerTest.failure(action);
  }

  private static List<String> hostilePaths(int bystanderPort) {
    return List.of("@127.0.0.1:" + bystanderPort + "/x",
        "@127.0.0.1:" + bystanderPort + "/redfish/v1/Systems/1/Actions/ComputerSystem.Reset",
        "//127.0.0.1:" + bystanderPort + "/redfish/v1/Systems/1/Actions/ComputerSystem.Reset",
        "https://127.0.0.1:" + bystanderPort + "/redfish/v1/Systems/1/Actions/ComputerSystem.Reset",
        "http://127.0.0.1:" + bystanderPort + "/redfish/v1/Systems/1",
        "/redfish/v1/../../x");
  }

  @Test
  void hostileResetTargets_areRefused_andNoRequestReachesAnotherServer() throws Exception {
    Path dir = TestDirs.create("redfish-hostile-target");
    TestTls tls = TestTls.create(dir);
    try (LogCapture log = new LogCapture(); FixtureRedfishBmc bystander = new FixtureRedfishBmc(tls)) {
      for (String target : hostilePaths(bystander.port())) {
        try (FakeRedfishBmc bmc = new FakeRedfishBmc(tls, FakeRedfishBmc.Behaviour.ACCEPT_RESET_BUT_STAY, "Off",
            FakeRedfishBmc.SYSTEM, target); PowerManager manager = manager(dir, tls, bmc.port(),
            FakeRedfishBmc.SYSTEM)) {
          String error = failure(manager.powerOn("dn1", Requester.OPERATOR));

          assertThat(error).as(target).contains("redfish BMC 127.0.0.1:" + bmc.port() + " sent a path that is"
              + " refused: '" + target + "' (the reset target of GET /redfish/v1/Systems/1)");
          assertThat(bmc.resets).as(target).isEmpty();
        }
      }
      assertThat(bystander.requests).isEmpty();
      assertThat(log.text()).doesNotContain(PASSWORD);
    }
  }

  @Test
  void hostileSystemMember_isRefused_beforeAnyRequestFollowsIt() throws Exception {
    Path dir = TestDirs.create("redfish-hostile-member");
    TestTls tls = TestTls.create(dir);
    try (FixtureRedfishBmc bystander = new FixtureRedfishBmc(tls)) {
      for (String member : hostilePaths(bystander.port())) {
        try (FakeRedfishBmc bmc = new FakeRedfishBmc(tls, FakeRedfishBmc.Behaviour.ACCEPT_RESET_BUT_STAY, "Off",
            member, FakeRedfishBmc.SYSTEM + "/Actions/ComputerSystem.Reset");
            PowerManager manager = manager(dir, tls, bmc.port(), null)) {
          String error = failure(manager.readState("dn1"));

          assertThat(error).as(member).contains("sent a path that is refused: '" + member + "' (the @odata.id of"
              + " the only member of /redfish/v1/Systems)");
        }
      }
      assertThat(bystander.requests).isEmpty();
    }
  }

  @Test
  void credentialsEchoedInEveryEncoding_areScrubbedFromTheError() throws Exception {
    Path dir = TestDirs.create("redfish-echo");
    TestTls tls = TestTls.create(dir);
    try (LogCapture log = new LogCapture();
        FakeRedfishBmc bmc = new FakeRedfishBmc(tls, FakeRedfishBmc.Behaviour.FAIL_RESET_ECHOING_CREDENTIALS, "Off");
        PowerManager manager = manager(dir, tls, bmc.port(), FakeRedfishBmc.SYSTEM)) {
      String error = failure(manager.powerOn("dn1", Requester.OPERATOR));

      String token = Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
      assertThat(error).contains("answered 500: {\"error\": {\"message\": \"denied Basic **** token=**** raw=****"
          + " url=**** b64=****\"}}");
      for (String text : List.of(error, log.text())) {
        assertThat(text).doesNotContain(PASSWORD).doesNotContain(token)
            .doesNotContain(URLEncoder.encode(PASSWORD, StandardCharsets.UTF_8))
            .doesNotContain(Base64.getEncoder().encodeToString(PASSWORD.getBytes(StandardCharsets.UTF_8)));
      }
    }
  }
}
