package io.taskq;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The states of a job (L1) and the transitions between them.
 *
 * <p>Every transition is one SQL statement on the job row. {@code scheduled} jobs wait for their
 * run time; {@code pending} jobs are due and claimable; {@code running} jobs hold a lease; the last
 * four states are terminal.
 */
public enum JobStatus {
  /** Waiting for its run time. */
  SCHEDULED,
  /** Due, and claimable by a worker. */
  PENDING,
  /** Claimed by a worker, which holds its lease. */
  RUNNING,
  /** Ended: the handler returned. */
  SUCCEEDED,
  /** Ended: an attempt failed and no retry follows. */
  FAILED,
  /** Ended: its worker lost the lease and no attempt was left. */
  CRASHED,
  /** Ended: cancelled before it finished. */
  CANCELLED;

  private static final Set<JobStatus> TERMINAL = EnumSet.of(SUCCEEDED, FAILED, CRASHED, CANCELLED);

  /** {@return the value stored in the {@code status} column: the lower-case name} */
  public String dbValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** {@return true for {@code succeeded}, {@code failed}, {@code crashed} and {@code cancelled}} */
  public boolean isTerminal() {
    return TERMINAL.contains(this);
  }

  /**
   * {@return whether the lifecycle allows moving from this status to {@code next}}
   *
   * <ul>
   *   <li>scheduled -> pending (due, S3), cancelled (L8), failed (deadline, S2)
   *   <li>pending -> running (claim), scheduled (snoozed), cancelled, failed (deadline)
   *   <li>running -> succeeded, failed, pending (retry, lease reclaim or shutdown release),
   *       scheduled (retry later), crashed (reclaim without attempts left), cancelled
   *   <li>terminal states never move (prune archives them instead)
   * </ul>
   *
   * @param next the status to move to
   */
  public boolean canTransitionTo(JobStatus next) {
    return switch (this) {
      case SCHEDULED -> next == PENDING || next == CANCELLED || next == FAILED;
      case PENDING -> next == RUNNING || next == SCHEDULED || next == CANCELLED || next == FAILED;
      case RUNNING -> next != RUNNING;
      default -> false;
    };
  }

  /**
   * Parses a {@code status} column value.
   *
   * @param value the column value, such as {@code pending}
   * @return the status
   * @throws IllegalArgumentException naming the value when it is not a known status
   */
  public static JobStatus fromDb(String value) {
    for (JobStatus status : values()) {
      if (status.dbValue().equals(value)) {
        return status;
      }
    }
    throw new IllegalArgumentException(
        "unknown job status '"
            + value
            + "'; expected one of scheduled, pending, running, succeeded, failed, crashed,"
            + " cancelled");
  }
}
