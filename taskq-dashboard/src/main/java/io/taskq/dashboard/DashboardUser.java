package io.taskq.dashboard;

import java.util.Objects;

/**
 * Who is looking at the dashboard, and whether they may act.
 *
 * @param name the user's name as the audit log records it (never a secret)
 * @param mayAct true when the user may change state (retry, cancel, pause, ...); false for a
 *     read-only user
 */
public record DashboardUser(String name, boolean mayAct) {
  /**
   * Validates the user.
   *
   * @param name the user's name as the audit log records it, not blank
   * @param mayAct true when the user may change state
   */
  public DashboardUser {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("user name must not be blank");
    }
  }
}
