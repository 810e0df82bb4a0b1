package io.taskq.operations;

import io.taskq.JobRequest;
import io.taskq.postgres.internal.CallerText;
import java.util.Locale;
import java.util.Objects;

/**
 * What a pause stops (A4): a queue, every queue ({@link #allQueues()}), or an actor.
 *
 * @param kind queue or actor
 * @param name the queue's or actor's name; {@code *} for every queue
 */
public record PauseTarget(Kind kind, String name) {
  /** The name that pauses every queue. */
  public static final String ALL = "*";

  /** What is paused. */
  public enum Kind {
    /** A queue: no job of it is claimed. */
    QUEUE,
    /** An actor: no job of it is claimed, whatever its queue. */
    ACTOR;

    /** {@return the stored value} */
    public String dbValue() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * Checks the name.
   *
   * @param kind queue or actor
   * @param name the queue's or actor's name; {@code *} for every queue
   */
  public PauseTarget {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, kind.dbValue());
    if (kind == Kind.ACTOR && ALL.equals(name)) {
      throw new IllegalArgumentException(
          "'*' pauses every queue; an actor is paused by its own name");
    }
    if (!ALL.equals(name)) {
      CallerText.requireName(kind.dbValue(), name, JobRequest.MAX_NAME_CHARS);
    }
  }

  /**
   * {@return the queue {@code name}}
   *
   * @param name the queue's name
   */
  public static PauseTarget queue(String name) {
    return new PauseTarget(Kind.QUEUE, name);
  }

  /** {@return every queue of the schema} */
  public static PauseTarget allQueues() {
    return new PauseTarget(Kind.QUEUE, ALL);
  }

  /**
   * {@return the actor {@code name}}
   *
   * @param name the actor's name
   */
  public static PauseTarget actor(String name) {
    return new PauseTarget(Kind.ACTOR, name);
  }

  @Override
  public String toString() {
    return kind.dbValue() + " '" + name + "'";
  }
}
