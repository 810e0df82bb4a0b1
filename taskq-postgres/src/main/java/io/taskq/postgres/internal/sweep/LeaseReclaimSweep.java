package io.taskq.postgres.internal.sweep;

import io.taskq.SchemaName;
import io.taskq.core.internal.NotifyChannels;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.spi.MaintenanceListener;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Sweep 1, {@code reclaim_expired_locks} (S1): gives back the work of attempts that can no longer
 * finish.
 *
 * <p>Two arms, each limited to the batch size (so at most twice the batch size per call): the
 * <em>lease arm</em> takes running jobs whose {@code lock_expires_at} passed, the <em>heartbeat
 * arm</em> running jobs whose owner has not heartbeated for {@code worker_stale_after} or whose
 * owner row is gone. A job with a cancel in flight ends {@code cancelled}; one with attempts left
 * goes back to {@code pending}, rescheduled through its own stamped retry policy capped by {@code
 * max_retry_backoff} (disposition {@code repended}); the rest end {@code crashed}. Each job gets
 * one {@code job_attempts} and one {@code job_events} row ({@code kind = 'reclaimed'}, {@code
 * error_class} {@code LeaseExpired} or {@code WorkerLost}), and the workers get one wake NOTIFY
 * when anything was re-pended, and reclaim watches one NOTIFY on the events channel {@code
 * taskq_events_{tag}} when the batch wrote events (E2, M2): all of it one SQL statement (B1, {@code
 * reclaim.sql}).
 *
 * <p>The batch's {@code taskq.jobs.reclaimed{actor, disposition}} counts are published through
 * {@link MaintenanceListener#jobsReclaimed} only after the batch commits ({@link CommitAware}). Not
 * thread-safe: one loop runs it.
 */
public final class LeaseReclaimSweep implements SweepBatch, CommitAware {
  /** The sweep's {@code sweep_name}. */
  public static final String NAME = "reclaim_expired_locks";

  private final String sql;
  private final String wakeChannel;
  private final String eventsChannel;
  private final long staleAfterMs;
  private final long maxBackoffMs;
  private final MaintenanceListener listener;
  private final List<Reclaimed> uncommitted = new ArrayList<>();

  /**
   * @param workerStaleAfter {@code TASKQ_WORKER_STALE_AFTER}: how long without a heartbeat makes an
   *     owner lost
   * @param maxRetryBackoff {@code max_retry_backoff}, the cap on every reschedule delay
   * @param listener receives the committed batches' reclaim counts
   */
  public LeaseReclaimSweep(
      SchemaName schema,
      Duration workerStaleAfter,
      Duration maxRetryBackoff,
      MaintenanceListener listener) {
    this.sql = NamedStatements.load("io/taskq/postgres/sql/reclaim.sql", schema).get(NAME);
    this.wakeChannel = NotifyChannels.of(schema).wake().name();
    this.eventsChannel = NotifyChannels.of(schema).events().name();
    this.staleAfterMs = workerStaleAfter.toMillis();
    this.maxBackoffMs = maxRetryBackoff.toMillis();
    this.listener = listener;
  }

  @Override
  public String sweepName() {
    return NAME;
  }

  @Override
  public int run(Connection tx, int batchSize) throws SQLException {
    uncommitted.clear();
    int rows = 0;
    try (PreparedStatement ps = tx.prepareStatement(sql)) {
      ps.setInt(1, batchSize);
      ps.setLong(2, staleAfterMs);
      ps.setLong(3, maxBackoffMs);
      ps.setString(4, wakeChannel);
      ps.setString(5, eventsChannel);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Reclaimed r = new Reclaimed(rs.getString(1), rs.getString(2), rs.getLong(3));
          uncommitted.add(r);
          rows += (int) r.count();
        }
      }
    }
    return rows;
  }

  @Override
  public void afterCommit() {
    for (Reclaimed r : uncommitted) {
      listener.jobsReclaimed(r.actor(), r.disposition(), r.count());
    }
    uncommitted.clear();
  }

  @Override
  public void afterRollback() {
    uncommitted.clear();
  }

  private record Reclaimed(String actor, String disposition, long count) {}
}
