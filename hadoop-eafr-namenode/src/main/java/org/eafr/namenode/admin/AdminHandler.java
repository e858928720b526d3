package org.eafr.namenode.admin;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Paths;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.ipc.RefreshHandler;
import org.apache.hadoop.ipc.RefreshResponse;
import org.apache.hadoop.ipc.Server;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.config.RolesFile;
import org.eafr.namenode.relayout.LowestGearRoom;

/**
 * The NameNode side of {@code hdfs eafr}: answers {@link AdminRequest}s that arrive over Hadoop IPC on the
 * NameNode's own RPC ports, through Hadoop's generic refresh protocol under the identifier {@value #IDENTIFIER}
 * (the channel {@code hdfs dfsadmin -refresh} uses, so it is authenticated like every NameNode call, with the
 * NameNode's Kerberos principal on a secure cluster). A command that changes state is allowed only to the HDFS
 * superuser ({@link SuperuserCheck}), and so are the reading commands: {@code status} and {@code nodes}, which show
 * DataNode hosts, BMC endpoints and paths, {@code power status}, which shows BMC endpoints and errors, and
 * {@code plan}, which names files; {@code plan} is made off the IPC handlers ({@link PlanJob}, {@link #PENDING}), and
 * {@code power on|off} are handed to the power manager and answered at once ({@link OperatorPowerCommands}): Hadoop's
 * refresh registry serves one call at a time per process, so no answer may wait on a BMC or a namespace walk. The gear
 * and power commands that change state ({@link #activeOnly}) are carried out by the active NameNode only: a NameNode
 * that is not active refuses them, saying so, with {@link #NOT_ACTIVE}, and the tool asks the next NameNode. Bad input
 * is answered with an error and changes nothing.
 *
 * <p>Return codes: {@link #OK}; {@link #FAILED} (refused or bad input, with the reason); {@link #NOT_ACTIVE} (done or
 * answered by a NameNode that is not the active one, which the tool shows only when asked for that NameNode); and
 * {@link #NOT_ADDRESSED}, for a call that reached another NameNode of the same JVM (a MiniDFSCluster with HA), since
 * Hadoop's refresh registry is one per process.
 */
public final class AdminHandler implements RefreshHandler {
  public static final String IDENTIFIER = "eafr";
  /** The older identifier {@code hdfs dfsadmin -refresh NN eafr-roles}: the same as {@code roles reload}. */
  public static final String ROLES_IDENTIFIER = "eafr-roles";
  public static final int OK = 0;
  public static final int FAILED = 1;
  public static final int NOT_ACTIVE = 3;
  public static final int NOT_ADDRESSED = 4;
  /** The answer is being made off the IPC handlers ({@code plan}): the tool asks again shortly. */
  public static final int PENDING = 5;
  /**
   * A power command was handed to the power manager: the first line of the message is its number, which the tool
   * asks about with {@code power outcome HOST ID} until it is done ({@link OperatorPowerCommands}).
   */
  public static final int ACCEPTED = 6;

  /** Commands only the active NameNode carries out: they drive the gears and the BMCs. */
  private static final Set<AdminRequest.Verb> ACTIVE_ONLY = EnumSet.of(AdminRequest.Verb.GEAR,
      AdminRequest.Verb.GEAR_CANCEL, AdminRequest.Verb.POWER_ON, AdminRequest.Verb.POWER_OFF,
      AdminRequest.Verb.POWER_CLEAR, AdminRequest.Verb.POWER_RELOAD, AdminRequest.Verb.RELAYOUT_START,
      AdminRequest.Verb.RELAYOUT_STOP, AdminRequest.Verb.RELAYOUT_GROW);
  /**
   * Reading commands that show DataNode hosts, BMC endpoints, errors or paths: for the superuser only, as dfsadmin
   * -report is. Every reading verb an operator types is one of them.
   */
  private static final Set<AdminRequest.Verb> SUPERUSER_READS = EnumSet.of(
      AdminRequest.Verb.STATUS, AdminRequest.Verb.NODES, AdminRequest.Verb.POWER_STATUS,
      AdminRequest.Verb.POWER_OUTCOME, AdminRequest.Verb.PLAN, AdminRequest.Verb.RELAYOUT_STATUS);

  private final NameNode nameNode;
  private final EafrRuntime runtime;

  private final PlanJob plans;
  private final OperatorPowerCommands powerCommands = new OperatorPowerCommands();

  public AdminHandler(NameNode nameNode, EafrRuntime runtime) {
    this.nameNode = nameNode;
    this.runtime = runtime;
    this.plans = new PlanJob(() -> PlanReport.of(nameNode, runtime));
  }

  /** Stops the thread that makes plans. */
  public void close() {
    plans.close();
  }

