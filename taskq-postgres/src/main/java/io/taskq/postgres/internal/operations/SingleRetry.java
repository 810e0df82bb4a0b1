package io.taskq.postgres.internal.operations;

import io.taskq.JobStatus;
import io.taskq.operations.RetryResult;
import io.taskq.operations.RetryResult.Outcome;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code retry} of one job (A3), and, when it changed nothing, the reason from its row. */
final class SingleRetry {
  private static final Logger LOG = LoggerFactory.getLogger(SingleRetry.class);

  private final PostgresOperations ops;

  SingleRetry(PostgresOperations ops) {
    this.ops = ops;
  }

  RetryResult retry(long id, @Nullable Instant runAt, String note) {
    List<RetryResult> done =
        ops.read(
            "retry job " + id,
            c -> {
              PreparedStatement ps = c.prepareStatement(ops.statements().get("retry"));
              ps.setLong(1, id);
              ps.setObject(
                  2, runAt == null ? null : OffsetDateTime.ofInstant(runAt, ZoneOffset.UTC));
              ps.setString(3, note);
              ps.setString(4, ops.wakeChannel());
              return ps;
            },
            rs ->
                new RetryResult(
                    Outcome.RETRIED,
                    JobStatus.fromDb(rs.getString("status")),
                    Rows.required(rs, "run_at"),
                    rs.getInt("max_attempts")));
    if (!done.isEmpty()) {
      LOG.info("job {} in {} {}: {}", id, ops.schema().quoted(), note, done.get(0));
      return done.get(0);
    }
    return whyNot(id);
  }

  private RetryResult whyNot(long id) {
    List<RetryResult> state =
        ops.read(
            "read the status of job " + id,
            c -> {
              PreparedStatement ps = c.prepareStatement(ops.statements().get("retry_state"));
              ps.setLong(1, id);
              ps.setLong(2, id);
              return ps;
            },
            rs -> {
              JobStatus status = JobStatus.fromDb(rs.getString("status"));
              Outcome outcome =
                  rs.getBoolean("archived")
                      ? Outcome.ARCHIVED
                      : rs.getBoolean("in_batch") && RetryCriteria.RETRYABLE.contains(status)
                          ? Outcome.BATCH_MEMBER
                          : Outcome.NOT_RETRYABLE;
              return new RetryResult(outcome, status, null, 0);
            });
    return state.isEmpty() ? new RetryResult(Outcome.NOT_FOUND, null, null, 0) : state.get(0);
  }
}
