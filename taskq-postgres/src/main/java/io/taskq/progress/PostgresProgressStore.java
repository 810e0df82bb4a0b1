package io.taskq.progress;

import io.taskq.SchemaName;
import io.taskq.postgres.internal.Handles;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Job progress in PostgreSQL (M5, D14): the latest report of each job, one {@code job_progress} row
 * per job, for deployments without Redis and as the Redis store's fallback.
 *
 * <p>Writes: a running handler's report (through {@link io.taskq.JobContext#reportProgress}) is a
 * fenced write under its lease token (D9), so an attempt that lost its lease cannot overwrite its
 * successor's progress. {@link #report} without a token stores the report while the job is {@code
 * running}. A report never fails a job: when the database refuses, it is dropped, logged and
 * counted ({@link #droppedReports()}); only invalid input throws. A job's progress is deleted with
 * the job (prune, S11).
 *
 * <p>The TaskQ root makes the store of its schema ({@link io.taskq.TaskQ#progress()}); a Redis
 * store gets it as its fallback through {@link
 * io.taskq.TaskQ.Builder#progress(java.util.function.UnaryOperator)}.
 *
 * <p>Subscriptions degrade to polling: one thread per store reads the reports newer than the last
 * it saw, every {@code TASKQ_POLL_INTERVAL} (1 s by default), and hands them to the listeners in
 * report order. A listener sees a job's latest report at that time, not every intermediate one;
 * like Redis pub/sub it is a hint (D13), and a client that must see the final state reads {@link
 * #latest(long)}.
 */
public final class PostgresProgressStore implements ProgressStore, AutoCloseable {
  static {
    Handles.registerProgress(PostgresProgressStore::new);
  }

  private static final Logger LOG = LoggerFactory.getLogger(PostgresProgressStore.class);
  private static final String SQL = "io/taskq/postgres/sql/progress.sql";

  /** Reports committed this late after their {@code reported_at} are still delivered. */
  private static final Duration LATE_COMMIT = Duration.ofSeconds(2);

  private static final int PAGE = 1000;

  private final DataSource dataSource;
  private final SchemaName schema;
  private final Duration pollInterval;
  private final NamedStatements sql;
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();
  private final Map<Long, Instant> delivered = new HashMap<>();
  private long dropped;
  private @Nullable ScheduledExecutorService poller;
  private @Nullable ScheduledFuture<?> polling;
  private @Nullable Instant cursor;
  private boolean pollFailing;
  private boolean closed;

  private PostgresProgressStore(DataSource dataSource, SchemaName schema, Duration pollInterval) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.schema = Objects.requireNonNull(schema, "schema");
    this.pollInterval = Objects.requireNonNull(pollInterval, "pollInterval");
    this.sql = NamedStatements.load(SQL, schema);
  }

  @Override
  public void report(long jobId, double fraction, String message, @Nullable String detailJson) {
    write(jobId, null, fraction, message, detailJson);
  }

  /**
   * The report of the attempt holding job {@code jobId} under {@code leaseToken} (D9): stored only
   * while that attempt still holds the lease.
   *
   * @param jobId the job's id
   * @param leaseToken the lease token of the reporting attempt
   * @param fraction the share done, 0..1
   * @param message what is being done
   * @param detailJson a JSON object with details, or {@code null}
   * @return whether the report was stored (false: the lease was lost, the job is no longer running,
   *     or the database refused; the report is dropped and the job goes on)
   * @throws IllegalArgumentException when the report is invalid
   */
  public boolean reportFenced(
      long jobId, long leaseToken, double fraction, String message, @Nullable String detailJson) {
    return write(jobId, leaseToken, fraction, message, detailJson);
  }

  private boolean write(
      long jobId,
      @Nullable Long leaseToken,
      double fraction,
      String message,
      @Nullable String detailJson) {
    requireJobId(jobId);
    Progress.validate(fraction, message, detailJson);
    String statement = sql.get(leaseToken == null ? "report" : "report_fenced");
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(statement)) {
      bindReport(s, jobId, leaseToken, fraction, message, detailJson);
      try (ResultSet rs = s.executeQuery()) {
        boolean stored = rs.next();
        if (!stored) {
          LOG.debug(
              "progress of job {} not stored: the job is not running under this lease", jobId);
        }
        return stored;
      }
    } catch (SQLException e) {
      synchronized (this) {
        dropped++;
      }
      LOG.warn("progress of job {} dropped: {}", jobId, e.toString());
      return false;
    }
  }

  /** The binds of {@code report}, and of {@code report_fenced} when {@code leaseToken} is set. */
  private static void bindReport(
      PreparedStatement s,
      long jobId,
      @Nullable Long leaseToken,
      double fraction,
      String message,
      @Nullable String detailJson)
      throws SQLException {
    s.setDouble(1, fraction);
    s.setString(2, message);
    if (detailJson == null) {
      s.setNull(3, Types.VARCHAR);
    } else {
      s.setString(3, detailJson);
    }
    s.setLong(4, jobId);
    if (leaseToken != null) {
      s.setLong(5, leaseToken);
    }
  }

  @Override
  public Optional<Progress> latest(long jobId) {
    requireJobId(jobId);
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql.get("latest"))) {
      s.setLong(1, jobId);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? Optional.of(progress(rs)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw new ProgressUnavailableException(
          "reading the latest progress of job " + jobId + " from PostgreSQL failed", e);
    }
  }

  @Override
  public ProgressSubscription subscribe(long jobId, Consumer<Progress> listener) {
    requireJobId(jobId);
    return add(new Listener(jobId, Objects.requireNonNull(listener, "listener")));
  }

  @Override
  public ProgressSubscription subscribeAll(Consumer<Progress> listener) {
    return add(new Listener(null, Objects.requireNonNull(listener, "listener")));
  }

  private synchronized ProgressSubscription add(Listener listener) {
    if (closed) {
      throw new IllegalStateException("the progress store is closed");
    }
    if (polling == null) {
      cursor = databaseNow();
      long every = pollInterval.toMillis();
      polling = poller().scheduleWithFixedDelay(this::poll, every, every, TimeUnit.MILLISECONDS);
    }
    listeners.add(listener);
    return () -> remove(listener);
  }

  /** The polling thread, started on the first subscription and kept until close. */
  private synchronized ScheduledExecutorService poller() {
    ScheduledExecutorService thread = poller;
    if (thread == null) {
      thread =
          Executors.newSingleThreadScheduledExecutor(
              task -> {
                Thread t = new Thread(task, "taskq-progress-poll-" + schema.value());
                t.setDaemon(true);
                return t;
              });
      poller = thread;
    }
    return thread;
  }

  private synchronized void remove(Listener listener) {
    listeners.remove(listener);
    ScheduledFuture<?> running = polling;
    if (listeners.isEmpty() && running != null) {
      running.cancel(false);
      polling = null;
      delivered.clear();
    }
  }

  private Instant databaseNow() {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql.get("now"));
        ResultSet rs = s.executeQuery()) {
      rs.next();
      return rs.getObject(1, OffsetDateTime.class).toInstant();
    } catch (SQLException e) {
      throw new ProgressUnavailableException(
          "subscribing to progress failed: PostgreSQL did not answer", e);
    }
  }

  /** One poll: the reports since the cursor (with a margin for late commits), each once. */
  private void poll() {
    try {
      Instant from;
      synchronized (this) {
        if (polling == null || cursor == null) {
          return;
        }
        from = cursor.minus(LATE_COMMIT);
      }
      for (Progress p : since(from)) {
        if (fresh(p)) {
          for (Listener l : listeners) {
            l.offer(p);
          }
        }
      }
      synchronized (this) {
        Instant floor = cursor == null ? from : cursor.minus(LATE_COMMIT);
        delivered.values().removeIf(at -> at.isBefore(floor));
        pollFailing = false;
      }
    } catch (SQLException | RuntimeException e) {
      pollFailed(e);
    }
  }

  /** Logs a failed poll at WARN once, until a poll succeeds again. */
  private void pollFailed(Exception e) {
    boolean first;
    synchronized (this) {
      first = !pollFailing;
      pollFailing = true;
    }
    if (first) {
      LOG.warn("polling progress of schema {} failed; will retry: {}", schema, e.toString());
    }
  }

  private synchronized boolean fresh(Progress p) {
    Instant seen = delivered.get(p.jobId());
    if (seen != null && !p.reportedAt().isAfter(seen)) {
      return false;
    }
    delivered.put(p.jobId(), p.reportedAt());
    if (cursor == null || p.reportedAt().isAfter(cursor)) {
      cursor = p.reportedAt();
    }
    return true;
  }

  private List<Progress> since(Instant from) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql.get("since"))) {
      s.setObject(1, OffsetDateTime.ofInstant(from, ZoneOffset.UTC));
      s.setInt(2, PAGE);
      List<Progress> out = new ArrayList<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          out.add(progress(rs));
        }
      }
      return out;
    }
  }

  private static Progress progress(ResultSet rs) throws SQLException {
    return new Progress(
        rs.getLong("job_id"),
        rs.getDouble("fraction"),
        rs.getString("message"),
        rs.getString("detail"),
        rs.getObject("reported_at", OffsetDateTime.class).toInstant());
  }

  /**
   * Reports the database refused (dropped, logged, never failing the job).
   *
   * @return the count of dropped reports
   */
  public synchronized long droppedReports() {
    return dropped;
  }

  /** {@return the schema this store reads and writes} */
  public SchemaName schema() {
    return schema;
  }

  /** Stops the polling thread; subscriptions end. Idempotent. */
  @Override
  public void close() {
    ScheduledExecutorService thread;
    synchronized (this) {
      closed = true;
      listeners.clear();
      polling = null;
      thread = poller;
      poller = null;
    }
    if (thread != null) {
      thread.shutdownNow();
    }
  }

  private static void requireJobId(long jobId) {
    if (jobId < 1) {
      throw new IllegalArgumentException("job id must be positive, was " + jobId);
    }
  }

  @Override
  public String toString() {
    return "PostgresProgressStore{" + schema.value() + ", poll=" + pollInterval + "}";
  }

  private record Listener(@Nullable Long jobId, Consumer<Progress> consumer) {
    void offer(Progress p) {
      if (jobId != null && jobId != p.jobId()) {
        return;
      }
      try {
        consumer.accept(p);
      } catch (RuntimeException e) {
        LOG.warn("a progress listener threw; the subscription goes on", e);
      }
    }
  }
}
