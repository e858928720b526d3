package org.eafr.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;

/**
 * {@code BmcFarm STATE_DIR}: the simulated BMCs of the demo's hosts, in one supervising process that scripts/demo.sh
 * starts and stops. Per IPMI host one OpenIPMI {@code ipmi_sim} (its chassis-control script switches the host), per
 * Redfish host one sushy-tools emulator with the fake driver, whose external notifier PUTs each system change to this
 * process, which switches the host when its {@code power_state} changes; and one Wake-on-LAN listener on UDP that
 * wakes the host whose MAC a magic packet carries. When every BMC answers it writes {@code bmc/ready}; on SIGTERM it
 * stops every simulator it started (a JVM shutdown hook), so nothing outlives the demo. While the file
 * {@code bmc/wol-drop-next} exists the next magic packet is lost (the file is deleted): the thrash test's fault.
 */
public final class BmcFarm {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final DemoState state;
  private final DemoHosts hosts;
  private final Properties plan;
  private final HostSwitch hostSwitch;
  private final List<Process> simulators = new ArrayList<>();
  private final Map<String, String> redfishPower = new ConcurrentHashMap<>();

  private BmcFarm(DemoState state) throws IOException {
    this.state = state;
    this.hosts = state.hosts();
    this.plan = state.plan();
    this.hostSwitch = new HostSwitch(Paths.get(plan.getProperty("root")), state);
  }

  public static void main(String[] args) throws Exception {
    BmcFarm farm = new BmcFarm(new DemoState(Paths.get(args[0])));
    Runtime.getRuntime().addShutdownHook(new Thread(farm::stopSimulators, "bmc-farm-stop"));
    try {
      farm.start();
    } catch (Exception e) {
      log("BMC farm failed to start: " + e.getMessage());
      System.exit(1);
    }
    new CountDownLatch(1).await(); // until SIGTERM
  }

  private void start() throws Exception {
    Files.deleteIfExists(state.dir().resolve("bmc").resolve("ready"));
    startWakeOnLanListener();
    startNotifier();
    for (DemoHosts.Host host : hosts.withDriver(DemoHosts.Driver.IPMI)) {
      Path dir = state.bmc(host);
      simulators.add(new ProcessBuilder("ipmi_sim", "-c", dir.resolve("lan.conf").toString(), "-f",
          dir.resolve("sim.emu").toString(), "-s", dir.resolve("state").toString(), "-n").redirectErrorStream(true)
          .redirectOutput(dir.resolve("ipmi_sim.log").toFile()).start());
    }
    for (DemoHosts.Host host : hosts.withDriver(DemoHosts.Driver.REDFISH)) {
      Path dir = state.bmc(host);
      redfishPower.put(host.name(), "On");
      simulators.add(new ProcessBuilder(Paths.get(plan.getProperty("sushy.venv"), "bin", "sushy-emulator").toString(),
          "--config", dir.resolve("sushy.conf").toString()).redirectErrorStream(true)
          .redirectOutput(dir.resolve("sushy.log").toFile()).start());
    }
    awaitIpmi();
    awaitRedfish();
    Files.writeString(state.dir().resolve("bmc").resolve("ready"), Instant.now() + "\n");
    log("BMC farm ready: " + hosts.withDriver(DemoHosts.Driver.IPMI).size() + " ipmi_sim, "
        + hosts.withDriver(DemoHosts.Driver.REDFISH).size() + " sushy-tools emulators, Wake-on-LAN on udp "
        + plan.getProperty("wol.port") + ", notifier on tcp " + plan.getProperty("notifier.port"));
  }

