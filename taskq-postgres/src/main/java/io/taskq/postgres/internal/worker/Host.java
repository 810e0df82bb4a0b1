package io.taskq.postgres.internal.worker;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** The host and process a worker runs in, for its {@code workers} row. */
final class Host {
  private Host() {}

  /**
   * The local host name; {@code HOSTNAME} from the environment, or "unknown", when unresolvable.
   */
  static String name() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException | SecurityException e) {
      String env = System.getenv("HOSTNAME");
      return env == null || env.isBlank() ? "unknown" : env;
    }
  }

  static long pid() {
    return ProcessHandle.current().pid();
  }
}
