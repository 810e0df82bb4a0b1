package io.taskq;

import java.time.Duration;
import java.util.Objects;

/**
 * Thrown from a handler to put its job back for later without failing it (A5): "not now, ask me
 * again in {@code delay}". The job goes back to {@code pending}, due {@code delay} from now, and
 * the attempt it used is given back (its attempt number stays what it was), so waiting for an
 * upstream, a business hour or another job does not eat into the retry policy.
 *
 * <pre>{@code
 * if (!inventory.isReady(order)) {
 *   throw new SnoozeException(Duration.ofMinutes(5));
 * }
 * }</pre>
 *
 * <p>Snoozes are bounded per job: the first {@link Actor#maxSnoozes()} snoozes (default {@value
 * Actor#DEFAULT_MAX_SNOOZES}) are free; every later snooze counts as an attempt (the job still
 * waits out the delay, but when it was the job's last attempt the job ends {@code failed} with
 * error class {@code SnoozeLimit}). Each snooze is recorded: a {@code job_attempts} row with
 * outcome {@code snoozed} and a {@code snoozed} job event whose note gives the delay, both shown by
 * the job detail of the operations API, {@code taskq jobs show} and the dashboard. A job whose
 * cancel was requested ends {@code cancelled} instead. See {@code docs/workers.md}.
 *
 * <p>Only the exception the handler throws counts (an interceptor may rethrow it); one wrapped as
 * the cause of another exception fails the attempt the ordinary way. It carries no stack trace.
 */
public final class SnoozeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The longest snooze. */
  public static final Duration MAX_DELAY = Duration.ofDays(365);

  /** The delay; a {@link Duration} is serializable. */
  private final Duration delay;

  /**
   * Snoozes the job for {@code delay}.
   *
   * @param delay how long until the job is due again: from zero (due again at once, behind the jobs
   *     already due) to {@link #MAX_DELAY}; kept to the microsecond
   * @throws IllegalArgumentException when {@code delay} is negative or longer than {@link
   *     #MAX_DELAY}
   */
  public SnoozeException(Duration delay) {
    super("snoozed for " + Objects.requireNonNull(delay, "delay"), null, false, false);
    if (delay.isNegative() || delay.compareTo(MAX_DELAY) > 0) {
      throw new IllegalArgumentException(
          "a snooze's delay must be from 0 to " + MAX_DELAY.toDays() + " days, was " + delay);
    }
    this.delay = delay;
  }

  /** {@return how long until the job is due again} */
  public Duration delay() {
    return delay;
  }
}
