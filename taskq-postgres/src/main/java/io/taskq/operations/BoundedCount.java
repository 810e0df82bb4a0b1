package io.taskq.operations;

/**
 * A count that stopped at a bound ({@link Operations#count(JobFilter, int)}).
 *
 * @param count the jobs counted: exact when not {@code capped}, else the bound
 * @param capped whether more jobs match than were counted
 */
public record BoundedCount(long count, boolean capped) {
  /** {@return the count as an operator reads it: {@code 42}, or {@code more than 100000}} */
  public String text() {
    return capped ? "more than " + count : Long.toString(count);
  }
}
