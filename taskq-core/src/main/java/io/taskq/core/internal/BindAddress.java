package io.taskq.core.internal;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;

/**
 * The address one of TaskQ's HTTP servers (the metrics endpoint, the standalone dashboard) binds:
 * only an address of this host (the wildcard, a loopback or one of its interfaces'), so a mistyped
 * setting fails at start instead of binding somewhere unexpected.
 */
public final class BindAddress {
  private BindAddress() {}

  /**
   * {@code bind} resolved.
   *
   * @param setting the setting and its value as errors name them, e.g. {@code "httpBind 0.0.0.0"}
   * @param hint appended to the error when the address is not one of this host's
   * @throws IllegalArgumentException when {@code bind} does not resolve or is not an address of
   *     this host
   */
  public static InetAddress resolve(String bind, String setting, String hint) {
    InetAddress address;
    try {
      address = InetAddress.getByName(bind);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(setting + " does not resolve", e);
    }
    if (address.isAnyLocalAddress() || address.isLoopbackAddress() || isInterface(address)) {
      return address;
    }
    throw new IllegalArgumentException(
        setting
            + " resolves to "
            + address.getHostAddress()
            + ", which is not an address of this host"
            + hint);
  }

  private static boolean isInterface(InetAddress address) {
    try {
      return NetworkInterface.getByInetAddress(address) != null;
    } catch (SocketException e) {
      return false;
    }
  }
}
