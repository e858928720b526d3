package org.eafr.namenode.power;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A Redfish BMC the sushy-tools emulator cannot play: one that answers a reset with 500, or accepts it (204) but
 * never changes the system's PowerState. A JDK HTTPS server with the test's certificate; it records every reset body.
 */
final class FakeRedfishBmc implements AutoCloseable {
  static final String SYSTEM = "/redfish/v1/Systems/1";

  enum Behaviour {
    FAIL_RESET_WITH_500,
    ACCEPT_RESET_BUT_STAY,
    /** Answers a reset with 500 and a body repeating the credentials in every encoding it can make of them. */
    FAIL_RESET_ECHOING_CREDENTIALS
  }

  private final HttpsServer server;
  private final Behaviour behaviour;
  private final String powerState;
  private final String member;
  private final String resetTarget;
  final List<String> resets = new CopyOnWriteArrayList<>();

  /** A BMC whose system is always in {@code powerState} (On or Off). */
  FakeRedfishBmc(TestTls tls, Behaviour behaviour, String powerState) throws Exception {
    this(tls, behaviour, powerState, SYSTEM, SYSTEM + "/Actions/ComputerSystem.Reset");
  }

  /**
   * A BMC whose system collection names {@code member} and whose system names {@code resetTarget}, as a rogue BMC
   * may (paths pointing at another server).
   */
  FakeRedfishBmc(TestTls tls, Behaviour behaviour, String powerState, String member, String resetTarget)
      throws Exception {
    this.behaviour = behaviour;
    this.powerState = powerState;
    this.member = member;
    this.resetTarget = resetTarget;
    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(tls.serverContext()));
    server.createContext("/redfish/v1/", this::handle);
    server.start();
  }

  int port() {
    return server.getAddress().getPort();
  }

  private void handle(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    if (exchange.getRequestMethod().equals("GET") && path.equals("/redfish/v1/Systems")) {
      answer(exchange, 200, "{\"Members\": [{\"@odata.id\": \"" + member + "\"}]}");
    } else if (exchange.getRequestMethod().equals("GET") && path.equals(SYSTEM)) {
      answer(exchange, 200, "{\"@odata.id\": \"" + SYSTEM + "\", \"PowerState\": \"" + powerState + "\", \"Actions\":"
          + " {\"#ComputerSystem.Reset\": {\"target\": \"" + resetTarget + "\"}}}");
    } else if (exchange.getRequestMethod().equals("POST") && path.endsWith("/Actions/ComputerSystem.Reset")) {
      resets.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      if (behaviour == Behaviour.FAIL_RESET_ECHOING_CREDENTIALS) {
        answer(exchange, 500, echoCredentials(exchange.getRequestHeaders().getFirst("Authorization")));
      } else if (behaviour == Behaviour.FAIL_RESET_WITH_500) {
        answer(exchange, 500, "{\"error\": {\"message\": \"Internal BMC error: power controller not responding\"}}");
      } else {
        exchange.sendResponseHeaders(204, -1);
        exchange.close();
      }
    } else {
      answer(exchange, 404, "{\"error\": {\"message\": \"no " + path + "\"}}");
    }
  }

  private static String echoCredentials(String authorization) {
    String token = authorization.substring("Basic ".length());
    String userAndPassword = new String(Base64.getDecoder().decode(token), StandardCharsets.UTF_8);
    String password = userAndPassword.substring(userAndPassword.indexOf(':') + 1);
    return "{\"error\": {\"message\": \"denied " + authorization + " token=" + token + " raw=" + password + " url="
        + URLEncoder.encode(password, StandardCharsets.UTF_8) + " b64="
        + Base64.getEncoder().encodeToString(password.getBytes(StandardCharsets.UTF_8)) + "\"}}";
  }

  private static void answer(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
