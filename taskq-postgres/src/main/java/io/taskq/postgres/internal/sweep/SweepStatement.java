package io.taskq.postgres.internal.sweep;

import java.util.List;

/**
 * One SQL statement of a {@link StatementSweep}: where it is, what it binds in which order, and how
 * its result counts the rows it acted on. The {@code Binds:} comment above the statement in its
 * resource lists the same binds in the same order.
 *
 * @param resource the classpath resource, relative to {@code io/taskq/postgres/sql/}, e.g. {@code
 *     sweep/expired_results.sql}
 * @param name the statement's {@code -- name:} in that resource
 * @param counts the result columns that count the rows the statement acted on, read by name (S9's
 *     one row has one per table); empty for an {@code UPDATE}/{@code DELETE} whose update count is
 *     the count
 * @param binds the values bound to its {@code ?} placeholders, in order
 */
public record SweepStatement(String resource, String name, List<String> counts, List<Bind> binds) {
  /** The directory every sweep statement's resource is in. */
  static final String ROOT = "io/taskq/postgres/sql/";

  /** Copies the lists. */
  public SweepStatement {
    counts = List.copyOf(counts);
    binds = List.copyOf(binds);
  }

  /** An {@code UPDATE}/{@code DELETE} whose update count is its count, with {@code binds}. */
  public static SweepStatement update(String resource, String name, Bind... binds) {
    return new SweepStatement(resource, name, List.of(), List.of(binds));
  }

  /** A query returning one row whose column {@code count} is its count, with {@code binds}. */
  public static SweepStatement query(String resource, String name, String count, Bind... binds) {
    return new SweepStatement(resource, name, List.of(count), List.of(binds));
  }

  /** This statement with the result columns {@code counts} instead (several counts). */
  public SweepStatement counting(String... columns) {
    return new SweepStatement(resource, name, List.of(columns), binds);
  }

  /** A value a sweep statement binds. */
  public enum Bind {
    /** The batch's size: the most rows one arm may touch ({@code setInt}). */
    BATCH_SIZE,
    /** The sweep's age period in whole microseconds ({@code setLong}). */
    PERIOD_MICROS,
    /** The period times {@link StatementSweep#RECLAIM_SLICE_FACTOR}, microseconds (S8). */
    RECLAIM_SLICE_MICROS,
    /** The schema's wake channel, {@code taskq_wake_{tag}} (S2, S3). */
    WAKE_CHANNEL
  }
}
