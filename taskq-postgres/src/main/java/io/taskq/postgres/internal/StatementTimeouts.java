package io.taskq.postgres.internal;

import io.taskq.TaskQConfig;
import java.time.Duration;

/**
 * D10: the statement timeout of the clients the TaskQ root hands out (jobs, feed): 10 seconds, kept
 * at or below {@code TASKQ_SOCKET_TIMEOUT} so that a statement is cancelled before its socket gives
 * up.
 */
public final class StatementTimeouts {
  /** The bound when the socket timeout is longer. */
  public static final Duration CAP = Duration.ofSeconds(10);

  private StatementTimeouts() {}

  /** {@link #CAP}, or {@code config}'s socket timeout when that is shorter. */
  public static Duration of(TaskQConfig config) {
    return config.socketTimeout().compareTo(CAP) < 0 ? config.socketTimeout() : CAP;
  }
}
