package io.taskq;

import java.io.Serializable;
import java.util.List;

/**
 * A configuration that cannot start (T1, D6). It lists every problem found, not just the first, so
 * one failed start-up shows the operator everything to fix: each bad setting with its variable, its
 * value (passwords masked) and the allowed values, each broken rule between settings, and each
 * unknown {@code TASKQ_*} variable.
 */
public final class TaskQConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** The problems, in knob order, cross-field rules next, unknown variables last. */
  @SuppressWarnings("serial") // an immutable List.copyOf list of records: serializable
  private final List<Problem> problems;

  /**
   * Creates the exception; its message lists every problem, one per line.
   *
   * @param problems every problem found, at least one
   * @throws IllegalArgumentException when {@code problems} is empty
   */
  public TaskQConfigException(List<Problem> problems) {
    super(message(problems));
    this.problems = List.copyOf(problems);
  }

  /** {@return every problem found, never empty} */
  public List<Problem> problems() {
    return problems;
  }

  private static String message(List<Problem> problems) {
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a configuration error needs at least one problem");
    }
    StringBuilder out = new StringBuilder("invalid TaskQ configuration (");
    out.append(problems.size()).append(problems.size() == 1 ? " problem):" : " problems):");
    for (Problem problem : problems) {
      out.append("\n  - ").append(problem.message());
    }
    return out.toString();
  }

  /**
   * One problem.
   *
   * @param variables the {@code TASKQ_*} variables involved: one, or two for a cross-field rule
   * @param message a full sentence naming the variables, their values and what is allowed; it never
   *     contains a password
   * @serial exclude
   */
  // JDK 17's javadoc wants comments on a serializable record's component fields, which have no
  // place to write one; the record is left out of the serialized form instead.
  @SuppressWarnings("InvalidBlockTag")
  public record Problem(List<String> variables, String message) implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * Copies {@code variables}.
     *
     * @param message a full sentence naming the variables, their values and what is allowed; it
     *     never contains a password
     * @param variables the {@code TASKQ_*} variables involved: one, or two for a cross-field rule
     */
    public Problem {
      variables = List.copyOf(variables);
    }

    @Override
    public String toString() {
      return message;
    }
  }
}
