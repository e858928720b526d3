package org.eafr.namenode.power;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/**
 * A Redfish BMC for one test: the sushy-tools emulator with its fake driver (one system, off, that reaches a new
 * power state 1 to 11 s after a reset, so the client must poll), over HTTPS with the test's certificate and basic
 * authentication from an htpasswd file, on a free port of 127.0.0.1, with its state in the test's directory.
 */
final class SushyBmc implements AutoCloseable {
  static final String USER = "admin";
  static final String SYSTEM_ID = "27946b59-9e44-4fa7-8e91-f3527a1ef094";

  private final int port;
  private final Process process;

  private SushyBmc(int port, Process process) {
    this.port = port;
    this.process = process;
  }

  static SushyBmc start(Path dir, TestTls tls, String password, SSLContext client) throws Exception {
    Path venv = ExternalTools.sushyVenv();
    Path htpasswd = dir.resolve("htpasswd");
    Files.writeString(htpasswd, USER + ":" + bcrypt(venv, dir, password) + "\n");
    int port = TestDirs.freeTcpPort();
    Path config = dir.resolve("sushy.conf");
    Files.write(config, List.of("SUSHY_EMULATOR_LISTEN_IP = '127.0.0.1'",
        "SUSHY_EMULATOR_LISTEN_PORT = " + port,
        "SUSHY_EMULATOR_SSL_CERT = '" + tls.cert + "'",
        "SUSHY_EMULATOR_SSL_KEY = '" + tls.key + "'",
        "SUSHY_EMULATOR_AUTH_FILE = '" + htpasswd + "'",
        "SUSHY_EMULATOR_STATE_DIR = '" + dir.resolve("sushy-state") + "'",
        "SUSHY_EMULATOR_FAKE_DRIVER = True",
        "SUSHY_EMULATOR_FAKE_SYSTEMS = [{'uuid': '" + SYSTEM_ID + "', 'name': 'dn1', 'power_state': 'Off',"
            + " 'nics': [{'mac': '00:5c:52:31:3a:9c', 'ip': '127.0.0.1'}]}]"), StandardCharsets.UTF_8);
    Process process = new ProcessBuilder(venv.resolve("bin/sushy-emulator").toString(), "--config",
        config.toString()).redirectErrorStream(true).redirectOutput(dir.resolve("sushy.log").toFile()).start();
    SushyBmc bmc = new SushyBmc(port, process);
    bmc.awaitListening(client, dir.resolve("sushy.log"));
    return bmc;
  }

  /** The bcrypt hash of {@code password} for the htpasswd file, from the venv's bcrypt (passed on stdin). */
  private static String bcrypt(Path venv, Path dir, String password) throws Exception {
    Process python = new ProcessBuilder(venv.resolve("bin/python").toString(), "-c",
        "import bcrypt, sys; print(bcrypt.hashpw(sys.stdin.read().encode(), bcrypt.gensalt(4)).decode())")
        .redirectError(dir.resolve("bcrypt.log").toFile()).start();
    try (OutputStream in = python.getOutputStream()) {
      in.write(password.getBytes(StandardCharsets.UTF_8));
    }
    String hash = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (!python.waitFor(30, TimeUnit.SECONDS) || python.exitValue() != 0) {
      throw new IllegalStateException("bcrypt failed: " + Files.readString(dir.resolve("bcrypt.log")));
    }
    return hash;
  }

  private void awaitListening(SSLContext client, Path log) throws Exception {
    HttpClient http = HttpClient.newBuilder().sslContext(client).connectTimeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline && process.isAlive()) {
      try {
        HttpResponse<Void> response = http.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port
            + "/redfish/v1/")).timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding());
        if (response.statusCode() > 0) {
          return;
        }
      } catch (IOException e) {
        Thread.sleep(100); // not listening yet
      }
    }
    close();
    throw new IllegalStateException("sushy-emulator did not answer on 127.0.0.1:" + port + "; its log: "
        + Files.readString(log));
  }

  int port() {
    return port;
  }

  @Override
  public void close() throws InterruptedException {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }
}
