package org.eafr.namenode.power.driver;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import org.eafr.namenode.power.AttemptFailedException;
import org.eafr.namenode.power.DriverKind;
import org.eafr.namenode.power.HostView;
import org.eafr.namenode.power.InventoryEntry;
import org.eafr.namenode.power.PowerCommand;
import org.eafr.namenode.power.PowerDriver;
import org.eafr.namenode.power.PowerException;
import org.eafr.namenode.power.PowerState;
import org.eafr.namenode.power.SleepRequests;

/**
 * Wake-on-LAN: a magic packet (6 bytes 0xFF, then the host's MAC 16 times: 102 bytes) in one UDP datagram to the
 * entry's broadcast or unicast address and port (9 by default). It can only wake: it has no answer, so the state comes
 * from the NameNode's view of the host's DataNodes (heartbeats), and off is a request recorded for the DataNode's
 * in-band power agent ({@link SleepRequests}), refused while no agent is attached.
 */
final class WolDriver implements PowerDriver {
  static final int MAC_REPEATS = 16;

  private final InventoryEntry entry;
  private final SleepRequests sleepRequests;
  private final HostView hosts;
  private final long requestLifetimeMillis;

  /** {@code requestLifetimeMillis}: how long a sleep request waits for the agent (the manager's state timeout). */
  WolDriver(InventoryEntry entry, SleepRequests sleepRequests, HostView hosts, long requestLifetimeMillis) {
    this.entry = entry;
    this.sleepRequests = sleepRequests;
    this.hosts = hosts;
    this.requestLifetimeMillis = requestLifetimeMillis;
  }

  @Override
  public String name() {
    return DriverKind.WOL.label();
  }

  @Override
  public String endpoint() {
    return entry.address() + ":" + entry.port();
  }

  @Override
  public void powerOn() throws PowerException {
    byte[] packet = magicPacket(entry.mac());
    try (DatagramSocket socket = new DatagramSocket()) {
      socket.setBroadcast(true);
      socket.send(new DatagramPacket(packet, packet.length, InetAddress.getByName(entry.address()), entry.port()));
    } catch (IOException e) {
      throw new PowerException("wol magic packet for " + entry.macText() + " to " + endpoint() + " not sent: " + e,
          e);
    }
  }

  @Override
  public void gracefulOff() throws PowerException {
    sleepRequests.request(entry.host(), PowerCommand.GRACEFUL_OFF, requestLifetimeMillis);
  }

  @Override
  public void forcedOff() throws PowerException {
    sleepRequests.request(entry.host(), PowerCommand.FORCED_OFF, requestLifetimeMillis);
  }

  /**
   * The host's state from its DataNodes' heartbeats; an {@link AttemptFailedException} once when the agent that took
   * its sleep request reported that it could not carry it out (the host stays up).
   */
  @Override
  public PowerState state() throws AttemptFailedException {
    String failure = sleepRequests.takeFailure(entry.host());
    if (failure != null) {
      throw new AttemptFailedException(failure);
    }
    return hosts.heartbeatState(entry);
  }

  /** 6 x 0xFF followed by {@code mac} 16 times. */
  static byte[] magicPacket(byte[] mac) {
    byte[] packet = new byte[6 + MAC_REPEATS * mac.length];
    for (int i = 0; i < 6; i++) {
      packet[i] = (byte) 0xFF;
    }
    for (int repeat = 0; repeat < MAC_REPEATS; repeat++) {
      System.arraycopy(mac, 0, packet, 6 + repeat * mac.length, mac.length);
    }
    return packet;
  }
}
