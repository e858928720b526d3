package org.eafr.namenode.power.driver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.eafr.namenode.power.DriverKind;
import org.eafr.namenode.power.InventoryEntry;
import org.eafr.namenode.power.PowerDriver;
import org.eafr.namenode.power.PowerException;
import org.eafr.namenode.power.PowerReading;
import org.eafr.namenode.power.PowerState;

/**
 * DMTF Redfish over HTTPS with the JDK's HttpClient: {@code ComputerSystem.Reset} with ResetType On, GracefulShutdown
 * or ForceOff, and the system's {@code PowerState}. Basic authentication with the entry's user and the password from
 * the CredentialProvider; the BMC's certificate is checked against the configured truststore (or the JDK's), with
 * host name verification, and there is no switch to turn that off. The system is the entry's {@code system} path, or
 * the BMC's only member of /redfish/v1/Systems.
 *
 * <p>Every path the BMC returns (a reset {@code target}, a member's {@code @odata.id}) is resolved against the BMC's
 * base URL {@code https://ADDRESS:PORT/} and followed only if scheme, host and port stay the BMC's and the path is
 * under {@code /redfish/v1/}; anything else is refused, so the Authorization header never goes to another server.
 * Redirects are not followed (the client's policy), and the BMC's answers are scrubbed of every encoding of the
 * password before they reach a message.
 *
 * <p>The measured draw is the system's chassis' (its {@code Links.Chassis}, else the BMC's only chassis):
 * {@code EnvironmentMetrics} {@code PowerWatts.Reading} (Redfish 2020.4 on), else the older {@code Power} resource's
 * first {@code PowerControl[].PowerConsumedWatts}. ({@code PowerSubsystem} lists the power supplies and their capacity,
 * not the chassis' draw.) A chassis with neither, or a link the BMC answers 404, is "not offered".
 */
final class RedfishDriver implements PowerDriver {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SERVICE_ROOT = "/redfish/v1/";
  private static final String SYSTEMS = "/redfish/v1/Systems";
  private static final String CHASSIS = "/redfish/v1/Chassis";
  private static final String ENVIRONMENT_METRICS = "EnvironmentMetrics";
  private static final String POWER = "Power";

  private final InventoryEntry entry;
  private final Secret password;
  private final HttpClient client;
  private final Duration timeout;
  private final URI base;
  private volatile String systemPath;
  /** The chassis resource that gave a reading (EnvironmentMetrics or Power), once found. */
  private volatile String meterPath;

  RedfishDriver(InventoryEntry entry, Secret password, HttpClient client, Duration timeout) {
    this.entry = entry;
    this.password = password;
    this.client = client;
    this.timeout = timeout;
    this.systemPath = entry.system();
    this.base = URI.create("https://" + entry.address() + ":" + entry.port() + "/");
  }

  @Override
  public String name() {
    return DriverKind.REDFISH.label();
  }

  @Override
  public String endpoint() {
    return entry.address() + ":" + entry.port();
  }

  @Override
  public void powerOn() throws PowerException {
    reset("On");
  }

  @Override
  public void gracefulOff() throws PowerException {
    reset("GracefulShutdown");
  }

  @Override
  public void forcedOff() throws PowerException {
    reset("ForceOff");
  }

  @Override
  public PowerState state() throws PowerException {
    String path = system();
    JsonNode state = get(path).path("PowerState");
    switch (state.asText()) {
      case "On":
        return PowerState.ON;
      case "Off":
        return PowerState.OFF;
      case "PoweringOn":
      case "PoweringOff":
        return PowerState.UNKNOWN; // on its way: the manager polls again
      default:
        throw new PowerException("redfish BMC " + endpoint() + " " + path + " has no PowerState On or Off: "
            + state);
    }
  }

