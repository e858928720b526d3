package org.eafr.namenode.admin;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.hadoop.ipc.RefreshResponse;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.power.NodePowerStatus;
import org.eafr.namenode.power.PowerManager;
import org.eafr.namenode.power.PowerResult;
import org.eafr.namenode.power.Requester;

/**
 * {@code hdfs eafr power on|off HOST} without an IPC handler waiting on a BMC: the command is handed to the power
 * manager and answered at once ({@link AdminHandler#ACCEPTED}) with its number; the tool then asks for its outcome
 * ({@code power outcome HOST ID}), answered {@link AdminHandler#PENDING} from what this class keeps until the command
 * is done. Hadoop's refresh registry serves one call at a time per process ({@code RefreshRegistry.dispatch} is
 * synchronized), so a handler that waited for a BMC would hold every other {@code hdfs eafr} call, and every
 * {@code dfsadmin -refresh}, behind it.
 *
 * <p>At most {@value #MAX_PER_BMC} operator commands are under way per BMC endpoint (a chassis BMC switching several
 * systems); one more is refused, naming the BMC and the commands under way. The manager's rule of one action per
 * host refuses a second command for a busy host.
 */
final class OperatorPowerCommands {
  /** Operator commands under way on one BMC endpoint at most; each waits its turn in the BMC's command slots. */
  static final int MAX_PER_BMC = 4;

  private final Map<String, Command> latest = new HashMap<>();
  private final int maxPerBmc;
  private long lastId;

  OperatorPowerCommands() {
    this(MAX_PER_BMC);
  }

  OperatorPowerCommands(int maxPerBmc) {
    this.maxPerBmc = maxPerBmc;
  }

  /** One operator command and its outcome, once done. */
  static final class Command {
    final long id;
    final String host;
    final AdminRequest.Verb verb;
    final String endpoint;
    final CompletableFuture<PowerResult> future;

    Command(long id, String host, AdminRequest.Verb verb, String endpoint, CompletableFuture<PowerResult> future) {
      this.id = id;
      this.host = host;
      this.verb = verb;
      this.endpoint = endpoint;
      this.future = future;
    }
  }

  /**
   * Hands {@code verb} (power on or off) for {@code host} to {@code power}; refused (IllegalStateException) when
   * {@value #MAX_PER_BMC} operator commands are under way on its BMC. The manager's own refusals (unknown or busy
   * host, not active, quarantine) come back in the command's future, done at once.
   */
  synchronized Command submit(PowerManager power, String host, AdminRequest.Verb verb) {
    NodePowerStatus status = power.status(host);
    String endpoint = status == null ? "" : status.endpoint();
    if (status != null) {
      long underWay = latest.values().stream().filter(c -> !c.future.isDone() && c.endpoint.equals(endpoint))
          .count();
      if (underWay >= maxPerBmc) {
        throw new IllegalStateException("'hdfs eafr " + verb.words() + " " + host + "' refused: " + underWay
            + " operator power commands are under way on BMC " + status.driver() + " " + endpoint + " (at most "
            + maxPerBmc + " per BMC); ask again once one has finished ('hdfs eafr power status HOST' shows each)");
      }
    }
    CompletableFuture<PowerResult> future = verb == AdminRequest.Verb.POWER_ON
        ? power.powerOn(host, Requester.OPERATOR) : power.powerOff(host, false, Requester.OPERATOR);
    Command command = new Command(++lastId, host, verb, endpoint, future);
    latest.put(host, command);
    return command;
  }

  /** The command {@code id} for {@code host}, or null when it is not the host's last one here. */
  synchronized Command find(String host, long id) {
    Command command = latest.get(host);
    return command != null && command.id == id ? command : null;
  }

  /**
   * {@code power on|off HOST}: accepted with the command's number on the first line and what the operator reads
   * after it; a command refused at once (unknown or busy host, not active) is answered as its outcome.
   */
  RefreshResponse accept(EafrRuntime runtime, AdminRequest request) {
    String host = request.operands().get(0);
    Command command = submit(GearCommands.powerManager(runtime), host, request.verb());
    if (command.future.isDone()) {
      return outcome(runtime, command, request.json());
    }
    String text = host + ": " + request.verb().words() + " accepted as command " + command.id + " (" + (
        command.endpoint.isEmpty() ? "" : "BMC " + command.endpoint + "; ") + "'hdfs eafr power status " + host
        + "' shows it under way)";
    if (request.json()) {
      Map<String, Object> answer = new LinkedHashMap<>();
      answer.put("host", host);
      answer.put("command", request.verb().words());
      answer.put("id", command.id);
      answer.put("done", false);
      answer.put("endpoint", command.endpoint);
      text = ClusterReport.json(answer);
    }
    return new RefreshResponse(AdminHandler.ACCEPTED, command.id + "\n" + text);
  }

  /** {@code power outcome HOST ID}: {@link AdminHandler#PENDING} while under way, then the outcome. */
  RefreshResponse outcome(EafrRuntime runtime, AdminRequest request) {
    String host = request.operands().get(0);
    long id;
    try {
      id = Long.parseLong(request.operands().get(1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("power command ID '" + request.operands().get(1) + "' is not a number");
    }
    Command command = find(host, id);
    if (command == null) {
      throw new IllegalArgumentException("power command " + id + " for " + host + " is not known to this NameNode"
          + " (a later command for the host replaced it, or the NameNode restarted); 'hdfs eafr power status "
          + host + "' shows the host's state");
    }
    if (!command.future.isDone()) {
      return new RefreshResponse(AdminHandler.PENDING, host + ": " + command.verb.words() + " under way");
    }
    return outcome(runtime, command, request.json());
  }

  private static RefreshResponse outcome(EafrRuntime runtime, Command command, boolean json) {
    try {
      PowerResult result = command.future.join();
      return new RefreshResponse(AdminHandler.OK, GearCommands.powerAnswer(runtime, command.verb, command.host,
          result, json));
    } catch (CompletionException e) {
      return new RefreshResponse(AdminHandler.FAILED, GearCommands.powerFailure(runtime, command.verb,
          command.host, e.getCause(), json));
    }
  }
}
