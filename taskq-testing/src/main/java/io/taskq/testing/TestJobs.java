package io.taskq.testing;

import io.taskq.JobStatus;
import io.taskq.SchemaName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Assertions and waits on the jobs of one TaskQ schema, for an application's own tests (P5, {@code
 * docs/testing.md}): was a job enqueued (how many, for which actor, queue and payload), was none,
 * and wait until a job has ended.
 *
 * <pre>{@code
 * TestJobs jobs = TestJobs.of(services).onlyNew();
 * orders.place(new Order(42, "ada"));
 * jobs.assertEnqueued(JobMatcher.actor("confirm-order").payloadContains("{\"orderId\": 42}"));
 * jobs.assertNoneEnqueued(JobMatcher.actor("refund"));
 * }</pre>
 *
 * <p>It reads the schema's tables and never changes a job: jobs run through TaskQ itself (a worker,
 * inline mode, or {@code TaskQ.drain()}). Failures are {@link AssertionError}s that list the jobs
 * that were there, so a test report shows what was enqueued instead. Thread-safe.
 */
public final class TestJobs {
  /** How many jobs a failure message lists at most. */
  static final int LISTED = 20;

  private static final Duration POLL = Duration.ofMillis(25);

  private final DataSource dataSource;
  private final KitStatements sql;
  private final long firstId;

  private TestJobs(DataSource dataSource, KitStatements sql, long firstId) {
    this.dataSource = dataSource;
    this.sql = sql;
    this.firstId = firstId;
  }

  /**
   * The jobs of the test class's schema, on its pool.
   *
   * @param services the test class's services
   * @return a view of every job in the class's schema
   */
  public static TestJobs of(TestServices services) {
    return of(services.dataSource(), services.schema());
  }

  /**
   * The jobs of {@code schema} (a TaskQ schema, already migrated), read through {@code dataSource}.
   *
   * @param dataSource the data source to read through
   * @param schema the schema name, unquoted
   * @return a view of every job in {@code schema}
   */
  public static TestJobs of(DataSource dataSource, String schema) {
    Objects.requireNonNull(dataSource, "dataSource");
    return new TestJobs(dataSource, KitStatements.load(SchemaName.of(schema)), 0);
  }