  @Override
  public PowerReading powerReading() throws PowerException {
    String meter = meterPath;
    if (meter != null) {
      return readMeter(meter);
    }
    String chassis = chassis();
    if (chassis == null) {
      return PowerReading.notOffered("redfish BMC " + endpoint() + " names no chassis for " + system());
    }
    JsonNode resource = getIfPresent(chassis);
    if (resource == null) {
      return PowerReading.notOffered("redfish BMC " + endpoint() + " answered 404 for chassis " + chassis);
    }
    for (String kind : List.of(ENVIRONMENT_METRICS, POWER)) {
      String path = link(resource.path(kind), "the " + kind + " of " + chassis);
      if (path != null) {
        PowerReading reading = readMeter(path);
        if (reading != null) {
          meterPath = path; // found once: later reads are one GET
          return reading;
        }
      }
    }
    return PowerReading.notOffered("redfish BMC " + endpoint() + " chassis " + chassis
        + " has neither EnvironmentMetrics nor Power");
  }

  /**
   * The reading of an EnvironmentMetrics or Power resource at {@code path}; null when the BMC answers 404 for it.
   */
  private PowerReading readMeter(String path) throws PowerException {
    JsonNode meter = getIfPresent(path);
    if (meter == null) {
      return null;
    }
    if (meter.has("PowerWatts")) {
      return wattsOf(meter.path("PowerWatts").path("Reading"), path + " PowerWatts.Reading");
    }
    for (JsonNode control : meter.path("PowerControl")) {
      if (!control.path("PowerConsumedWatts").isNull()) {
        return wattsOf(control.path("PowerConsumedWatts"), path + " PowerControl[].PowerConsumedWatts");
      }
    }
    return PowerReading.unavailable("redfish BMC " + endpoint() + " " + path
        + " has no PowerWatts.Reading or PowerControl[].PowerConsumedWatts");
  }

  private PowerReading wattsOf(JsonNode reading, String what) throws PowerException {
    if (reading.isNull() || reading.isMissingNode()) {
      return PowerReading.unavailable("redfish BMC " + endpoint() + " " + what + " is null");
    }
    if (!reading.isNumber() || !Double.isFinite(reading.asDouble()) || reading.asDouble() < 0) {
      throw new PowerException("redfish BMC " + endpoint() + " " + what + " is not a number of watts >= 0: "
          + password.scrub(excerpt(reading.toString())));
    }
    return PowerReading.watts(reading.asDouble());
  }

  /** The system's chassis: its first {@code Links.Chassis}, else the BMC's only chassis, else null. */
  private String chassis() throws PowerException {
    String path = system();
    String linked = link(get(path).path("Links").path("Chassis").path(0), "the first Links.Chassis of " + path);
    if (linked != null) {
      return linked;
    }
    JsonNode all = getIfPresent(CHASSIS);
    JsonNode members = all == null ? null : all.path("Members");
    if (members == null || members.size() != 1) {
      return null;
    }
    return link(members.get(0), "the @odata.id of the only member of " + CHASSIS);
  }

  /** {@code node}'s {@code @odata.id}, checked to stay on the BMC ({@link #resolve}), or null when it has none. */
  private String link(JsonNode node, String from) throws PowerException {
    JsonNode id = node.path("@odata.id");
    if (!id.isTextual()) {
      return null;
    }
    resolve(id.asText(), from);
    return id.asText();
  }

