package org.eafr.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.alias.CredentialProvider;
import org.apache.hadoop.security.alias.CredentialProviderFactory;

/**
 * Everything the simulated BMCs and the NameNode's power manager need: a fresh password per BMC, kept only in the
 * BMC's own configuration (mode 600) and in a jceks credential store for the NameNode (Hadoop's CredentialProvider,
 * as {@code hadoop credential create} makes it); ipmi_sim's {@code lan.conf}, {@code sim.emu} and chassis-control
 * script per IPMI host (the formats of docs/power.md, as the power tests use them); a sushy-tools configuration per
 * Redfish host (fake driver, HTTPS with a self-signed certificate for 127.0.0.1, an htpasswd file, and its external
 * notifier pointed at the demo's host switch); and the power inventory naming each host's driver.
 */
final class BmcFiles {
  static final String IPMI_USER = "eafr-power";
  static final String REDFISH_USER = "eafr-power";
  static final String TRUSTSTORE_ALIAS = "eafr.demo.truststore";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final DemoState state;
  private final DemoHosts hosts;
  private final Properties plan;
  private final Path root;
  private final Path sushyVenv;

  BmcFiles(DemoState state, DemoHosts hosts, Properties plan, Path root, Path sushyVenv) {
    this.state = state;
    this.hosts = hosts;
    this.plan = plan;
    this.root = root;
    this.sushyVenv = sushyVenv;
  }

  static String credentialProviderUri(DemoState state) {
    return "jceks://file" + state.conf().resolve("bmc.jceks");
  }

  static Path truststore(DemoState state) {
    return state.dir().resolve("bmc").resolve("tls").resolve("truststore.p12");
  }

  static String alias(DemoHosts.Host host) {
    return "eafr.bmc.dn" + host.index();
  }

  /** The UUID of a Redfish host's one system in its emulator. */
  static String systemId(DemoHosts.Host host) {
    return UUID.nameUUIDFromBytes(host.name().getBytes(StandardCharsets.UTF_8)).toString();
  }

  void write() throws Exception {
    Files.createDirectories(state.powerEvents().getParent());
    Configuration conf = new Configuration(false);
    conf.set(CredentialProviderFactory.CREDENTIAL_PROVIDER_PATH, credentialProviderUri(state));
    CredentialProvider store = CredentialProviderFactory.getProviders(conf).get(0);
    if (!hosts.withDriver(DemoHosts.Driver.REDFISH).isEmpty()) {
      String trustPassword = newPassword();
      writeTls(trustPassword);
      store.createCredentialEntry(TRUSTSTORE_ALIAS, trustPassword.toCharArray());
    }
    for (DemoHosts.Host host : hosts.hosts()) {
      Path dir = state.bmc(host);
      Files.createDirectories(dir);
      if (host.driver() == DemoHosts.Driver.WOL) {
        continue;
      }
      String password = newPassword();
      store.createCredentialEntry(alias(host), password.toCharArray());
      if (host.driver() == DemoHosts.Driver.IPMI) {
        writeIpmi(host, dir, password);
      } else {
        writeSushy(host, dir, password);
      }
    }
    store.flush();
    ownerOnly(state.conf().resolve("bmc.jceks"));
    Files.write(state.conf().resolve("power-inventory.json"), inventory(), StandardCharsets.UTF_8);
  }

