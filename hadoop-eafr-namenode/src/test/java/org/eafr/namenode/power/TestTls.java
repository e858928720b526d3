package org.eafr.namenode.power;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A self-signed certificate for 127.0.0.1 made by openssl in the test's directory, as a BMC would present it: PEM
 * files for the sushy-tools emulator, a PKCS12 key store for a JDK HTTPS server, and a PKCS12 truststore holding the
 * certificate for the Redfish driver ({@code eafr.power.redfish.truststore}).
 */
final class TestTls {
  static final String STORE_PASSWORD = "Trust-pw-93ab";

  final Path cert;
  final Path key;
  final Path serverStore;
  final Path truststore;

  private TestTls(Path dir) {
    this.cert = dir.resolve("bmc-cert.pem");
    this.key = dir.resolve("bmc-key.pem");
    this.serverStore = dir.resolve("bmc.p12");
    this.truststore = dir.resolve("truststore.p12");
  }

  static TestTls create(Path dir) throws Exception {
    TestTls tls = new TestTls(dir);
    String openssl = ExternalTools.require("openssl", "openssl");
    run(dir, openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", tls.key.toString(), "-out",
        tls.cert.toString(), "-days", "2", "-subj", "/CN=localhost", "-addext",
        "subjectAltName=IP:127.0.0.1,DNS:localhost");
    run(dir, openssl, "pkcs12", "-export", "-in", tls.cert.toString(), "-inkey", tls.key.toString(), "-out",
        tls.serverStore.toString(), "-passout", "pass:" + STORE_PASSWORD);
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(tls.cert)) {
      trust.setCertificateEntry("bmc", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    try (OutputStream out = Files.newOutputStream(tls.truststore)) {
      trust.store(out, STORE_PASSWORD.toCharArray());
    }
    return tls;
  }

  /** The server side, for a JDK HTTPS server playing a BMC. */
  SSLContext serverContext() throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(serverStore)) {
      store.load(in, STORE_PASSWORD.toCharArray());
    }
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, STORE_PASSWORD.toCharArray());
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), null, null);
    return context;
  }

  /** A client context trusting only this certificate, for probing whether a test BMC listens. */
  SSLContext clientContext() throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(truststore)) {
      trust.load(in, STORE_PASSWORD.toCharArray());
    }
    javax.net.ssl.TrustManagerFactory factory =
        javax.net.ssl.TrustManagerFactory.getInstance(javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), null);
    return context;
  }

  private static void run(Path dir, String... command) throws Exception {
    Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(dir.resolve("openssl.log").toFile()).start();
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed: "
          + Files.readString(dir.resolve("openssl.log")));
    }
  }
}
