package org.eafr.namenode.power;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An HTTPS server with the test's trusted certificate answering GETs from a map of path to JSON (404 for the rest),
 * recording each request's method and path: a Redfish BMC serving fixture resources, or, with none, a bystander that
 * must never be asked anything.
 */
final class FixtureRedfishBmc implements AutoCloseable {
  final HttpsServer server;
  final Map<String, String> resources = new ConcurrentHashMap<>();
  final List<String> requests = new CopyOnWriteArrayList<>();

  FixtureRedfishBmc(TestTls tls) throws Exception {
    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(tls.serverContext()));
    server.createContext("/", this::answer);
    server.start();
  }

  FixtureRedfishBmc with(String path, String json) {
    resources.put(path, json);
    return this;
  }

  private void answer(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    requests.add(exchange.getRequestMethod() + " " + path);
    String body = resources.get(path);
    byte[] bytes = (body == null ? "{\"error\": \"no " + path + "\"}" : body).getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(body == null ? 404 : 200, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
