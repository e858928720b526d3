package org.eafr.sim.gear;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.gear.shift.Power;
import org.eafr.placement.gear.shift.PowerPort;
import org.eafr.placement.gear.shift.Reply;
import org.eafr.sim.model.Cluster;
import org.eafr.sim.model.SimServer;

/**
 * Power commands over the simulated servers: ON starts a wake, done once the server is up ({@code sim.wake.seconds}
 * later); OFF puts an awake server to sleep at once (the simulator models no delay going down). A failed server's
 * command fails; a failed or sleeping server reads OFF, a waking one too until it is up.
 */
public final class SimPower implements PowerPort {
  private final Cluster cluster;
  private final Consumer<SimServer> wake;
  private final Consumer<SimServer> sleep;
  private final List<Command> sent = new ArrayList<>();

  /**
   * @param wake starts waking a sleeping server
   * @param sleep puts an awake server to sleep now
   */
  public SimPower(Cluster cluster, Consumer<SimServer> wake, Consumer<SimServer> sleep) {
    this.cluster = cluster;
    this.wake = wake;
    this.sleep = sleep;
  }

  @Override
  public long send(String host, Power wanted) {
    SimServer server = cluster.server(host);
    if (server.role() != ServerRole.FAILED) {
      if (wanted == Power.ON && server.role() == ServerRole.COLD) {
        wake.accept(server);
      } else if (wanted == Power.OFF && server.role().servesReads()) {
        sleep.accept(server);
      }
    }
    sent.add(new Command(server, wanted));
    return sent.size() - 1;
  }

  @Override
  public Reply poll(long ticket) {
    Command command = sent.get((int) ticket);
    if (command.server.role() == ServerRole.FAILED) {
      return Reply.failed("server " + command.server.id() + " has failed");
    }
    return state(command.server) == command.wanted ? Reply.DONE : Reply.PENDING;
  }

  @Override
  public Optional<Power> read(String host) {
    return Optional.of(state(cluster.server(host)));
  }

  private static Power state(SimServer server) {
    return server.role().servesReads() ? Power.ON : Power.OFF;
  }

  private record Command(SimServer server, Power wanted) {
  }
}
