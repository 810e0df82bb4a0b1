package io.taskq.cli;

import org.jspecify.annotations.Nullable;

/**
 * Who an operator command names in its events and log lines (retry, cancel, discard, pause,
 * resume): {@code --by}, else the OS user.
 */
final class Operator {
  private Operator() {}

  /**
   * {@return {@code by}, or the OS user when {@code --by} was not given}
   *
   * @param by the {@code --by} value, or {@code null}
   */
  static @Nullable String of(@Nullable String by) {
    return by != null ? by : System.getProperty("user.name");
  }
}
