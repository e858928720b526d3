package org.eafr.demo;

import java.util.Locale;

/**
 * Reads a Wake-on-LAN magic packet: 6 bytes 0xFF, then the target's 6-byte MAC 16 times (102 bytes; a SecureOn
 * password of 4 or 6 bytes may follow). What the demo's Wake-on-LAN listener wakes a host by.
 *
 * <p>Example: {@code FF FF FF FF FF FF} then {@code 02 EA F7 00 00 08} sixteen times is the MAC
 * {@code 02:ea:f7:00:00:08}.
 */
public final class MagicPacket {
  static final int LENGTH = 102;

  private MagicPacket() {
  }

  /** The MAC the packet wakes, lower case with colons, or null if {@code data} is no magic packet. */
  public static String macOf(byte[] data, int length) {
    if (length != LENGTH && length != LENGTH + 4 && length != LENGTH + 6) {
      return null;
    }
    for (int i = 0; i < 6; i++) {
      if (data[i] != (byte) 0xFF) {
        return null;
      }
    }
    for (int repeat = 1; repeat < 16; repeat++) {
      for (int i = 0; i < 6; i++) {
        if (data[6 + repeat * 6 + i] != data[6 + i]) {
          return null;
        }
      }
    }
    StringBuilder mac = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      mac.append(i == 0 ? "" : ":").append(String.format(Locale.ROOT, "%02x", data[6 + i] & 0xFF));
    }
    return mac.toString();
  }
}