  private static String newPassword() {
    byte[] bytes = new byte[12];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes); // 16 characters, IPMI allows up to 20
  }

  private void writeIpmi(DemoHosts.Host host, Path dir, String password) throws IOException {
    Files.write(dir.resolve("power"), List.of("1"));
    Path script = dir.resolve("chassis-control.sh");
    Files.write(script, List.of("#!/bin/sh",
        "# ipmi_sim chassis_control of " + host.name() + ": 'get power' prints power:0|1 from the power file;",
        "# 'set power 0|1' records it and starts or stops the host's DataNode through the demo's host switch;",
        "# 'set shutdown 1' (chassis power soft: the OS handles the ACPI power button) stops it the same way.",
        "dir='" + dir + "'",
        "case \"$1 $2\" in",
        "  'get power') echo \"power:$(cat \"$dir/power\")\" ;;",
        "  'set power'|'set shutdown')",
        "               if [ \"$2\" = power ] && [ \"$3\" = 1 ]; then act=on; else act=off; fi",
        "               if [ $act = on ]; then echo 1; else echo 0; fi > \"$dir/power\"",
        "               exec '" + DemoState.hostScript(root) + "' '" + state.dir() + "' " + host.index()
            + " \"$act\" ipmi ;;",
        "  *) exit 1 ;;",
        "esac"), StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    Path lan = dir.resolve("lan.conf");
    Files.write(lan, List.of("name \"" + host.name() + "\"", "set_working_mc 0x20", "  startlan 1",
        "    addr 127.0.0.1 " + host.bmcPort(), "    priv_limit admin",
        "    guid " + UUID.nameUUIDFromBytes(host.name().getBytes(StandardCharsets.UTF_8)).toString()
            .replace("-", ""),
        "  endlan", "  chassis_control \"" + script + "\"",
        "  user 2 true \"" + IPMI_USER + "\" \"" + password + "\" admin 10 none md2 md5 straight"),
        StandardCharsets.UTF_8);
    ownerOnly(lan);
    Files.write(dir.resolve("sim.emu"), List.of("mc_setbmc 0x20",
        "mc_add 0x20 0 no-device-sdrs 0x23 9 8 0x9f 0x1291 0xf02 persist_sdr", "mc_enable 0x20"),
        StandardCharsets.UTF_8);
    Files.createDirectories(dir.resolve("state"));
  }

  private void writeSushy(DemoHosts.Host host, Path dir, String password) throws Exception {
    Path htpasswd = dir.resolve("htpasswd");
    Files.writeString(htpasswd, REDFISH_USER + ":" + bcrypt(password, dir) + "\n");
    ownerOnly(htpasswd);
    Path tls = truststore(state).getParent();
    Files.write(dir.resolve("sushy.conf"), List.of(
        "# sushy-tools emulator of " + host.name() + ": fake driver, its notifier starts and stops the DataNode",
        "SUSHY_EMULATOR_LISTEN_IP = '127.0.0.1'",
        "SUSHY_EMULATOR_LISTEN_PORT = " + host.bmcPort(),
        "SUSHY_EMULATOR_SSL_CERT = '" + tls.resolve("bmc-cert.pem") + "'",
        "SUSHY_EMULATOR_SSL_KEY = '" + tls.resolve("bmc-key.pem") + "'",
        "SUSHY_EMULATOR_AUTH_FILE = '" + htpasswd + "'",
        "SUSHY_EMULATOR_STATE_DIR = '" + dir.resolve("sushy-state") + "'",
        "SUSHY_EMULATOR_FAKE_DRIVER = True",
        "EXTERNAL_NOTIFICATION_URL = 'http://127.0.0.1:" + plan.getProperty("notifier.port") + "/" + host.name()
            + "'",
        "SUSHY_EMULATOR_FAKE_SYSTEMS = [{'uuid': '" + systemId(host) + "', 'name': '" + host.name() + "',"
            + " 'power_state': 'On', 'external_notifier': True,"
            + " 'nics': [{'mac': '" + host.mac() + "', 'ip': '127.0.0.1'}]}]"), StandardCharsets.UTF_8);
  }

  /** The bcrypt hash of {@code password} for htpasswd, from the sushy venv's bcrypt (the password on stdin). */
  private String bcrypt(String password, Path dir) throws Exception {
    Process python = new ProcessBuilder(sushyVenv.resolve("bin/python").toString(), "-c",
        "import bcrypt, sys; print(bcrypt.hashpw(sys.stdin.read().encode(), bcrypt.gensalt(4)).decode())")
        .redirectError(dir.resolve("bcrypt.log").toFile()).start();
    try (OutputStream in = python.getOutputStream()) {
      in.write(password.getBytes(StandardCharsets.UTF_8));
    }
    String hash = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (!python.waitFor(60, TimeUnit.SECONDS) || python.exitValue() != 0) {
      throw new IllegalStateException("bcrypt in " + sushyVenv + " failed: "
          + Files.readString(dir.resolve("bcrypt.log")));
    }
    return hash;
  }

  /** A self-signed certificate for 127.0.0.1 (openssl) and a PKCS12 truststore holding it for the NameNode. */
  private void writeTls(String trustPassword) throws Exception {
    Path dir = truststore(state).getParent();
    Files.createDirectories(dir);
    Path cert = dir.resolve("bmc-cert.pem");
    Path key = dir.resolve("bmc-key.pem");
    Process openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
        key.toString(), "-out", cert.toString(), "-days", "7", "-subj", "/CN=localhost", "-addext",
        "subjectAltName=IP:127.0.0.1,DNS:localhost").redirectErrorStream(true)
        .redirectOutput(dir.resolve("openssl.log").toFile()).start();
    if (!openssl.waitFor(120, TimeUnit.SECONDS) || openssl.exitValue() != 0) {
      throw new IllegalStateException("openssl failed: " + Files.readString(dir.resolve("openssl.log")));
    }
    ownerOnly(key);
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(cert)) {
      trust.setCertificateEntry("demo-bmc", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    try (OutputStream out = Files.newOutputStream(truststore(state))) {
      trust.store(out, trustPassword.toCharArray());
    }
  }

  private List<String> inventory() {
    List<String> entries = new ArrayList<>();
    for (DemoHosts.Host host : hosts.hosts()) {
      String head = "  {\"host\": \"" + host.name() + "\", \"driver\": \"" + host.driver().inventoryName() + "\", ";
      switch (host.driver()) {
        case IPMI -> entries.add(head + "\"address\": \"127.0.0.1\", \"port\": " + host.bmcPort() + ", \"user\": \""
            + IPMI_USER + "\", \"credential\": \"" + alias(host) + "\", \"cipher-suite\": 3}");
        case REDFISH -> entries.add(head + "\"address\": \"127.0.0.1\", \"port\": " + host.bmcPort()
            + ", \"user\": \"" + REDFISH_USER + "\", \"credential\": \"" + alias(host)
            + "\", \"system\": \"/redfish/v1/Systems/" + systemId(host) + "\"}");
        case WOL -> entries.add(head + "\"mac\": \"" + host.mac() + "\", \"address\": \"127.0.0.1\", \"port\": "
            + plan.getProperty("wol.port") + "}");
        default -> throw new IllegalStateException(host.driver().name());
      }
    }
    List<String> lines = new ArrayList<>();
    lines.add("{\"nodes\": [");
    for (int i = 0; i < entries.size(); i++) {
      lines.add(entries.get(i) + (i < entries.size() - 1 ? "," : ""));
    }
    lines.add("]}");
    return lines;
  }

  private static void ownerOnly(Path file) throws IOException {
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
  }
}
