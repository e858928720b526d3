package org.eafr.namenode.admin;

import java.io.EOFException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RefreshResponse;
import org.apache.hadoop.ipc.protocolPB.GenericRefreshProtocolClientSideTranslatorPB;
import org.apache.hadoop.ipc.protocolPB.GenericRefreshProtocolPB;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * {@code hdfs eafr [-namenode HOST:PORT] COMMAND [-json]}: the operator's command for EAFR, run by the
 * {@code hdfs} shell through {@code shellprofile.d/hadoop-eafr.sh} or by {@code scripts/eafr-admin.sh}.
 *
 * <p>The command goes over Hadoop IPC to the NameNode's RPC port ({@link AdminHandler}), as the current user, so a
 * secure cluster authenticates it with Kerberos against the NameNode's principal. Without {@code -namenode} it asks
 * every NameNode of the default file system: a reading command prints the active NameNode's answer; the gear and
 * power commands that change state go to the active NameNode only (a standby refuses them and the tool asks the
 * next; with {@code -namenode} naming a standby the refusal is printed, exit code 1); {@code roles reload} is sent
 * to each NameNode (each keeps its own roles) and prints every answer. Exit code 0 on success, 1 when a NameNode
 * refused or failed, 2 for a usage error (nothing sent). {@code power on|off} are answered at once by the NameNode
 * with the command's number; the tool then waits for the outcome (at most {@value #TIMEOUT_FLAG} seconds, default
 * {@value #DEFAULT_POWER_TIMEOUT_SECONDS}) and prints it, exit code 1 if it failed or is still under way then.
 */
public final class AdminTool extends Configured implements Tool {
  /** The tool's own code for a call that did not reach the NameNode. */
  private static final int UNREACHABLE = -1;
  private static final String USAGE = "Usage: hdfs eafr [-namenode HOST:PORT] ";
  static final int CONNECT_TIMEOUT_MILLIS = 5_000;
  static final int CONNECT_RETRIES = 1;
  /** How long the tool asks again for an answer the NameNode is still making ({@code plan}). */
  private static final long PENDING_LIMIT_NANOS = 600_000_000_000L;
  /** The option that bounds how long {@code power on|off} wait for the command's outcome. */
  static final String TIMEOUT_FLAG = "-timeout";
  /**
   * The default of {@value #TIMEOUT_FLAG}: with the default power settings a host that never reaches its state takes
   * about 3 attempts of 65 s each before the command fails.
   */
  static final int DEFAULT_POWER_TIMEOUT_SECONDS = 300;
  private static final int MAX_POWER_TIMEOUT_SECONDS = 86_400;
  private final PrintStream out;
  private final PrintStream err;
  private int powerTimeoutSeconds = DEFAULT_POWER_TIMEOUT_SECONDS;

  public AdminTool(Configuration conf) {
    this(conf, System.out, System.err);
  }

  /** The same, printing answers to {@code out} and refusals to {@code err} (for tools that run it in-process). */
  public AdminTool(Configuration conf, PrintStream out, PrintStream err) {
    super(conf);
    this.out = out;
    this.err = err;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new AdminTool(new HdfsConfiguration()), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    List<String> words = new ArrayList<>(Arrays.asList(args));
    String nameNode = null;
    int option = words.indexOf("-namenode");
    if (option >= 0) {
      if (option + 1 >= words.size()) {
        return usage("-namenode needs HOST:PORT (the NameNode's RPC address)", List.of());
      }
      nameNode = words.remove(option + 1);
      words.remove(option);
    }
    int timeoutSeconds = DEFAULT_POWER_TIMEOUT_SECONDS;
    int timeoutAt = words.indexOf(TIMEOUT_FLAG);
    if (timeoutAt >= 0) {
      String value = timeoutAt + 1 < words.size() ? words.remove(timeoutAt + 1) : "";
      words.remove(timeoutAt);
      try {
        timeoutSeconds = Integer.parseInt(value);
      } catch (NumberFormatException e) {
        timeoutSeconds = -1;
      }
      if (timeoutSeconds < 0 || timeoutSeconds > MAX_POWER_TIMEOUT_SECONDS) {
        return usage(TIMEOUT_FLAG + " '" + value + "' is not allowed: expected whole seconds in [0, "
            + MAX_POWER_TIMEOUT_SECONDS + "] (0: do not wait for the outcome)", List.of());
      }
    }
    if (words.contains("-help") || words.contains("--help") || words.contains("-h")) {
      out.print(help());
      return 0;
    }
    AdminRequest request;
    try {
      request = AdminRequest.parse(words.toArray(new String[0]));
    } catch (AdminRequest.UsageException e) {
      return usage(e.getMessage(), e.meant());
    }
    List<InetSocketAddress> targets;
    try {
      targets = nameNode == null ? nameNodes() : List.of(NetUtils.createSocketAddr(nameNode));
    } catch (IllegalArgumentException e) {
      return usage(nameNode == null ? "fs.defaultFS names no NameNode RPC address: " + e.getMessage()
          : "-namenode " + nameNode + " is not HOST:PORT (the NameNode's RPC address, e.g. nn1.example.com:8020)",
          List.of(request.verb()));
    }
    if (timeoutAt >= 0 && request.verb() != AdminRequest.Verb.POWER_ON
        && request.verb() != AdminRequest.Verb.POWER_OFF) {
      return usage(TIMEOUT_FLAG + " applies to 'power on' and 'power off' only, not to '" + request.verb().words()
          + "'", List.of(request.verb()));
    }
    this.powerTimeoutSeconds = timeoutSeconds;
    if (AdminHandler.activeOnly(request.verb())) {
      return runOnActive(request, targets, false);
    }
    return request.verb().changesState() ? runEverywhere(request, targets) : runOnActive(request, targets,
        nameNode != null);
  }

  private int runOnActive(AdminRequest request, List<InetSocketAddress> targets, boolean explicit)
      throws IOException {
    RefreshResponse standbyAnswer = null;
    List<String> unreachable = new ArrayList<>();
    for (InetSocketAddress target : targets) {
      RefreshResponse answer = send(target, request);
      if (answer.getReturnCode() == AdminHandler.ACCEPTED) {
        return followPowerCommand(target, request, answer.getMessage());
      }
      if (answer.getReturnCode() == AdminHandler.OK) {
        out.println(answer.getMessage());
        return 0;
      }
      if (answer.getReturnCode() == AdminHandler.NOT_ACTIVE && explicit) {
        out.println(answer.getMessage());
        return 0;
      }
      if (answer.getReturnCode() == AdminHandler.FAILED) {
        if (jsonAnswer(request, answer)) {
          out.println(answer.getMessage());
        } else {
          err.println(target + ": " + answer.getMessage());
        }
        return 1;
      }
      if (answer.getReturnCode() == UNREACHABLE) {
        unreachable.add(answer.getMessage());
        continue;
      }
      standbyAnswer = answer;
    }
    if (unreachable.size() == targets.size()) {
      unreachable.forEach(err::println);
      return 1;
    }
    if (standbyAnswer != null && AdminHandler.activeOnly(request.verb())) {
      err.println(standbyAnswer.getMessage());
    }
    err.println("no active NameNode among " + targets + (standbyAnswer == null ? ""
        : "; ask one with -namenode HOST:PORT to see its state") + (unreachable.isEmpty() ? ""
        : "; " + String.join("; ", unreachable)));
    return 1;
  }

  private int runEverywhere(AdminRequest request, List<InetSocketAddress> targets) throws IOException {
    int code = 0;
    for (InetSocketAddress target : targets) {
      RefreshResponse answer = send(target, request);
      boolean ok = answer.getReturnCode() == AdminHandler.OK || answer.getReturnCode() == AdminHandler.NOT_ACTIVE;
      String from = targets.size() > 1 && answer.getReturnCode() != UNREACHABLE ? target + ": " : "";
      (ok || jsonAnswer(request, answer) ? out : err).println(from + answer.getMessage());
      if (!ok) {
        code = 1;
      }
    }
    return code;
  }

  /**
   * Waits for the outcome of the power command the NameNode at {@code target} accepted ({@code accepted}: its number,
   * then the text to show), asking it {@code power outcome HOST ID} until the command is done or
   * {@value #TIMEOUT_FLAG} passes; prints the outcome as the NameNode gives it. A timeout leaves the command running.
   */
  private int followPowerCommand(InetSocketAddress target, AdminRequest request, String accepted) {
    String[] idAndText = accepted.split("\n", 2);
    if (powerTimeoutSeconds == 0) {
      out.println(idAndText[1]);
      return 0;
    }
    String host = request.operands().get(0);
    List<String> outcome = new ArrayList<>(List.of("power", "outcome", host, idAndText[0]));
    if (request.json()) {
      outcome.add(AdminRequest.JSON_FLAG);
    }
    RefreshResponse answer = send(target, AdminRequest.parse(outcome.toArray(new String[0])),
        powerTimeoutSeconds * 1_000_000_000L);
    if (answer.getReturnCode() == AdminHandler.OK) {
      out.println(answer.getMessage());
      return 0;
    }
    if (answer.getReturnCode() == AdminHandler.PENDING) {
      err.println(host + ": " + request.verb().words() + " (command " + idAndText[0] + ") still under way after "
          + powerTimeoutSeconds + " s (" + TIMEOUT_FLAG + "); it goes on: 'hdfs eafr power status " + host
          + "' follows it, and its outcome goes to the NameNode log");
      return 1;
    }
    (jsonAnswer(request, answer) ? out : err).println(answer.getMessage());
    return 1;
  }

  /** A refusal answered in JSON (a power command that failed, with the host's record): it goes to stdout. */
  private static boolean jsonAnswer(AdminRequest request, RefreshResponse answer) {
    return request.json() && answer.getMessage() != null && answer.getMessage().startsWith("{");
  }

  /**
   * Sends {@code request} to the NameNode at {@code target}; the answer of the EAFR handler of that NameNode, or
   * {@link #UNREACHABLE} saying why the call did not get through (no stack trace for a NameNode that is down).
   */
  private RefreshResponse send(InetSocketAddress target, AdminRequest request) {
    RefreshResponse answer = send(target, request, PENDING_LIMIT_NANOS);
    return answer.getReturnCode() == AdminHandler.PENDING ? new RefreshResponse(AdminHandler.FAILED, "the"
        + " NameNode at " + target + " was still making the answer after " + PENDING_LIMIT_NANOS / 1_000_000_000L
        + " s; ask again later") : answer;
  }

  /**
   * As {@link #send(InetSocketAddress, AdminRequest)}, asking again while the answer is {@link AdminHandler#PENDING}
   * for at most {@code limitNanos}; then the last pending answer.
   */
  private RefreshResponse send(InetSocketAddress target, AdminRequest request, long limitNanos) {
    try {
      RefreshResponse answer = callAgainOnClosedConnection(target, request);
      long wait = 50;
      long deadline = System.nanoTime() + limitNanos;
      while (answer.getReturnCode() == AdminHandler.PENDING && System.nanoTime() < deadline) {
        Thread.sleep(wait); // the NameNode makes the answer off its IPC handlers: ask again shortly
        wait = Math.min(wait * 2, 1000);
        answer = call(target, request);
      }
      return answer;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new RefreshResponse(UNREACHABLE, "interrupted waiting for the NameNode at " + target);
    } catch (IOException e) {
      return new RefreshResponse(UNREACHABLE, "cannot reach the NameNode at " + target + ": " + e.getMessage()
          + " (is it running, and is that its RPC address, dfs.namenode.rpc-address?)");
    }
  }

  /**
   * {@link #call}, once more on a new connection when the NameNode closed the one this JVM's IPC client had pooled (it
   * restarted or failed over since the last call from this JVM).
   */
  private RefreshResponse callAgainOnClosedConnection(InetSocketAddress target, AdminRequest request)
      throws IOException {
    try {
      return call(target, request);
    } catch (EOFException e) {
      return call(target, request);
    }
  }

  private RefreshResponse call(InetSocketAddress target, AdminRequest request) throws IOException {
    Configuration conf = clientConf(getConf());
    // the server principal of this call is the NameNode's, as for hdfs dfsadmin -refresh
    conf.set(CommonConfigurationKeys.HADOOP_SECURITY_SERVICE_USER_NAME_KEY,
        conf.get(DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY, ""));
    RPC.setProtocolEngine(conf, GenericRefreshProtocolPB.class, ProtobufRpcEngine2.class);
    GenericRefreshProtocolPB proxy = RPC.getProxy(GenericRefreshProtocolPB.class,
        RPC.getProtocolVersion(GenericRefreshProtocolPB.class), target, UserGroupInformation.getCurrentUser(), conf,
        NetUtils.getDefaultSocketFactory(conf), 0);
    try (GenericRefreshProtocolClientSideTranslatorPB client = new GenericRefreshProtocolClientSideTranslatorPB(
        proxy)) {
      Collection<RefreshResponse> answers = client.refresh(AdminHandler.IDENTIFIER, request.toArgs());
      for (RefreshResponse answer : answers) {
        if (answer.getReturnCode() != AdminHandler.NOT_ADDRESSED) {
          return answer;
        }
      }
      return new RefreshResponse(AdminHandler.FAILED, "the NameNode at " + target + " runs no EAFR admin"
          + " handler: is org.eafr.namenode.monitor.ReplicationMonitorPlugin in dfs.namenode.plugins?");
    } catch (IllegalArgumentException e) { // the registry knows no 'eafr' identifier
      return new RefreshResponse(AdminHandler.FAILED, e.getMessage());
    }
  }

  /**
   * The tool's IPC client settings: {@code conf} with a short connect timeout and retry policy
   * ({@value #CONNECT_TIMEOUT_MILLIS} ms, {@value #CONNECT_RETRIES} retry, on a refused connection and on a timeout)
   * where the operator's configuration does not set them, so an unreachable NameNode is reported in seconds. Hadoop's
   * client defaults (20 s, 10 retries of 1 s, 45 on timeouts) suit daemons riding out a NameNode restart, not a
   * person waiting for an answer.
   */
  static Configuration clientConf(Configuration conf) {
    Configuration client = new Configuration(conf);
    setUnlessConfigured(client, CommonConfigurationKeys.IPC_CLIENT_CONNECT_TIMEOUT_KEY, CONNECT_TIMEOUT_MILLIS);
    setUnlessConfigured(client, CommonConfigurationKeys.IPC_CLIENT_CONNECT_MAX_RETRIES_KEY, CONNECT_RETRIES);
    setUnlessConfigured(client, CommonConfigurationKeys.IPC_CLIENT_CONNECT_MAX_RETRIES_ON_SOCKET_TIMEOUTS_KEY,
        CONNECT_RETRIES);
    return client;
  }

  /** Sets {@code key} unless something other than Hadoop's *-default.xml files set it (a site file, or code). */
  private static void setUnlessConfigured(Configuration conf, String key, int value) {
    String[] sources = conf.getPropertySources(key);
    boolean onlyDefault = sources == null || Arrays.stream(sources).allMatch(source -> source.endsWith("-default.xml"));
    if (onlyDefault) {
      conf.setInt(key, value);
    }
  }

  /** The RPC addresses of the NameNodes of the default file system: each of an HA nameservice, or the one. */
  private List<InetSocketAddress> nameNodes() {
    String authority = URI.create(getConf().getTrimmed("fs.defaultFS", "file:///")).getAuthority();
    Map<String, Map<String, InetSocketAddress>> ha = DFSUtilClient.getHaNnRpcAddresses(getConf());
    if (authority != null && ha.containsKey(authority)) {
      return new ArrayList<>(ha.get(authority).values());
    }
    return List.of(DFSUtilClient.getNNAddress(getConf()));
  }

  /**
   * A usage error: the problem, then the usage line of each command meant (or the general one), not the whole help;
   * nothing was sent.
   */
  private int usage(String problem, List<AdminRequest.Verb> meant) {
    err.println("hdfs eafr: " + problem);
    if (meant.isEmpty()) {
      err.println(USAGE + "COMMAND [-json]");
    }
    for (AdminRequest.Verb verb : meant) {
      err.println(USAGE + verb.synopsis() + " [-json]");
    }
    err.println("'hdfs eafr -help' lists every command.");
    return 2;
  }

  static String help() {
    return USAGE + "[" + TIMEOUT_FLAG + " SECONDS] COMMAND [-json]\n" + AdminRequest.usage()
        + "Without -namenode every NameNode of fs.defaultFS is asked: reading commands print the active one's answer,\n"
        + "changing commands go to each NameNode. Exit code 0 done, 1 refused or failed (the reason on stderr),\n"
        + "2 usage error (nothing sent).\n";
  }
}
