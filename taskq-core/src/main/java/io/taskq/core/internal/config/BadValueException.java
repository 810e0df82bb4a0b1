package io.taskq.core.internal.config;

/**
 * A setting's text that cannot be read as its knob's type. The message says what is wrong with the
 * text, never the text itself: the caller decides how (and whether) the value may be shown.
 */
public final class BadValueException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String problem;

  public BadValueException(String problem) {
    super(problem, null, false, false);
    this.problem = problem;
  }

  /** What is wrong, phrased to follow the value: "is not a whole number". */
  public String problem() {
    return problem;
  }
}