  @Override
  public RefreshResponse handleRefresh(String identifier, String[] args) {
    if (!addressedToThisNameNode()) {
      return new RefreshResponse(NOT_ADDRESSED, "not this NameNode");
    }
    AdminRequest request;
    try {
      request = ROLES_IDENTIFIER.equals(identifier) ? AdminRequest.parse("roles", "reload")
          : AdminRequest.parse(args);
    } catch (IllegalArgumentException e) {
      return new RefreshResponse(FAILED, e.getMessage() + "; the commands are:\n" + AdminRequest.usage());
    }
    try {
      if (request.verb().changesState() || SUPERUSER_READS.contains(request.verb())) {
        SuperuserCheck.check(nameNode.getConf(), "run 'hdfs eafr " + request.verb().words() + "'");
      }
      if (activeOnly(request.verb()) && !nameNode.isActiveState()) {
        return new RefreshResponse(NOT_ACTIVE, "'hdfs eafr " + request.verb().words() + "' refused: this NameNode ("
            + nameNode.getNameNodeAddress() + ") is " + nameNode.getState() + ", not active; only the active"
            + " NameNode drives gears and BMCs (run the command without -namenode and it finds the active one)");
      }
      if (request.verb() == AdminRequest.Verb.PLAN) {
        Optional<PlanReport> plan = plans.answer();
        if (plan.isEmpty()) {
          return new RefreshResponse(PENDING, "the plan is being made; ask again");
        }
        return new RefreshResponse(nameNode.isActiveState() ? OK : NOT_ACTIVE, request.json() ? plan.get().json()
            : plan.get().text());
      }
      if (request.verb() == AdminRequest.Verb.POWER_ON || request.verb() == AdminRequest.Verb.POWER_OFF) {
        return AdminLog.answered(request, powerCommands.accept(runtime, request));
      }
      if (request.verb() == AdminRequest.Verb.POWER_OUTCOME) {
        return AdminLog.answered(request, powerCommands.outcome(runtime, request));
      }
      String answer = answer(request);
      return AdminLog.answered(request, new RefreshResponse(nameNode.isActiveState() ? OK : NOT_ACTIVE, answer));
    } catch (IOException | IllegalArgumentException | IllegalStateException e) {
      return AdminLog.answered(request, new RefreshResponse(FAILED, e.getMessage()));
    }
  }

  private String answer(AdminRequest request) throws IOException {
    switch (request.verb()) {
      case STATUS:
        ClusterReport status = ClusterReport.of(nameNode, runtime);
        return request.json() ? status.statusJson() : status.statusText();
      case NODES:
        ClusterReport nodes = ClusterReport.of(nameNode, runtime);
        return request.json() ? nodes.nodesJson() : nodes.nodesText();
      case ROLES_RELOAD:
        return reloadRoles(request.json());
      case SETTINGS_RELOAD:
        return SettingsReload.reload(nameNode.getConf(), runtime, request.json());
      case SLEEP_POLL:
      case SLEEP_TAKE:
      case SLEEP_FAILED:
        return new SleepAgentAnswers(nameNode, runtime.sleepRequests()).answer(request);
      case GEAR:
        return GearCommands.gear(runtime, request.operands().get(0), request.json());
      case GEAR_CANCEL:
        return GearCommands.cancel(runtime, request.json());
      case POWER_STATUS:
        return GearCommands.power(runtime, request.verb(), request.operands().get(0), request.json());
      case POWER_RELOAD:
        return PowerReload.reload(runtime, request.json());
      case POWER_CLEAR:
        return GearCommands.clearQuarantine(runtime, request.operands().get(0), request.json());
      case RELAYOUT_START:
      case RELAYOUT_STATUS:
      case RELAYOUT_STOP:
        return RelayoutCommands.answer(runtime.relayout(), request.verb(), request.json());
      case RELAYOUT_GROW:
        return RelayoutCommands.grow(runtime.relayout(), LowestGearRoom.of(nameNode, runtime.gears(), runtime.settings().core()), request.json());
      default:
        throw new IllegalArgumentException("'" + request.verb().words() + "' is not served by this NameNode");
    }
  }

  /** Re-reads the roles file; only a file that passes every check replaces the roles in force. */
  String reloadRoles(boolean json) {
    if (runtime.settings().rolesFile().isEmpty()) {
      throw new IllegalArgumentException("no roles file configured: set eafr.roles.file");
    }
    try {
      RolesFile file = runtime.roles().reload(Paths.get(runtime.settings().rolesFile()),
          ServerTranslator.registeredNames(nameNode.getNamesystem().getBlockManager().getDatanodeManager()));
      if (json) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("rolesFile", file.source());
        answer.put("entries", file.entries().size());
        answer.put("unlistedRole", file.unlistedRole().name());
        return ClusterReport.json(answer);
      }
      return "EAFR roles reloaded from " + file.source() + ": " + file.entries().size() + " entries, unlisted"
          + " DataNodes " + file.unlistedRole();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage() + "; the roles in force are unchanged", e);
    }
  }

  /** Whether only the active NameNode carries {@code verb} out (a standby refuses it with {@link #NOT_ACTIVE}). */
  public static boolean activeOnly(AdminRequest.Verb verb) {
    return ACTIVE_ONLY.contains(verb);
  }

  /** True for a call that came in on one of this NameNode's RPC servers (or from inside the process). */
  private boolean addressedToThisNameNode() {
    Server server = Server.get();
    if (server == null) {
      return true;
    }
    int port = server.getListenerAddress().getPort();
    InetSocketAddress client = nameNode.getNameNodeAddress();
    InetSocketAddress service = nameNode.getServiceRpcAddress();
    return (client != null && client.getPort() == port) || (service != null && service.getPort() == port);
  }

  @Override
  public String toString() {
    return "eafr-admin@" + nameNode.getNameNodeAddress();
  }
}
