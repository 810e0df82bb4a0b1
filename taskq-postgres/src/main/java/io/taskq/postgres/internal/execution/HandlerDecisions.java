package io.taskq.postgres.internal.execution;

import io.taskq.DiscardException;
import io.taskq.SchemaName;
import io.taskq.core.internal.NotifyChannels;
import io.taskq.core.internal.TextBoundary;
import io.taskq.postgres.internal.FencedWrites;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.SqlErrors;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.function.LongConsumer;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records a handler's decision about its own job (A5), on the handler's thread, with one statement
 * of {@code decisions.sql} fenced on the attempt's lease token (D9): a snooze ({@code
 * SnoozeException}: back to pending after the delay, the attempt given back while the job has free
 * snoozes left) or a discard ({@code DiscardException}: failed for good, error class {@code
 * Discarded}, the reason as the event's note).
 *
 * <p>When the statement fails: a discard goes to the completer as the failure it is (error class
 * {@code Discarded}, not retryable), which retries the write with backoff; a snooze is left to the
 * lease, which lapses, and the lease sweep reclaims the job (at-least-once; the reclaim uses the
 * attempt), as for a rate-limited job whose hand-back failed.
 */
public final class HandlerDecisions {
  private static final Logger LOG = LoggerFactory.getLogger(HandlerDecisions.class);

  private final DataSource dataSource;
  private final String snoozeSql;
  private final String discardSql;
  private final String wakeChannel;
  private final String workerId;
  private final InFlight inFlight;
  private final FencedWrites fenced;
  private final LongConsumer dueIn;

  /**
   * @param dueIn told, in milliseconds, when a snoozed job falls due (the claim gate opens then)
   */
  public HandlerDecisions(
      DataSource dataSource,
      SchemaName schema,
      String workerId,
      InFlight inFlight,
      FencedWrites fenced,
      LongConsumer dueIn) {
    NamedStatements sql = NamedStatements.load("io/taskq/postgres/sql/decisions.sql", schema);
    this.dataSource = dataSource;
    this.snoozeSql = sql.get("snooze");
    this.discardSql = sql.get("discard");
    this.wakeChannel = NotifyChannels.of(schema).wake().name();
    this.workerId = workerId;
    this.inFlight = inFlight;
    this.fenced = fenced;
    this.dueIn = dueIn;
  }

  /** Snoozes {@code job} for {@code delay}; the job leaves {@link InFlight}. */
  void snooze(RunningJob job, Duration delay, int maxSnoozes) {
    try {
      String status = writeSnooze(job, delay, maxSnoozes);
      if (status == null) {
        fenced.report("snoozing the job", job.jobId(), job.leaseToken());
      } else if (status.equals("pending")) {
        dueIn.accept(delay.toMillis());
      }
    } catch (SQLException e) {
      LOG.warn(
          "{}: recording the handler's snooze failed (SQLSTATE {}); its lease will lapse and the"
              + " lease sweep will reclaim the job: {}",
          job,
          SqlErrors.state(e),
          e.toString());
    } finally {
      inFlight.remove(job);
    }
  }

  /**
   * Discards {@code job} for {@code discard}'s reason ({@code asFailure} is the attempt's failure,
   * with the exception's stack). Returns null when recorded (the job left {@link InFlight}), else
   * the outcome the caller hands the completer instead: the statement failed.
   */
  @Nullable Outcome discard(RunningJob job, DiscardException discard, Outcome asFailure) {
    String message =
        TextBoundary.bounded(
            TextBoundary.escapeNul("discarded by the handler: " + discard.reason()),
            TextBoundary.MAX_MESSAGE_CHARS);
    String note =
        TextBoundary.bounded(
            TextBoundary.escapeNul(discard.reason()), TextBoundary.MAX_MESSAGE_CHARS);
    try {
      if (!writeDiscard(job, message, asFailure.errorStack(), note)) {
        fenced.report("discarding the job", job.jobId(), job.leaseToken());
      }
      inFlight.remove(job);
      return null;
    } catch (SQLException e) {
      LOG.warn(
          "{}: recording the handler's discard failed (SQLSTATE {}); the completer records it as"
              + " a failure: {}",
          job,
          SqlErrors.state(e),
          e.toString());
      return new Outcome(false, null, Outcome.DISCARDED, message, asFailure.errorStack(), false);
    }
  }

  private @Nullable String writeSnooze(RunningJob job, Duration delay, int maxSnoozes)
      throws SQLException {
    long delayMicros = delay.toSeconds() * 1_000_000L + delay.toNanosPart() / 1_000L;
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(snoozeSql)) {
      c.setAutoCommit(true);
      s.setString(1, workerId);
      s.setLong(2, delayMicros);
      s.setInt(3, maxSnoozes);
      s.setLong(4, job.jobId());
      s.setLong(5, job.leaseToken());
      s.setString(6, wakeChannel);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? rs.getString("status") : null;
      }
    }
  }

  private boolean writeDiscard(RunningJob job, String message, @Nullable String stack, String note)
      throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(discardSql)) {
      c.setAutoCommit(true);
      s.setString(1, workerId);
      s.setString(2, message);
      s.setString(3, stack);
      s.setString(4, note);
      s.setLong(5, job.jobId());
      s.setLong(6, job.leaseToken());
      s.setString(7, wakeChannel);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next();
      }
    }
  }
}
