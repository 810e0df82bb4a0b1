package io.taskq.progress;

/** The progress store could not answer within its timeout (and had no fallback). */
public final class ProgressUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * {@code message} names what was attempted; {@code cause} is the store's failure.
   *
   * @param message what was attempted
   * @param cause the store's failure
   */
  public ProgressUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
