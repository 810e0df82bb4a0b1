package io.taskq.postgres.internal.bulk;

import io.taskq.ActorBusyException;
import io.taskq.DeregistrationResult;
import io.taskq.JobStatus;
import io.taskq.JobStoreException;
import io.taskq.SchemaName;
import io.taskq.bulk.BulkCancelResult;
import io.taskq.bulk.BulkOperationException;
import io.taskq.bulk.BulkProgress;
import io.taskq.bulk.BulkProgressListener;
import io.taskq.bulk.CancelFilter;
import io.taskq.bulk.DeadlockRetriesExhaustedException;
import io.taskq.core.internal.NotifyChannels;
import io.taskq.postgres.internal.CallerText;
import io.taskq.postgres.internal.FaultSeam;
import io.taskq.postgres.internal.JsonWriter;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.client.JobStatements;
import io.taskq.postgres.internal.client.Transactions;
import io.taskq.postgres.internal.sweep.BatchExecutor;
import io.taskq.postgres.internal.sweep.BatchFence;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bulk cancel and actor deregistration (S13, F1-F4): on demand, not leader-gated, drained to
 * completion in committed batches.
 *
 * <p>The drain. Each batch is one {@code cancel_where} statement in its own transaction, inside the
 * {@link BatchExecutor}'s envelope: the event writers' statement timeout applied with SET LOCAL
 * semantics and restored (B2, B3), at most the batch size of rows, their {@code job_events} rows in
 * the same transaction (B1, B6). Each batch commits before the next begins (B5), so a stopped drain
 * keeps everything it did and a re-run continues: the statement re-checks the status on every row,
 * so work already done no longer matches.
 *
 * <ul>
 *   <li>F2: the drain ends when a batch's window (the matching rows it looked at) was smaller than
 *       the batch size, never on the rows it changed: a worker claiming a pending job between the
 *       window and the row lock shrinks the changed count while matching rows remain.
 *   <li>F3: a batch that deadlocks (40P01) is retried, up to {@value #ATTEMPTS} attempts in all,
 *       after an exponential backoff with jitter; its counts are taken only once it committed, so a
 *       rolled-back attempt counts nothing. Exhaustion raises {@link
 *       DeadlockRetriesExhaustedException}.
 *   <li>F1: no breaker. Any other error (a statement timeout, 57014, included) reaches the caller
 *       at once as a {@link BulkOperationException} carrying the committed progress.
 * </ul>
 */
public final class BulkOperations {
  /** F3: attempts per batch, the first included. */
  public static final int ATTEMPTS = 3;

  /** F3: the backoff before the first retry; doubled for each later one, less up to half jitter. */
  public static final Duration FIRST_BACKOFF = Duration.ofMillis(50);

  private static final Logger LOG = LoggerFactory.getLogger(BulkOperations.class);
  private static final String CANCEL_WHERE = "cancel_where";
  private static final String DEREGISTER = "deregister_actor";

  private final DataSource dataSource;
  private final SchemaName schema;
  private final NamedStatements sql;
  private final BatchExecutor executor;
  private final int batchSize;
  private final Duration batchTimeout;
  private final int timeoutSeconds;
  private final String workerPrefix;
  private final String wakeChannel;
  private final BulkFaults faults;

  /**
   * @param batchSize {@code TASKQ_EVENT_WRITER_BATCH_SIZE}
   * @param batchTimeout {@code TASKQ_EVENT_WRITER_STATEMENT_TIMEOUT_MS}
   * @param timeoutSeconds the client's statement timeout, for the small statements
   * @param faults the drains' test seams ({@code TestHooks}), disarmed in production
   */
  public BulkOperations(
      DataSource dataSource,
      SchemaName schema,
      int batchSize,
      Duration batchTimeout,
      int timeoutSeconds,
      BulkFaults faults) {
    this.dataSource = dataSource;
    this.faults = faults;
    this.schema = schema;
    this.sql = NamedStatements.load("io/taskq/postgres/sql/bulk.sql", schema);
    this.executor = new BatchExecutor(schema);
    this.batchSize = batchSize;
    this.batchTimeout = batchTimeout;
    this.timeoutSeconds = timeoutSeconds;
    this.workerPrefix = JobStatements.workerChannelPrefix(schema);
    this.wakeChannel = NotifyChannels.of(schema).wake().name();
  }

  /**
   * {@code cancel_where}: cancels what {@code filter} matches, in committed batches; each {@code
   * cancelled} and {@code cancel_requested} event's note names {@code by} ({@code "cancelled by
   * <by> (bulk cancel)"}, {@code "cancel requested by <by> (bulk cancel)"}, or {@code "bulk
   * cancel"} when it is null or blank).
   */
  public BulkCancelResult cancelWhere(
      CancelFilter filter, @Nullable String by, BulkProgressListener listener) {
    long started = System.nanoTime();
    long maxId = maxJobId();
    CancelCriteria criteria =
        new CancelCriteria(
            maxId,
            CancelCriteria.dbValues(filter.statuses()),
            CancelCriteria.orNull(filter.actors()),
            CancelCriteria.orNull(filter.queues()),
            filter.labels().isEmpty() ? null : JsonWriter.object(filter.labels()),
            filter.olderThan() == null ? null : micros(filter.olderThan()),
            CallerText.operator(by));
    LOG.info(
        "cancel_where {} in {} by {}: starting (jobs up to id {})",
        filter,
        schema.quoted(),
        by,
        maxId);
    Tally tally = drain(CANCEL_WHERE, criteria, listener);
    Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
    LOG.info(
        "cancel_where {} in {}: {} cancelled, {} cancel requests, {} batches, {} deadlock"
            + " retries, {} ms",
        filter,
        schema.quoted(),
        tally.cancelled,
        tally.requested,
        tally.batches,
        tally.deadlockRetries,
        elapsed.toMillis());
    return new BulkCancelResult(
        tally.cancelled, tally.requested, tally.batches, tally.deadlockRetries, elapsed);
  }

  /**
   * {@code deregister_actor}: refuses up front while the actor has running jobs (any open job when
   * not forced); when forced, cancels its scheduled and pending jobs in committed batches; then one
   * small transaction disables its cron schedules, deletes its {@code actor_config} row, counts its
   * terminal history and, when asked, purges its slots.
   */
  public DeregistrationResult deregisterActor(
      String actor, boolean force, boolean purgeQueue, BulkProgressListener listener) {
    long started = System.nanoTime();
    refuseIfBusy(actor, force);
    Tally drained = new Tally();
    if (force) {
      CancelCriteria criteria =
          new CancelCriteria(
              maxJobId(),
              CancelCriteria.dbValues(EnumSet.of(JobStatus.SCHEDULED, JobStatus.PENDING)),
              List.of(actor),
              null,
              null,
              null,
              null);
      LOG.info("deregister_actor '{}' in {}: cancelling its open jobs", actor, schema.quoted());
      drained = drain(DEREGISTER, criteria, listener);
    }
    Tally tally = drained;
    try (Connection c = dataSource.getConnection()) {
      DeregistrationResult result =
          Transactions.owned(
              c,
              true,
              tx ->
                  finish(
                      tx, actor, purgeQueue, tally, Duration.ofNanos(System.nanoTime() - started)));
      LOG.info("deregister_actor in {}: {}", schema.quoted(), result);
      return result;
    } catch (SQLException e) {
      throw new JobStoreException(
          "cannot finish deregistering actor '" + actor + "' in " + schema.quoted(), e);
    }
  }

  private void refuseIfBusy(String actor, boolean force) {
    String statement = force ? "running_jobs_of_actor" : "open_jobs_of_actor";
    long busy;
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql.get(statement))) {
      ps.setQueryTimeout(timeoutSeconds);
      ps.setString(1, actor);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        busy = rs.getLong(1);
      }
    } catch (SQLException e) {
      throw new JobStoreException(
          "cannot check the jobs of actor '" + actor + "' in " + schema.quoted(), e);
    }
    if (busy > 0) {
      throw new ActorBusyException(
          actor, busy, force ? "running" : "open (scheduled, pending or running)");
    }
  }

  private DeregistrationResult finish(
      Connection tx, String actor, boolean purgeQueue, Tally tally, Duration elapsedSoFar)
      throws SQLException {
    int schedules = disableSchedules(tx, actor);
    try (PreparedStatement ps = tx.prepareStatement(sql.get("deregister_actor"))) {
      ps.setQueryTimeout(timeoutSeconds);
      ps.setString(1, actor);
      ps.setBoolean(2, purgeQueue);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return new DeregistrationResult(
            actor,
            tally.cancelled,
            tally.batches,
            tally.deadlockRetries,
            rs.getLong("config_deleted") > 0,
            schedules,
            rs.getLong("terminal_history"),
            rs.getLong("slots_purged"),
            elapsedSoFar);
      }
    }
  }

  /**
   * F4: the cron schedules table comes with a later migration; when this schema has it, the actor's
   * schedules are disabled in the closing transaction.
   */
  private int disableSchedules(Connection tx, String actor) throws SQLException {
    boolean present;
    try (PreparedStatement ps = tx.prepareStatement(sql.get("cron_table"))) {
      ps.setQueryTimeout(timeoutSeconds);
      ps.setString(1, schema.quoted() + ".cron_schedules");
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        present = rs.getBoolean(1);
      }
    }
    if (!present) {
      return 0;
    }
    try (PreparedStatement ps = tx.prepareStatement(sql.get("disable_schedules"))) {
      ps.setQueryTimeout(timeoutSeconds);
      ps.setString(1, actor);
      return ps.executeUpdate();
    }
  }

  private long maxJobId() {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql.get("max_job_id"))) {
      ps.setQueryTimeout(timeoutSeconds);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    } catch (SQLException e) {
      throw new JobStoreException("cannot start a bulk operation in " + schema.quoted(), e);
    }
  }

  /** F1-F3: batches until one's window is short. */
  private Tally drain(String operation, CancelCriteria criteria, BulkProgressListener listener) {
    CancelWhereBatch batch =
        new CancelWhereBatch(sql.get(CANCEL_WHERE), criteria, workerPrefix, wakeChannel, faults);
    Tally tally = new Tally();
    while (true) {
      runWithDeadlockRetry(operation, batch, tally);
      tally.batches++;
      tally.cancelled += batch.cancelled();
      tally.requested += batch.requested();
      tally.lastWindow = batch.window();
      LOG.debug(
          "{} in {}: batch {} committed: window {}, {} cancelled, {} cancel requests",
          operation,
          schema.quoted(),
          tally.batches,
          batch.window(),
          batch.cancelled(),
          batch.requested());
      listener.onBatch(tally.progress(operation));
      if (batch.window() < batchSize) {
        return tally;
      }
    }
  }

  private void runWithDeadlockRetry(String operation, CancelWhereBatch batch, Tally tally) {
    for (int attempt = 1; ; attempt++) {
      try {
        executor.runInOwnTransaction(dataSource, batch, batchSize, batchTimeout, BatchFence.NONE);
        return;
      } catch (SQLException e) {
        if (!FaultSeam.DEADLOCK.equals(e.getSQLState())) {
          throw new BulkOperationException(
              operation + " in " + schema.quoted() + " stopped", tally.progress(operation), e);
        }
        if (attempt >= ATTEMPTS) {
          throw new DeadlockRetriesExhaustedException(
              operation + " in " + schema.quoted() + " stopped",
              attempt,
              tally.progress(operation),
              e);
        }
        tally.deadlockRetries++;
        Duration pause = backoff(attempt);
        LOG.info(
            "{} in {}: batch attempt {} of {} deadlocked; retrying in {} ms",
            operation,
            schema.quoted(),
            attempt,
            ATTEMPTS,
            pause.toMillis());
        sleep(operation, pause, tally, e);
      }
    }
  }

  /** F3: {@code FIRST_BACKOFF * 2^(attempt-1)}, less a random part of up to half of it. */
  static Duration backoff(int failedAttempt) {
    long base = FIRST_BACKOFF.toMillis() << Math.min(failedAttempt - 1, 20);
    double jitter = ThreadLocalRandom.current().nextDouble(0.5);
    return Duration.ofMillis(Math.max(1, (long) (base * (1 - jitter))));
  }

  private static void sleep(String operation, Duration pause, Tally tally, SQLException cause) {
    try {
      Thread.sleep(pause.toMillis());
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      cause.addSuppressed(interrupted);
      throw new BulkOperationException(
          operation + " interrupted while waiting to retry", tally.progress(operation), cause);
    }
  }

  private static long micros(Duration d) {
    return d.toSeconds() * 1_000_000L + d.toNanosPart() / 1_000L;
  }

  /** Committed work so far. */
  private static final class Tally {
    int batches;
    long cancelled;
    long requested;
    int lastWindow;
    int deadlockRetries;

    BulkProgress progress(String operation) {
      return new BulkProgress(
          operation, batches, cancelled, requested, lastWindow, deadlockRetries);
    }
  }
}