  private void reset(String resetType) throws PowerException {
    String path = system();
    JsonNode target = get(path).path("Actions").path("#ComputerSystem.Reset").path("target");
    String action = target.isTextual() ? target.asText() : path + "/Actions/ComputerSystem.Reset";
    URI uri = resolve(action, "the reset target of GET " + path);
    String body = "{\"ResetType\":\"" + resetType + "\"}";
    send(HttpRequest.newBuilder(uri).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)), "POST " + action + " ResetType " + resetType);
  }

  /** The system's path: from the entry, else the only member of the BMC's system collection (looked up once). */
  private String system() throws PowerException {
    String path = systemPath;
    if (path != null) {
      return path;
    }
    JsonNode members = get(SYSTEMS).path("Members");
    if (members.size() != 1) {
      throw new PowerException("redfish BMC " + endpoint() + " has " + members.size() + " systems in " + SYSTEMS
          + ": name one with \"system\" in the inventory entry of " + entry.host() + " (members: " + members + ")");
    }
    String member = members.get(0).path("@odata.id").asText();
    resolve(member, "the @odata.id of the only member of " + SYSTEMS);
    systemPath = member;
    return systemPath;
  }

  private JsonNode get(String path) throws PowerException {
    return parse(path, send(HttpRequest.newBuilder(resolve(path, "GET " + path)).GET(), "GET " + path, false));
  }

  /** As {@link #get}, but null when the BMC answers 404 (a resource it does not have). */
  private JsonNode getIfPresent(String path) throws PowerException {
    String body = send(HttpRequest.newBuilder(resolve(path, "GET " + path)).GET(), "GET " + path, true);
    return body == null ? null : parse(path, body);
  }

  private JsonNode parse(String path, String body) throws PowerException {
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      throw new PowerException("redfish BMC " + endpoint() + " GET " + path + " answered no JSON: " + excerpt(body));
    }
  }

  private String send(HttpRequest.Builder request, String what) throws PowerException {
    return send(request, what, false);
  }

  /** The body of the answer; null for a 404 when {@code absentOk}; throws for any other status outside 2xx. */
  private String send(HttpRequest.Builder request, String what, boolean absentOk) throws PowerException {
    request.timeout(timeout).header("Accept", "application/json").header("Authorization", basicAuth());
    HttpResponse<String> response;
    try {
      response = client.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new PowerException("redfish BMC " + endpoint() + " " + what + " failed: " + password.scrub(describe(e)),
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PowerException("redfish BMC " + endpoint() + " " + what + " was interrupted", e);
    }
    int status = response.statusCode();
    if (status == 404 && absentOk) {
      return null;
    }
    if (status == 401 || status == 403) {
      throw new PowerException("redfish BMC " + endpoint() + " " + what + " answered " + status
          + ": user " + entry.user() + " was not accepted (check the password under credential alias "
          + entry.credential() + ")");
    }
    if (status < 200 || status >= 300) {
      throw new PowerException("redfish BMC " + endpoint() + " " + what + " answered " + status + ": "
          + password.scrub(excerpt(response.body())));
    }
    return response.body();
  }

  private String basicAuth() {
    return password.basicAuthorization(entry.user());
  }

  /**
   * {@code path} (as the BMC or the inventory gave it) resolved against the BMC's base URL; refused unless it stays on
   * the BMC (scheme https, the entry's host and port, no user info) under /redfish/v1/. {@code from} names where the
   * path came from in the error.
   */
  URI resolve(String path, String from) throws PowerException {
    URI target;
    try {
      target = base.resolve(new URI(path)).normalize();
    } catch (URISyntaxException | IllegalArgumentException e) {
      throw outside(path, from, "not a URI reference");
    }
    String targetPath = target.getRawPath();
    if (!"https".equalsIgnoreCase(target.getScheme()) || target.getRawUserInfo() != null
        || target.getHost() == null || !target.getHost().equalsIgnoreCase(base.getHost())
        || effectivePort(target) != entry.port()) {
      throw outside(path, from, "on another server than " + base);
    }
    if (targetPath == null || !targetPath.startsWith(SERVICE_ROOT) || target.getRawFragment() != null) {
      throw outside(path, from, "not under " + SERVICE_ROOT);
    }
    return target;
  }

  private static int effectivePort(URI uri) {
    return uri.getPort() == -1 ? DriverKind.REDFISH.defaultPort() : uri.getPort();
  }

  private PowerException outside(String path, String from, String why) {
    return new PowerException("redfish BMC " + endpoint() + " sent a path that is refused: '"
        + password.scrub(excerpt(path)) + "' (" + from + "): it is " + why + "; only https://" + entry.address()
        + ":" + entry.port() + SERVICE_ROOT + "... is followed (a BMC answer naming another server is treated as"
        + " hostile)");
  }

  /** The exception's class and the first message along its causes (the JDK's ConnectException carries none). */
  private static String describe(IOException e) {
    String message = null;
    for (Throwable t = e; t != null && message == null; t = t.getCause()) {
      message = t.getMessage();
    }
    if (message == null && e instanceof ConnectException) {
      message = "connection refused or host unreachable (is the BMC's HTTPS port reachable from the NameNode?)";
    }
    return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }

  private static String excerpt(String body) {
    String line = body == null ? "" : body.trim().replaceAll("\\s+", " ");
    return line.length() > 300 ? line.substring(0, 300) + "..." : line;
  }
}