  /**
   * A view that sees only the jobs enqueued from now on: the tests of one class share a schema, so
   * a test that counts jobs starts from here.
   *
   * @return a view of the jobs enqueued after this call
   * @throws IllegalStateException when the schema cannot be read
   */
  public TestJobs onlyNew() {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql.get("next_id"));
        ResultSet rs = s.executeQuery()) {
      rs.next();
      return new TestJobs(dataSource, sql, rs.getLong("next_id"));
    } catch (SQLException e) {
      throw unreadable(e);
    }
  }

  /**
   * The jobs {@code matcher} selects, oldest first.
   *
   * @param matcher which jobs to return
   * @return the matching jobs, oldest first
   */
  public List<EnqueuedJob> find(JobMatcher matcher) {
    Objects.requireNonNull(matcher, "matcher");
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql.get("matching"))) {
      s.setLong(1, firstId);
      s.setString(2, matcher.actorName());
      s.setString(3, matcher.queueName());
      s.setArray(4, c.createArrayOf("text", matcher.statusValues()));
      s.setString(5, matcher.payloadEqualsJson());
      s.setString(6, matcher.payloadContainsJson());
      List<EnqueuedJob> jobs = new ArrayList<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          EnqueuedJob job = read(rs);
          if (matcher.passes(job.payloadJson())) {
            jobs.add(job);
          }
        }
      }
      return jobs;
    } catch (SQLException e) {
      throw unreadable(e);
    }
  }

  /**
   * Asserts that at least one job {@code matcher} selects was enqueued.
   *
   * @param matcher which jobs to look for
   * @return the jobs it selects
   * @throws AssertionError listing the jobs there were when none matches
   */
  public List<EnqueuedJob> assertEnqueued(JobMatcher matcher) {
    List<EnqueuedJob> found = find(matcher);
    if (found.isEmpty()) {
      throw new AssertionError("expected " + matcher + " to be enqueued, found none; " + listing());
    }
    return found;
  }

  /**
   * Asserts that exactly {@code count} jobs {@code matcher} selects were enqueued.
   *
   * @param matcher which jobs to count
   * @param count the expected number of matching jobs
   * @return the jobs it selects
   * @throws AssertionError listing the jobs there were when the count differs
   */
  public List<EnqueuedJob> assertEnqueued(JobMatcher matcher, int count) {
    if (count < 0) {
      throw new IllegalArgumentException("count must be at least 0, was " + count);
    }
    List<EnqueuedJob> found = find(matcher);
    if (found.size() != count) {
      throw new AssertionError(
          "expected "
              + count
              + " "
              + matcher
              + " to be enqueued, found "
              + found.size()
              + "; "
              + listing());
    }
    return found;
  }

  /**
   * Asserts that no job {@code matcher} selects was enqueued.
   *
   * @param matcher which jobs must be absent
   * @throws AssertionError naming the jobs that match
   */
  public void assertNoneEnqueued(JobMatcher matcher) {
    List<EnqueuedJob> found = find(matcher);
    if (!found.isEmpty()) {
      throw new AssertionError(
          "expected no "
              + matcher
              + " to be enqueued, found "
              + found.size()
              + ": "
              + describe(found));
    }
  }

  /**
   * Waits until job {@code id} has ended (succeeded, failed, crashed or cancelled) and returns it.
   * Something else must run it meanwhile: a started worker, or another thread's drain.
   *
   * @param id the job's id
   * @param timeout how long to wait at most
   * @return the job as it ended
   * @throws AssertionError when there is no such job, or it has not ended within {@code timeout}
   *     (naming its status and attempts)
   */
  public EnqueuedJob awaitTerminal(long id, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    EnqueuedJob job = one(id);
    while (!job.status().isTerminal()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError(
            "job "
                + job.describe()
                + " had not ended after "
                + timeout
                + " (attempt "
                + job.attempt()
                + "): is a worker running actor '"
                + job.actor()
                + "' on queue '"
                + job.queue()
                + "'?");
      }
      sleep();
      job = one(id);
    }
    return job;
  }

  private EnqueuedJob one(long id) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql.get("one"))) {
      s.setLong(1, id);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          throw new AssertionError("there is no job " + id + " in schema " + sql.schema());
        }
        return read(rs);
      }
    } catch (SQLException e) {
      throw unreadable(e);
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(POLL.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for a job", e);
    }
  }

  private String listing() {
    List<EnqueuedJob> all = find(JobMatcher.anyJob());
    return all.isEmpty()
        ? "no job at all was enqueued" + (firstId > 0 ? " since onlyNew()" : "")
        : "the jobs enqueued" + (firstId > 0 ? " since onlyNew()" : "") + " were: " + describe(all);
  }

  private static String describe(List<EnqueuedJob> jobs) {
    String listed =
        jobs.stream().limit(LISTED).map(EnqueuedJob::describe).collect(Collectors.joining(", "));
    return jobs.size() > LISTED ? listed + " and " + (jobs.size() - LISTED) + " more" : listed;
  }

  private static EnqueuedJob read(ResultSet rs) throws SQLException {
    return new EnqueuedJob(
        rs.getLong("id"),
        rs.getString("actor"),
        rs.getString("queue"),
        JobStatus.fromDb(rs.getString("status")),
        rs.getString("payload"),
        rs.getInt("attempt"),
        nullable(rs, "result"),
        nullable(rs, "error_class"),
        nullable(rs, "error_message"));
  }

  private static @Nullable String nullable(ResultSet rs, String column) throws SQLException {
    return rs.getString(column);
  }

  private IllegalStateException unreadable(SQLException e) {
    return new IllegalStateException(
        "cannot read the jobs of schema "
            + sql.schema()
            + " (is it a migrated TaskQ schema?): "
            + e.getMessage(),
        e);
  }
}
