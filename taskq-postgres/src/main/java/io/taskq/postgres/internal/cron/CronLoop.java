package io.taskq.postgres.internal.cron;

import io.taskq.EnqueueInterceptor;
import io.taskq.JobRequest;
import io.taskq.SchemaName;
import io.taskq.TaskQConfig;
import io.taskq.postgres.internal.GuardedJobListener;
import io.taskq.postgres.internal.SqlErrors;
import io.taskq.spi.JobListener;
import io.taskq.spi.MaintenanceListener;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cron loop of one schema (S12): a {@link CronTick} every second on a daemon thread of its own.
 *
 * <p>Every TaskQ process with maintenance on runs one; the transaction lock {@code
 * taskq:cron:{schema}} lets one tick run at a time per schema, and a process that finds it held
 * skips that second. A failed tick (rolled back whole) is logged and the next second retries;
 * repeated identical failures are logged once at WARN, then at DEBUG until a tick succeeds. A tick
 * aborted by its deadline (SQLSTATE 57014) is also counted as {@code sweepTimeout("cron")}. The
 * jobs a committed tick enqueued are reported to the {@link JobListener} ({@code
 * taskq.jobs.enqueued}), like a {@code JobsClient} enqueue.
 */
public final class CronLoop implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CronLoop.class);

  /** The tick period (S12). */
  public static final Duration TICK = Duration.ofSeconds(1);

  private final SchemaName schema;
  private final DataSource dataSource;
  private final CronTick tick;
  private final MaintenanceListener listener;
  private final JobListener jobListener;
  private final ScheduledExecutorService thread;
  private @Nullable String lastFailure;
  private volatile boolean running = true;
  private volatile @Nullable ScheduledFuture<?> ticks;

  private CronLoop(
      SchemaName schema,
      DataSource dataSource,
      CronTick tick,
      MaintenanceListener listener,
      JobListener jobListener) {
    this.schema = schema;
    this.dataSource = dataSource;
    this.tick = tick;
    this.listener = listener;
    this.jobListener = jobListener;
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "taskq-cron-" + schema.value());
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * A loop of {@code config}'s schema whose fires pass through {@code interceptors} (P6), the
   * TaskQ's enqueue interceptors (not started).
   */
  public static CronLoop create(
      DataSource dataSource,
      TaskQConfig config,
      PayloadFactories factories,
      CronFaults faults,
      MaintenanceListener listener,
      JobListener jobListener,
      List<EnqueueInterceptor> interceptors) {
    CronTick tick =
        new CronTick(
            config.schemaName(),
            factories,
            faults,
            config.cronTickLimit(),
            config.cronAutoDisableThreshold(),
            config.dispatcherCommandTimeout(),
            config.maxPayloadBytes(),
            System::nanoTime,
            interceptors);
    return new CronLoop(
        config.schemaName(),
        Objects.requireNonNull(dataSource, "dataSource"),
        tick,
        Objects.requireNonNull(listener, "listener"),
        GuardedJobListener.of(jobListener));
  }

  /** Starts ticking every second; the first tick runs at once. */
  public synchronized void start() {
    ticks =
        thread.scheduleWithFixedDelay(this::tickQuietly, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Runs one tick on the calling thread.
   *
   * @throws SQLException the tick's error, after it rolled back whole
   */
  public CronTickResult tickNow() throws SQLException {
    CronTickResult result = tick.run(dataSource);
    GuardedJobListener.enqueued(
        jobListener, result.enqueued(), JobRequest::actor, JobRequest::queue);
    return result;
  }

  private void tickQuietly() {
    if (!running) {
      return;
    }
    try {
      tickNow();
      synchronized (this) {
        lastFailure = null;
      }
    } catch (SQLException e) {
      if ("57014".equals(SqlErrors.state(e))) {
        listener.sweepTimeout(CronTick.NAME);
      }
      failed(e);
    } catch (RuntimeException e) {
      failed(e);
    }
  }

  private synchronized void failed(Exception e) {
    String key = e.getClass().getName() + ": " + e.getMessage();
    if (key.equals(lastFailure)) {
      LOG.debug("cron tick of schema {} failed again; the next tick retries", schema, e);
    } else {
      LOG.warn(
          "cron tick of schema {} failed and rolled back; every due schedule stays due and the"
              + " next tick retries",
          schema,
          e);
    }
    lastFailure = key;
  }

  /**
   * Interrupts a tick stuck waiting for a connection (part of a bounded close on a database that
   * does not answer, R1); the tick rolls back and every due schedule stays due.
   */
  public void abort() {
    running = false;
    thread.shutdownNow();
  }

  /** Stops the loop, waiting (bounded) for a running tick to end. Idempotent. */
  @Override
  public void close() {
    running = false;
    ScheduledFuture<?> scheduled = ticks;
    if (scheduled != null) {
      scheduled.cancel(false);
    }
    thread.shutdown();
    try {
      if (!thread.awaitTermination(30, TimeUnit.SECONDS)) {
        thread.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      thread.shutdownNow();
    }
  }
}
