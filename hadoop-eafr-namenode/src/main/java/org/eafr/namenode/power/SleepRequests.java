package org.eafr.namenode.power;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The seam between the power manager and the DataNode's in-band power agent (built by the DataNode issue, not in
 * this release), for hosts whose only out-of-band path is Wake-on-LAN: such a host can be woken by a packet but can
 * only be put to sleep by software on the host itself.
 *
 * <p>The agent {@link #attach attaches} for its host when it starts and {@link #take takes} the sleep request the
 * manager recorded; the manager then sees the host go down through the NameNode's view of its DataNode. Until an
 * agent has attached for a host, a power-off request for it is refused at once, saying so: nothing pretends to switch
 * a host off.
 */
public final class SleepRequests {
  private final Set<String> attached = ConcurrentHashMap.newKeySet();
  private final Map<String, PowerCommand> pending = new ConcurrentHashMap<>();

  /** Called for {@code host} (its inventory name) by its DataNode's power agent once it runs. */
  public void attach(String host) {
    attached.add(host);
  }

  /** The agent of {@code host} stopped; a request still pending stays until another agent takes it. */
  public void detach(String host) {
    attached.remove(host);
  }

  public boolean attached(String host) {
    return attached.contains(host);
  }

  /** Records that {@code host} should go down by {@code command}; refused when no agent can carry it out. */
  void request(String host, PowerCommand command) throws PowerRefusedException {
    if (!attached(host)) {
      throw new PowerRefusedException("wol can only wake " + host + ": no in-band power agent has attached for it"
          + " (the DataNode power agent is a later part of hadoop-eafr); give it an ipmi, redfish or command entry"
          + " in the power inventory to switch it off");
    }
    pending.put(host, command);
  }

  /** The request recorded for {@code host}, removed: what the agent calls to learn it should go down. */
  public PowerCommand take(String host) {
    return pending.remove(host);
  }

  /** The request recorded for {@code host} and not yet taken, or null. */
  public PowerCommand pending(String host) {
    return pending.get(host);
  }
}
