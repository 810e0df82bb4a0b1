package io.taskq.postgres.internal.execution;

import io.taskq.Actor;
import io.taskq.JobStatus;
import io.taskq.RanAttempt;
import io.taskq.postgres.internal.FaultSeam;
import io.taskq.postgres.internal.FencedWrites;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.completion.CompletionWriter;
import io.taskq.postgres.internal.completion.RecordedOutcome;
import io.taskq.postgres.internal.dispatch.ClaimedJob;
import io.taskq.postgres.internal.dispatch.JobClaimer;
import io.taskq.progress.ProgressReporter;
import io.taskq.spi.JobListener;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Runs jobs in the caller's thread (P5): inline mode, where an enqueue runs its jobs right after
 * the commit, and drain, which runs every due job now. For tests, not for production throughput.
 *
 * <p>Each attempt takes the path a worker's attempt takes, minus the threads: it is claimed by a
 * statement shaped like the worker's claim (a fresh lease token, D9), run by the same {@link
 * JobRun} (codec, handler, result check, listener), and recorded by the same completion statement,
 * so the attempt rows, events, error text and the retry decision of the job's stamped policy (L3)
 * are exactly a worker's. What differs, on purpose: the caller's thread runs the handler, no
 * heartbeat renews the lease (keep inline handlers shorter than the lease period), a retry's
 * backoff and a schedule are not waited out (inline mode and {@code drainIncludingScheduled} run
 * the next attempt at once), and concurrency caps and rate limits are not consulted.
 */
public final class InlineRunner {
  /** The {@code locked_by} of an attempt run in the caller's thread. */
  public static final String WORKER_ID = "inline";

  /** A drain that ran this many attempts and still finds due jobs is stopped as runaway. */
  static final int MAX_ATTEMPTS_PER_DRAIN = 100_000;

  private static final int DUE_PAGE = 100;

  private final DataSource dataSource;
  private final NamedStatements sql;
  private final Map<String, Actor<?>> actors;
  private final String[] actorNames;
  private final CompletionWriter writer;
  private final JobListener listener;
  private final ProgressSink progress;
  private final long leaseMillis;
  private final HandlerDecisions decisions;

  /**
   * @param sql the statements of {@code inline.sql}
   * @param completionSql the statements of {@code completion.sql}, on the same schema
   * @param actors the actors whose jobs this runner runs, by name
   */
  public InlineRunner(
      DataSource dataSource,
      NamedStatements sql,
      NamedStatements completionSql,
      Map<String, Actor<?>> actors,
      Durations durations,
      JobListener listener,
      ProgressReporter progress) {
    this.dataSource = dataSource;
    this.sql = sql;
    this.actors = Map.copyOf(actors);
    this.actorNames = actors.keySet().toArray(new String[0]);
    this.writer =
        new CompletionWriter(
            dataSource,
            completionSql,
            WORKER_ID,
            durations.resultTtl(),
            durations.maxRetryBackoff(),
            new FaultSeam("inline-complete"));
    this.listener = listener;
    this.progress = ProgressSink.to(progress);
    this.leaseMillis = durations.leasePeriod().toMillis();
    this.decisions =
        new HandlerDecisions(
            dataSource, sql.schema(), WORKER_ID, new InFlight(), new FencedWrites(), ms -> {});
  }

  /** The settings an inline attempt needs from the configuration. */
  public record Durations(Duration leasePeriod, Duration resultTtl, Duration maxRetryBackoff) {}

  /**
   * Runs job {@code id} attempt after attempt until it ends (or until it cannot be claimed: another
   * worker has it, or its actor is not one of this process's).
   */
  public List<RanAttempt> runToEnd(long id) throws SQLException {
    List<RanAttempt> ran = new ArrayList<>();
    RanAttempt last = attempt(id);
    while (last != null) {
      ran.add(last);
      last = last.status() == JobStatus.PENDING ? attempt(id) : null;
    }
    return ran;
  }

  /**
   * Runs every due job of this process's actors, one attempt each, page after page, until none is
   * due; with {@code includeScheduled} also scheduled jobs and jobs waiting out a retry backoff, so
   * each job runs until it ends. Jobs the handlers enqueue meanwhile run too.
   *
   * @throws IllegalStateException after {@value #MAX_ATTEMPTS_PER_DRAIN} attempts with jobs still
   *     due (handlers that enqueue without end)
   */
  public List<RanAttempt> drain(boolean includeScheduled) throws SQLException {
    List<RanAttempt> ran = new ArrayList<>();
    List<Long> due = due(includeScheduled);
    while (!due.isEmpty()) {
      for (long id : due) {
        RanAttempt attempt = attempt(id);
        if (attempt != null) {
          ran.add(attempt);
        }
      }
      if (ran.size() >= MAX_ATTEMPTS_PER_DRAIN) {
        throw new IllegalStateException(
            "drain stopped after "
                + ran.size()
                + " attempts with jobs still due: do handlers"
                + " enqueue jobs without end?");
      }
      due = due(includeScheduled);
    }
    return ran;
  }

  private List<Long> due(boolean includeScheduled) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql.get("due"))) {
      s.setArray(1, c.createArrayOf("text", actorNames));
      s.setBoolean(2, includeScheduled);
      s.setInt(3, DUE_PAGE);
      List<Long> ids = new ArrayList<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getLong("id"));
        }
      }
      return ids;
    }
  }

  /** Claims, runs and records one attempt of job {@code id}; null when it could not be claimed. */
  private @Nullable RanAttempt attempt(long id) throws SQLException {
    ClaimedJob claim = claim(id);
    if (claim == null) {
      return null;
    }
    RunningJob job = new RunningJob(claim, progress);
    List<Completion> finished = new ArrayList<>(1);
    run(job, actors.get(claim.actor()), finished).run();
    JobStatus status;
    if (finished.isEmpty()) {
      // A5: the handler's snooze or discard was recorded by its own statement.
      status = status(id);
    } else {
      List<RecordedOutcome> recorded = writer.write(finished);
      status = recorded.isEmpty() ? JobStatus.RUNNING : JobStatus.fromDb(recorded.get(0).status());
    }
    return new RanAttempt(claim.id(), claim.actor(), claim.queue(), claim.attempt(), status);
  }

  private <T> JobRun<T> run(RunningJob job, @Nullable Actor<T> actor, List<Completion> finished) {
    if (actor == null) {
      throw new IllegalStateException("claimed " + job + " without a registered actor");
    }
    return new JobRun<>(job, actor, finished::add, () -> {}, null, listener, null, decisions);
  }

  private JobStatus status(long id) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql.get("status"))) {
      s.setLong(1, id);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? JobStatus.fromDb(rs.getString("status")) : JobStatus.RUNNING;
      }
    }
  }

  private @Nullable ClaimedJob claim(long id) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql.get("claim_one"))) {
      c.setAutoCommit(true);
      s.setString(1, WORKER_ID);
      s.setLong(2, leaseMillis);
      s.setLong(3, id);
      s.setArray(4, c.createArrayOf("text", actorNames));
      try (ResultSet rs = s.executeQuery()) {
        // No reservation slots: inline attempts never take any.
        return rs.next() ? JobClaimer.read(rs, false) : null;
      }
    }
  }
}