  /** Each ipmi_sim answers ipmitool (with the password from the credential store, in the environment only). */
  private void awaitIpmi() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("hadoop.security.credential.provider.path", BmcFiles.credentialProviderUri(state));
    for (DemoHosts.Host host : hosts.withDriver(DemoHosts.Driver.IPMI)) {
      char[] password = conf.getPassword(BmcFiles.alias(host));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (true) {
        ProcessBuilder probe = new ProcessBuilder("ipmitool", "-I", "lanplus", "-C", "3", "-N", "1", "-R", "1", "-H",
            "127.0.0.1", "-p", String.valueOf(host.bmcPort()), "-U", BmcFiles.IPMI_USER, "-E", "chassis", "power",
            "status").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        probe.environment().put("IPMI_PASSWORD", new String(password));
        if (probe.start().waitFor() == 0) {
          break;
        }
        if (System.nanoTime() > deadline) {
          throw new IOException("ipmi_sim of " + host.name() + " did not answer on udp 127.0.0.1:" + host.bmcPort()
              + " within 60 s: see " + state.bmc(host).resolve("ipmi_sim.log"));
        }
        Thread.sleep(300);
      }
    }
  }

  private void awaitRedfish() throws Exception {
    for (DemoHosts.Host host : hosts.withDriver(DemoHosts.Driver.REDFISH)) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (true) {
        try (Socket socket = new Socket()) {
          socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), host.bmcPort()), 1000);
          break;
        } catch (IOException notYet) {
          if (System.nanoTime() > deadline) {
            throw new IOException("sushy-emulator of " + host.name() + " did not listen on tcp 127.0.0.1:"
                + host.bmcPort() + " within 90 s: see " + state.bmc(host).resolve("sushy.log"), notYet);
          }
          Thread.sleep(300);
        }
      }
    }
  }

  private void startWakeOnLanListener() throws IOException {
    DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(),
        Integer.parseInt(plan.getProperty("wol.port"))));
    Thread listener = new Thread(() -> {
      byte[] buffer = new byte[1500];
      while (true) {
        DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
        try {
          socket.receive(packet);
          String mac = MagicPacket.macOf(packet.getData(), packet.getLength());
          DemoHosts.Host host = mac == null ? null : hosts.byMac(mac);
          if (host == null) {
            log("Wake-on-LAN: ignored a " + packet.getLength() + "-byte datagram (" + (mac == null ? "no magic packet"
                : "MAC " + mac + " is no demo host") + ")");
            continue;
          }
          if (Files.deleteIfExists(state.dir().resolve("bmc").resolve("wol-drop-next"))) {
            log("Wake-on-LAN: magic packet for " + mac + " lost (bmc/wol-drop-next, a fault of scripts/thrash.sh)");
            continue;
          }
          log("Wake-on-LAN: magic packet for " + mac + " wakes " + host.name());
          hostSwitch.power(host, true, DemoHosts.Driver.WOL);
        } catch (IOException e) {
          log("Wake-on-LAN listener: " + e);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "wol-listener");
    listener.setDaemon(true);
    listener.start();
  }

  /** sushy-tools' external notifier: PUT /HOST with the system's JSON after every change of the system. */
  private void startNotifier() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(),
        Integer.parseInt(plan.getProperty("notifier.port"))), 16);
    server.createContext("/", this::notified);
    server.start();
  }

  private void notified(HttpExchange exchange) throws IOException {
    int status = 204;
    try (InputStream body = exchange.getRequestBody()) {
      String hostName = exchange.getRequestURI().getPath().substring(1);
      JsonNode system = JSON.readTree(body.readAllBytes());
      String power = system.path("power_state").asText("");
      DemoHosts.Host host = hosts.byName(hostName);
      String before = redfishPower.put(hostName, power);
      if (!power.equals(before) && (power.equals("On") || power.equals("Off"))) {
        log("Redfish: " + hostName + " system " + system.path("uuid").asText() + " is now " + power);
        hostSwitch.power(host, power.equals("On"), DemoHosts.Driver.REDFISH);
      }
    } catch (IllegalArgumentException | IOException e) {
      log("Redfish notifier: " + e.getMessage());
      status = 400;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      status = 500;
    }
    exchange.sendResponseHeaders(status, -1);
    exchange.close();
  }

  private void stopSimulators() {
    for (Process process : simulators) {
      process.destroy();
    }
    for (Process process : simulators) {
      try {
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    log("BMC farm stopped " + simulators.size() + " simulators");
  }

  private static void log(String message) {
    System.err.println(Instant.now() + " " + message);
    System.err.flush();
  }
}
