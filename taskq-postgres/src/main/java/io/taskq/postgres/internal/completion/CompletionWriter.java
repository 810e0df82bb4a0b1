package io.taskq.postgres.internal.completion;

import io.taskq.core.internal.NotifyChannels;
import io.taskq.postgres.internal.FaultSeam;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.execution.Completion;
import io.taskq.postgres.internal.execution.Outcome;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import javax.sql.DataSource;

/**
 * Records a batch of outcomes with one statement: the jobs' transitions, their {@code job_attempts}
 * rows and their {@code job_events} rows, in one transaction (L1, B6). Each row is fenced on its
 * lease token and {@code status = 'running'} (D9): an attempt whose lease was taken over is simply
 * missing from the returned list.
 *
 * <p>A batch of successes only takes the lean path ({@code complete_succeeded} in {@code
 * completion_success.sql}, X2): no locking step, no attempt row for a success (the job row is its
 * record, V011), and no look for reservation slots unless one of its jobs may hold some (L7); any
 * other batch takes {@code complete} in {@code completion.sql}.
 */
public final class CompletionWriter {
  private final DataSource dataSource;
  private final String sql;
  private final String successSql;
  private final String wakeChannel;
  private final String workerId;
  private final long resultTtlMillis;
  private final long maxRetryBackoffMillis;
  private final FaultSeam seam;

  public CompletionWriter(
      DataSource dataSource,
      NamedStatements statements,
      String workerId,
      Duration resultTtl,
      Duration maxRetryBackoff,
      FaultSeam seam) {
    this.dataSource = dataSource;
    this.sql = statements.get("complete");
    this.successSql =
        NamedStatements.load("io/taskq/postgres/sql/completion_success.sql", statements.schema())
            .get("complete_succeeded");
    this.wakeChannel = NotifyChannels.of(statements.schema()).wake().name();
    this.workerId = workerId;
    this.resultTtlMillis = resultTtl.toMillis();
    this.maxRetryBackoffMillis = maxRetryBackoff.toMillis();
    this.seam = seam;
  }

  /** Records {@code batch}; returns the transitions made (fenced-off attempts are absent). */
  public List<RecordedOutcome> write(List<Completion> batch) throws SQLException {
    seam.check();
    boolean allSucceeded = batch.stream().allMatch(done -> done.outcome().succeeded());
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(allSucceeded ? successSql : sql)) {
      c.setAutoCommit(true);
      if (allSucceeded) {
        bindSuccesses(c, s, batch);
      } else {
        bind(c, s, batch);
      }
      List<RecordedOutcome> recorded = new ArrayList<>(batch.size());
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          recorded.add(
              new RecordedOutcome(
                  rs.getLong("id"), rs.getString("status"), rs.getLong("retry_in_ms")));
        }
      }
      return recorded;
    }
  }

  private void bind(Connection c, PreparedStatement s, List<Completion> batch) throws SQLException {
    int n = batch.size();
    Long[] ids = new Long[n];
    Long[] tokens = new Long[n];
    Boolean[] succeeded = new Boolean[n];
    String[] results = new String[n];
    String[] classes = new String[n];
    String[] messages = new String[n];
    String[] stacks = new String[n];
    Boolean[] retryable = new Boolean[n];
    for (int i = 0; i < n; i++) {
      Completion done = batch.get(i);
      Outcome outcome = done.outcome();
      ids[i] = done.job().jobId();
      tokens[i] = done.job().leaseToken();
      succeeded[i] = outcome.succeeded();
      results[i] = outcome.result();
      classes[i] = outcome.errorClass();
      messages[i] = outcome.errorMessage();
      stacks[i] = outcome.errorStack();
      retryable[i] = outcome.retryable();
    }
    s.setLong(1, resultTtlMillis);
    s.setLong(2, maxRetryBackoffMillis);
    s.setString(3, workerId);
    s.setArray(4, array(c, "bigint", ids));
    s.setArray(5, array(c, "bigint", tokens));
    s.setArray(6, array(c, "boolean", succeeded));
    s.setArray(7, array(c, "text", results));
    s.setArray(8, array(c, "text", classes));
    s.setArray(9, array(c, "text", messages));
    s.setArray(10, array(c, "text", stacks));
    s.setArray(11, array(c, "boolean", retryable));
    s.setString(12, wakeChannel);
  }

  /**
   * The lean path's binds, the batch in job id order (L4: the order its rows are locked in). The
   * slot step runs only when a job of the batch may hold slots (L7): most batches hold none.
   */
  private void bindSuccesses(Connection c, PreparedStatement s, List<Completion> batch)
      throws SQLException {
    List<Completion> sorted = new ArrayList<>(batch);
    sorted.sort(Comparator.comparingLong(done -> done.job().jobId()));
    int n = sorted.size();
    Long[] ids = new Long[n];
    Long[] tokens = new Long[n];
    String[] results = new String[n];
    for (int i = 0; i < n; i++) {
      Completion done = sorted.get(i);
      ids[i] = done.job().jobId();
      tokens[i] = done.job().leaseToken();
      results[i] = done.outcome().result();
    }
    s.setLong(1, resultTtlMillis);
    s.setString(2, workerId);
    s.setArray(3, array(c, "bigint", ids));
    s.setArray(4, array(c, "bigint", tokens));
    s.setArray(5, array(c, "text", results));
    s.setBoolean(6, sorted.stream().anyMatch(done -> done.job().holdsSlots()));
    s.setString(7, wakeChannel);
  }

  private static Array array(Connection c, String type, Object[] values) throws SQLException {
    return c.createArrayOf(type, values);
  }
}
