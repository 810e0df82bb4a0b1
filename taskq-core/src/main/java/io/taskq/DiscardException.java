package io.taskq;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Thrown from a handler to end its job for good, on purpose (A5): the job ends {@code failed} after
 * this attempt with error class {@code Discarded} (the class an operator's discard records) and the
 * reason in its error message, whatever attempts its retry policy has left. For work that should no
 * longer be done: the order was withdrawn, the account closed, the payload refers to nothing.
 *
 * <pre>{@code
 * if (order.isWithdrawn()) {
 *   throw new DiscardException("order " + order.id() + " was withdrawn");
 * }
 * }</pre>
 *
 * <p>The attempt is recorded as failed ({@code job_attempts} row, error class {@code Discarded},
 * message {@code discarded by the handler: <reason>}, this exception's stack trace), and a {@code
 * discarded} job event carries the reason as its note, as an operator's discard does. A job whose
 * cancel was requested ends {@code cancelled} instead. It is a {@link NonRetryableException}, so
 * code that treats those as final treats a discard so too.
 */
public class DiscardException extends NonRetryableException {
  private static final long serialVersionUID = 1L;

  /** The reason as given. */
  private final String reason;

  /**
   * Discards the job for {@code reason}.
   *
   * @param reason why, for the operator reading the job: not blank
   * @throws IllegalArgumentException when {@code reason} is blank
   */
  public DiscardException(String reason) {
    this(reason, null);
  }

  /**
   * Discards the job for {@code reason}, caused by {@code cause}.
   *
   * @param reason why, for the operator reading the job: not blank
   * @param cause the failure that led to the discard, or {@code null}
   * @throws IllegalArgumentException when {@code reason} is blank
   */
  public DiscardException(String reason, @Nullable Throwable cause) {
    super(checked(reason), cause);
    this.reason = reason.strip();
  }

  private static String checked(String reason) {
    Objects.requireNonNull(reason, "reason");
    if (reason.isBlank()) {
      throw new IllegalArgumentException("a discard needs a reason; it was blank");
    }
    return reason.strip();
  }

  /** {@return why the handler discarded the job, stripped of surrounding white space} */
  public String reason() {
    return reason;
  }
}
