package io.taskq;

import io.taskq.core.internal.config.Knob;
import io.taskq.core.internal.config.KnobCatalog;
import io.taskq.core.internal.config.ResolvedKnobs;
import io.taskq.core.internal.config.SettingsDraft;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Every setting of a TaskQ process, immutable and validated as a whole (T1, D6).
 *
 * <p>Each knob has a {@code TASKQ_*} environment variable and a builder setter; code wins over the
 * environment, which wins over the default:
 *
 * <pre>{@code
 * TaskQConfig config = TaskQConfig.builder(System.getenv())  // defaults, then TASKQ_* variables
 *     .workerConcurrency(16)                                   // code has the last word
 *     .build();                                                // checks everything at once
 * }</pre>
 *
 * <p>{@link Builder#build()} checks every setting and every rule between settings and throws one
 * {@link TaskQConfigException} listing all problems, each naming the variable, its value and the
 * allowed range. Nothing is clamped. Unknown {@code TASKQ_*} variables are errors too (with a "did
 * you mean" hint), except the test harness's {@code TASKQ_TEST_*}. Passwords, whether in a URL or
 * in {@link #databasePassword()}, never appear in {@link #toString()}, {@link #describe()} or an
 * error message.
 *
 * <p>Durations accept {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 7d}, {@code
 * 1h30m}, ISO-8601 ({@code PT30S}, {@code P7D}) and a bare number, which counts milliseconds when
 * the variable ends in {@code _MS} and seconds otherwise. {@code docs/configuration.md} lists every
 * knob; a test keeps it in step with {@code KnobCatalog}, where the knobs are defined once. This
 * class is long only because it has one accessor and one setter per knob.
 */
public final class TaskQConfig {
  private final ResolvedKnobs values;

  private TaskQConfig(ResolvedKnobs values) {
    this.values = values;
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder(new SettingsDraft());
  }

  /**
   * A builder starting from the {@code TASKQ_*} variables of {@code env} over the defaults; its
   * setters override the environment. Problems in {@code env} are reported by {@link
   * Builder#build()}, together with any in the setters.
   */
  public static Builder builder(Map<String, String> env) {
    SettingsDraft draft = new SettingsDraft();
    draft.readEnvironment(env);
    return new Builder(draft);
  }

  /**
   * The configuration the {@code TASKQ_*} variables of {@code env} describe.
   *
   * @throws TaskQConfigException listing every bad or unknown variable
   */
  public static TaskQConfig fromEnv(Map<String, String> env) {
    return builder(env).build();
  }

  /**
   * The configuration this process's environment describes.
   *
   * @throws TaskQConfigException listing every bad or unknown variable
   */
  public static TaskQConfig fromEnv() {
    return fromEnv(System.getenv());
  }

  /** Every knob at its default. */
  public static TaskQConfig defaults() {
    return builder().build();
  }

  /**
   * Every setting, in documentation order: the catalog a framework integration maps its own
   * properties onto (the Spring Boot starter's {@code taskq.*} keys), so that they are validated
   * with the same rules and reported in the same message as {@code TASKQ_*} variables.
   */
  public static List<TaskQSetting> settings() {
    return TaskQSetting.ALL;
  }

  /** A builder holding this configuration's values, to derive a changed copy. */
  public Builder newBuilder() {
    return new Builder(SettingsDraft.of(values));
  }

  /**
   * One line per knob, {@code TASKQ_NAME=value (source)}, passwords masked: what a start-up log
   * should print.
   */
  public List<String> describe() {
    return values.describe();
  }

  /**
   * Rows one committed batch of any {@code job_events} writer (reclaim and deadline sweeps, bulk
   * cancel, deregistration) may touch; also the batch bound of the other drained sweeps. When
   * TaskQSweepTimeouts fires, lower this rather than raising the statement timeout (guide §3).
   *
   * <p>Default: 100. Range: 1..10000.
   */
  public int eventWriterBatchSize() {
    return values.get(KnobCatalog.EVENT_WRITER_BATCH_SIZE);
  }

  /**
   * Server-side {@code statement_timeout} set on each event-writer batch: the enforcement that
   * keeps a batch inside the visibility margin (guide §2). Must stay below {@link
   * #reclaimEventVisibilityDelay()} (7/8 of it by default) and below {@link #socketTimeout()}. A
   * bare number in {@code TASKQ_EVENT_WRITER_STATEMENT_TIMEOUT_MS} counts milliseconds.
   *
   * <p>Default: 1750ms. Range: 1ms..1h.
   */
  public Duration eventWriterStatementTimeout() {
    return values.get(KnobCatalog.EVENT_WRITER_STATEMENT_TIMEOUT);
  }

  /**
   * Trailing-watermark margin of the crash-reclaim event feed: only events older than this are
   * delivered, so a sibling writer has time to commit first. Raise {@link
   * #eventWriterStatementTimeout()} with it, keeping it below.
   *
   * <p>Default: 2s. Range: 100ms..1h.
   */
  public Duration reclaimEventVisibilityDelay() {
    return values.get(KnobCatalog.RECLAIM_EVENT_VISIBILITY_DELAY);
  }

  /**
   * The sweep breaker's reduced tier is {@code max(1, eventWriterBatchSize / divisor)} (T2).
   *
   * <p>Default: 4. Range: 1..10000.
   */
  public int eventWriterReducedBatchDivisor() {
    return values.get(KnobCatalog.EVENT_WRITER_REDUCED_BATCH_DIVISOR);
  }

  /**
   * Consecutive aborted batches, within {@link #sweepBreakerWindow()}, that latch a sweep to the
   * reduced tier for the rest of the process (T2).
   *
   * <p>Default: 3. Range: 1..1000.
   */
  public int sweepBreakerFailureThreshold() {
    return values.get(KnobCatalog.SWEEP_BREAKER_FAILURE_THRESHOLD);
  }

  /**
   * Rolling window in which {@link #sweepBreakerFailureThreshold()} consecutive aborts latch the
   * breaker. A bare number in {@code TASKQ_SWEEP_BREAKER_WINDOW_SECS} counts seconds.
   *
   * <p>Default: 10m. Range: 1s..7d.
   */
  public Duration sweepBreakerWindow() {
    return values.get(KnobCatalog.SWEEP_BREAKER_WINDOW);
  }

  /**
   * Batches one sweep may run per sweep-loop tick before leaving the rest to the next tick; raise
   * it for a known-large recovery rather than removing the bound.
   *
   * <p>Default: 8. Range: 1..10000.
   */
  public int sweepDrainBatches() {
    return values.get(KnobCatalog.SWEEP_DRAIN_BATCHES);
  }

  /**
   * Period of the leader's sweep loop. It also sets the readiness detector: a sweep without success
   * for three intervals is reported degraded (O7).
   *
   * <p>Default: 30s. Range: 100ms..1d.
   */
  public Duration sweepInterval() {
    return values.get(KnobCatalog.SWEEP_INTERVAL);
  }

  /**
   * Schedules one cron tick selects and fires; a larger catch-up drains across the one-second
   * ticks.
   *
   * <p>Default: 100. Range: 1..10000.
   */
  public int cronTickLimit() {
    return values.get(KnobCatalog.CRON_TICK_LIMIT);
  }

  /**
   * Consecutive failures after which a cron schedule is disabled; 0 never disables one.
   *
   * <p>Default: 10. Range: 0..100000.
   */
  public int cronAutoDisableThreshold() {
    return values.get(KnobCatalog.CRON_AUTO_DISABLE_THRESHOLD);
  }

  /**
   * Age after which the event TTL sweep deletes {@code job_events} rows; 0 turns the sweep off.
   *
   * <p>Default: 7d. Range: 0 (event TTL sweep off) or 1m..3650d.
   */
  public Duration eventRetentionPeriod() {
    return values.get(KnobCatalog.EVENT_RETENTION_PERIOD);
  }

  /**
   * Idle time after which orphaned keyed reservation-slot and rate-limit rows are deleted; 0 turns
   * the sweep off.
   *
   * <p>Default: 1h. Range: 0 (keyed-row sweep off) or 1s..365d.
   */
  public Duration keyedRowReclaimPeriod() {
    return values.get(KnobCatalog.KEYED_ROW_RECLAIM_PERIOD);
  }

  /**
   * Rows per committed batch of the daily prune and archive expiry.
   *
   * <p>Default: 10000. Range: 1..1000000.
   */
  public int pruneBatchSize() {
    return values.get(KnobCatalog.PRUNE_BATCH_SIZE);
  }

  /**
   * The PostgreSQL schema holding this deployment's tables; it also qualifies lock names, NOTIFY
   * channels and Redis keys, so it is the deployment boundary (M1-M3).
   *
   * <p>Default: taskq. Range: 1..63 UTF-8 bytes, no double quote or control character, not starting
   * with pg_.
   */
  public SchemaName schemaName() {
    return values.get(KnobCatalog.SCHEMA_NAME);
  }

  /**
   * Deployment-wide ceiling on every retry delay, applied on top of each job's own policy cap.
   *
   * <p>Default: 1h. Range: 1ms..365d.
   */
  public Duration maxRetryBackoff() {
    return values.get(KnobCatalog.MAX_RETRY_BACKOFF);
  }

  /**
   * Deadline of one dispatcher command (a claim, a cron tick), so a stalled server fails the
   * command instead of stalling its loop. Must stay below {@link #socketTimeout()}.
   *
   * <p>Default: 5s. Range: 1ms..1h.
   */
  public Duration dispatcherCommandTimeout() {
    return values.get(KnobCatalog.DISPATCHER_COMMAND_TIMEOUT);
  }

  /**
   * Keyed reservations one worker's registry holds at most; idle ones are evicted beyond it.
   *
   * <p>Default: 10000. Range: 1..10000000.
   */
  public int maxKeyedReservations() {
    return values.get(KnobCatalog.MAX_KEYED_RESERVATIONS);
  }

  /**
   * Keyed rate limits one worker's registry holds at most; idle ones are evicted beyond it.
   *
   * <p>Default: 10000. Range: 1..10000000.
   */
  public int maxKeyedRateLimits() {
    return values.get(KnobCatalog.MAX_KEYED_RATE_LIMITS);
  }

  /**
   * UTC time of day of the daily prune, which moves terminal jobs older than {@link #pruneAfter()}
   * to {@code jobs_archive}.
   *
   * <p>Default: 03:00. Range: HH:mm or HH:mm:ss, UTC.
   */
  public LocalTime pruneTime() {
    return values.get(KnobCatalog.PRUNE_TIME);
  }

  /**
   * UTC time of day of the daily archive expiry, which deletes archived jobs older than {@link
   * #archiveRetention()}.
   *
   * <p>Default: 04:00. Range: HH:mm or HH:mm:ss, UTC.
   */
  public LocalTime archiveExpiryTime() {
    return values.get(KnobCatalog.ARCHIVE_EXPIRY_TIME);
  }

  /**
   * Age after which the daily prune moves a terminal job to {@code jobs_archive}.
   *
   * <p>Default: 7d. Range: 1m..3650d.
   */
  public Duration pruneAfter() {
    return values.get(KnobCatalog.PRUNE_AFTER);
  }

  /**
   * Age after which an archived job is deleted for good.
   *
   * <p>Default: 30d. Range: 1m..3650d.
   */
  public Duration archiveRetention() {
    return values.get(KnobCatalog.ARCHIVE_RETENTION);
  }

  /**
   * JDBC URL of the PostgreSQL database. It may carry a user and password; the password is masked
   * wherever the URL is shown. Unset: the application hands TaskQ its own {@code DataSource}.
   *
   * <p>Default: unset. Range: unset, or a URL starting with jdbc:postgresql:.
   */
  public Optional<String> databaseUrl() {
    return values.get(KnobCatalog.DATABASE_URL);
  }

  /**
   * Database user, when the URL does not carry one.
   *
   * <p>Default: unset. Range: unset, or text without control characters.
   */
  public Optional<String> databaseUser() {
    return values.get(KnobCatalog.DATABASE_USER);
  }

  /**
   * Database password, when the URL does not carry one. Never shown: {@code toString} and error
   * messages print {@code ***}.
   *
   * <p>Default: unset. Range: unset, or any text.
   */
  public Optional<String> databasePassword() {
    return values.get(KnobCatalog.DATABASE_PASSWORD);
  }

  /**
   * JDBC URL of a direct (not transaction-pooled) connection, used for the leader's session
   * advisory lock and for LISTEN, which a PgBouncer in {@code pool_mode=transaction} breaks (D8).
   * Unset: {@link #databaseUrl()} is used.
   *
   * <p>Default: unset. Range: unset, or a URL starting with jdbc:postgresql:.
   */
  public Optional<String> databaseDirectUrl() {
    return values.get(KnobCatalog.DATABASE_DIRECT_URL);
  }

  /**
   * Most connections the pool opens.
   *
   * <p>Default: 10. Range: 1..1000.
   */
  public int databasePoolSize() {
    return values.get(KnobCatalog.DATABASE_POOL_SIZE);
  }

  /**
   * HikariCP {@code keepaliveTime}: how often an idle pooled connection is probed, so a dead peer
   * is found before a borrower meets it (D10). HikariCP requires at least 30s and less than the
   * pool's maximum lifetime.
   *
   * <p>Default: 2m. Range: 30s..20m.
   */
  public Duration databaseKeepaliveTime() {
    return values.get(KnobCatalog.DATABASE_KEEPALIVE_TIME);
  }

  /**
   * PgJDBC {@code socketTimeout}: the longest one read may block, so no thread hangs on a frozen
   * server (D10). Must exceed {@link #eventWriterStatementTimeout()} and {@link
   * #dispatcherCommandTimeout()}; whole seconds, because PgJDBC counts seconds.
   *
   * <p>Default: 30s. Range: whole seconds, 1s..1h.
   */
  public Duration socketTimeout() {
    return values.get(KnobCatalog.SOCKET_TIMEOUT);
  }

  /**
   * PgJDBC {@code connectTimeout} (D10); whole seconds, because PgJDBC counts seconds.
   *
   * <p>Default: 10s. Range: whole seconds, 1s..10m.
   */
  public Duration connectTimeout() {
    return values.get(KnobCatalog.CONNECT_TIMEOUT);
  }

  /**
   * Redis URL; a password in it is masked wherever the URL is shown. Unset: TaskQ runs without
   * Redis.
   *
   * <p>Default: unset. Range: unset, or a URL starting with redis://, rediss://, redis-socket:// or
   * redis-sentinel://.
   */
  public Optional<String> redisUrl() {
    return values.get(KnobCatalog.REDIS_URL);
  }

  /**
   * Deadline of one Redis command.
   *
   * <p>Default: 2s. Range: 1ms..1h.
   */
  public Duration redisCommandTimeout() {
    return values.get(KnobCatalog.REDIS_COMMAND_TIMEOUT);
  }

  /**
   * Jobs one worker runs at the same time.
   *
   * <p>Default: 8. Range: 1..10000.
   */
  public int workerConcurrency() {
    return values.get(KnobCatalog.WORKER_CONCURRENCY);
  }

  /**
   * Queues this worker claims from; in the environment a comma-separated list.
   *
   * <p>Default: default. Range: 1 or more distinct queue names, each 1..128 characters without NUL
   * or comma.
   */
  public List<String> workerQueues() {
    return values.get(KnobCatalog.WORKER_QUEUES);
  }

  /**
   * Jobs one claim statement takes at most; never more than the worker's free slots.
   *
   * <p>Default: 256. Range: 1..1000.
   */
  public int claimBatchSize() {
    return values.get(KnobCatalog.CLAIM_BATCH_SIZE);
  }

  /**
   * How long a claimed job's lease lasts without a heartbeat before the reclaim sweep may take the
   * job back.
   *
   * <p>Default: 30s. Range: 1s..1d.
   */
  public Duration leasePeriod() {
    return values.get(KnobCatalog.LEASE_PERIOD);
  }

  /**
   * How often a worker renews its running jobs' leases and its own liveness. Must be shorter than
   * {@link #leasePeriod()} and {@link #workerStaleAfter()}.
   *
   * <p>Default: 5s. Range: 100ms..1h.
   */
  public Duration heartbeatInterval() {
    return values.get(KnobCatalog.HEARTBEAT_INTERVAL);
  }

  /**
   * Heartbeat silence after which a worker is deemed dead and its row is cleaned up. Must exceed
   * {@link #heartbeatInterval()}.
   *
   * <p>Default: 1m. Range: 1s..7d.
   */
  public Duration workerStaleAfter() {
    return values.get(KnobCatalog.WORKER_STALE_AFTER);
  }

  /**
   * Polling fallback: how often a waiting loop looks for work when no notification arrives (D11).
   *
   * <p>Default: 1s. Range: 10ms..1h.
   */
  public Duration pollInterval() {
    return values.get(KnobCatalog.POLL_INTERVAL);
  }

  /**
   * How long shutdown waits for running jobs to finish; 0 does not wait.
   *
   * <p>Default: 30s. Range: 0 (do not wait) or 1ms..1h.
   */
  public Duration shutdownGrace() {
    return values.get(KnobCatalog.SHUTDOWN_GRACE);
  }

  /**
   * How long a job's stored result is kept; 0 stores no results.
   *
   * <p>Default: 1d. Range: 0 (results not stored) or 1s..3650d.
   */
  public Duration resultTtl() {
    return values.get(KnobCatalog.RESULT_TTL);
  }

  /**
   * Largest job payload accepted at enqueue, in bytes; the environment also takes {@code 512KiB} or
   * {@code 1MiB}.
   *
   * <p>Default: 1MiB. Range: 1..268435456.
   */
  public int maxPayloadBytes() {
    return values.get(KnobCatalog.MAX_PAYLOAD_BYTES);
  }

  /**
   * Port of the HTTP readiness endpoint ({@code /ready}); 0 turns the endpoint off.
   *
   * <p>Default: 0. Range: 0..65535.
   */
  public int httpPort() {
    return values.get(KnobCatalog.HTTP_PORT);
  }

  /**
   * What {@code TaskQ.start()} does with the schema's migrations (A7): {@code apply} what is
   * pending (needs CREATE only when something is), {@code verify} that the schema is current and
   * refuse to start otherwise (no CREATE needed), or {@code skip} the check (the schema is managed
   * elsewhere).
   *
   * <p>Default: apply. Range: apply, verify or skip.
   */
  public String migrate() {
    return values.get(KnobCatalog.MIGRATE);
  }

  /**
   * Address the HTTP endpoint binds to.
   *
   * <p>Default: 127.0.0.1. Range: a host name or IP address.
   */
  public String httpBind() {
    return values.get(KnobCatalog.HTTP_BIND);
  }

  /**
   * Port of the standalone web dashboard ({@code docs/dashboard.md}); 0 turns it off.
   *
   * <p>Default: 0. Range: 0..65535.
   */
  public int dashboardPort() {
    return values.get(KnobCatalog.DASHBOARD_PORT);
  }

  /**
   * Address the standalone web dashboard binds to.
   *
   * <p>Default: 127.0.0.1. Range: a host name or IP address.
   */
  public String dashboardBind() {
    return values.get(KnobCatalog.DASHBOARD_BIND);
  }

  /**
   * Path the web dashboard is served under.
   *
   * <p>Default: /taskq. Range: / or /segment[/segment...] of letters, digits and ._~-.
   */
  public String dashboardPath() {
    return values.get(KnobCatalog.DASHBOARD_PATH);
  }

  /**
   * Whether the web dashboard refuses every state change (retry, cancel, pause, ...).
   *
   * <p>Default: false. Range: true or false.
   */
  public boolean dashboardReadOnly() {
    return values.get(KnobCatalog.DASHBOARD_READ_ONLY);
  }

  /**
   * Token that signs a user in to the web dashboard. Never shown.
   *
   * <p>Default: unset. Range: unset, or at least 16 characters.
   */
  public Optional<String> dashboardToken() {
    return values.get(KnobCatalog.DASHBOARD_TOKEN);
  }

  /**
   * User name that signs in to the web dashboard with {@link #dashboardPassword()}.
   *
   * <p>Default: unset. Range: unset, or text without control characters.
   */
  public Optional<String> dashboardUser() {
    return values.get(KnobCatalog.DASHBOARD_USER);
  }

  /**
   * Password of {@link #dashboardUser()}. Never shown.
   *
   * <p>Default: unset. Range: unset, or at least 8 characters.
   */
  public Optional<String> dashboardPassword() {
    return values.get(KnobCatalog.DASHBOARD_PASSWORD);
  }

  /**
   * Public origin of the web dashboard behind a proxy that rewrites the host; state changes are
   * accepted from it besides the request's own host.
   *
   * <p>Default: unset. Range: unset, or http[s]://host[:port].
   */
  public Optional<String> dashboardOrigin() {
    return values.get(KnobCatalog.DASHBOARD_ORIGIN);
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof TaskQConfig that && values.equals(that.values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }

  /** Every knob and its value; passwords masked. */
  @Override
  public String toString() {
    return "TaskQConfig{" + values.showValues() + "}";
  }

  /**
   * Collects settings and checks them all in {@link #build()}. Setters reject {@code null} at once
   * (a {@link NullPointerException} naming the setter); every other problem waits for {@code
   * build()}, so problems from the environment and from code are reported together. A builder may
   * be reused; {@code build()} does not change it.
   */
  public static final class Builder {
    private final SettingsDraft draft;

    private Builder(SettingsDraft draft) {
      this.draft = draft;
    }

    /** Sets {@link TaskQConfig#eventWriterBatchSize()} ({@code TASKQ_EVENT_WRITER_BATCH_SIZE}). */
    public Builder eventWriterBatchSize(int value) {
      return set(KnobCatalog.EVENT_WRITER_BATCH_SIZE, value);
    }

    /**
     * Sets {@link TaskQConfig#eventWriterStatementTimeout()} ({@code
     * TASKQ_EVENT_WRITER_STATEMENT_TIMEOUT_MS}).
     */
    public Builder eventWriterStatementTimeout(Duration value) {
      return set(
          KnobCatalog.EVENT_WRITER_STATEMENT_TIMEOUT,
          Objects.requireNonNull(value, "eventWriterStatementTimeout"));
    }

    /**
     * Sets {@link TaskQConfig#reclaimEventVisibilityDelay()} ({@code
     * TASKQ_RECLAIM_EVENT_VISIBILITY_DELAY}).
     */
    public Builder reclaimEventVisibilityDelay(Duration value) {
      return set(
          KnobCatalog.RECLAIM_EVENT_VISIBILITY_DELAY,
          Objects.requireNonNull(value, "reclaimEventVisibilityDelay"));
    }

    /**
     * Sets {@link TaskQConfig#eventWriterReducedBatchDivisor()} ({@code
     * TASKQ_EVENT_WRITER_REDUCED_BATCH_DIVISOR}).
     */
    public Builder eventWriterReducedBatchDivisor(int value) {
      return set(KnobCatalog.EVENT_WRITER_REDUCED_BATCH_DIVISOR, value);
    }

    /**
     * Sets {@link TaskQConfig#sweepBreakerFailureThreshold()} ({@code
     * TASKQ_SWEEP_BREAKER_FAILURE_THRESHOLD}).
     */
    public Builder sweepBreakerFailureThreshold(int value) {
      return set(KnobCatalog.SWEEP_BREAKER_FAILURE_THRESHOLD, value);
    }

    /** Sets {@link TaskQConfig#sweepBreakerWindow()} ({@code TASKQ_SWEEP_BREAKER_WINDOW_SECS}). */
    public Builder sweepBreakerWindow(Duration value) {
      return set(
          KnobCatalog.SWEEP_BREAKER_WINDOW, Objects.requireNonNull(value, "sweepBreakerWindow"));
    }

    /** Sets {@link TaskQConfig#sweepDrainBatches()} ({@code TASKQ_SWEEP_DRAIN_BATCHES}). */
    public Builder sweepDrainBatches(int value) {
      return set(KnobCatalog.SWEEP_DRAIN_BATCHES, value);
    }

    /** Sets {@link TaskQConfig#sweepInterval()} ({@code TASKQ_SWEEP_INTERVAL}). */
    public Builder sweepInterval(Duration value) {
      return set(KnobCatalog.SWEEP_INTERVAL, Objects.requireNonNull(value, "sweepInterval"));
    }

    /** Sets {@link TaskQConfig#cronTickLimit()} ({@code TASKQ_CRON_TICK_LIMIT}). */
    public Builder cronTickLimit(int value) {
      return set(KnobCatalog.CRON_TICK_LIMIT, value);
    }

    /**
     * Sets {@link TaskQConfig#cronAutoDisableThreshold()} ({@code
     * TASKQ_CRON_AUTO_DISABLE_THRESHOLD}).
     */
    public Builder cronAutoDisableThreshold(int value) {
      return set(KnobCatalog.CRON_AUTO_DISABLE_THRESHOLD, value);
    }

    /** Sets {@link TaskQConfig#eventRetentionPeriod()} ({@code TASKQ_EVENT_RETENTION_PERIOD}). */
    public Builder eventRetentionPeriod(Duration value) {
      return set(
          KnobCatalog.EVENT_RETENTION_PERIOD,
          Objects.requireNonNull(value, "eventRetentionPeriod"));
    }

    /**
     * Sets {@link TaskQConfig#keyedRowReclaimPeriod()} ({@code TASKQ_KEYED_ROW_RECLAIM_PERIOD}).
     */
    public Builder keyedRowReclaimPeriod(Duration value) {
      return set(
          KnobCatalog.KEYED_ROW_RECLAIM_PERIOD,
          Objects.requireNonNull(value, "keyedRowReclaimPeriod"));
    }

    /** Sets {@link TaskQConfig#pruneBatchSize()} ({@code TASKQ_PRUNE_BATCH_SIZE}). */
    public Builder pruneBatchSize(int value) {
      return set(KnobCatalog.PRUNE_BATCH_SIZE, value);
    }

    /** Sets {@link TaskQConfig#schemaName()} ({@code TASKQ_SCHEMA_NAME}). */
    public Builder schemaName(SchemaName value) {
      return set(KnobCatalog.SCHEMA_NAME, Objects.requireNonNull(value, "schemaName"));
    }

    /** Sets {@link TaskQConfig#schemaName()} from text, checked by {@link #build()}. */
    public Builder schemaName(String value) {
      return setText(KnobCatalog.SCHEMA_NAME, Objects.requireNonNull(value, "schemaName"));
    }

    /** Sets {@link TaskQConfig#maxRetryBackoff()} ({@code TASKQ_MAX_RETRY_BACKOFF}). */
    public Builder maxRetryBackoff(Duration value) {
      return set(KnobCatalog.MAX_RETRY_BACKOFF, Objects.requireNonNull(value, "maxRetryBackoff"));
    }

    /**
     * Sets {@link TaskQConfig#dispatcherCommandTimeout()} ({@code
     * TASKQ_DISPATCHER_COMMAND_TIMEOUT}).
     */
    public Builder dispatcherCommandTimeout(Duration value) {
      return set(
          KnobCatalog.DISPATCHER_COMMAND_TIMEOUT,
          Objects.requireNonNull(value, "dispatcherCommandTimeout"));
    }

    /** Sets {@link TaskQConfig#maxKeyedReservations()} ({@code TASKQ_MAX_KEYED_RESERVATIONS}). */
    public Builder maxKeyedReservations(int value) {
      return set(KnobCatalog.MAX_KEYED_RESERVATIONS, value);
    }

    /** Sets {@link TaskQConfig#maxKeyedRateLimits()} ({@code TASKQ_MAX_KEYED_RATE_LIMITS}). */
    public Builder maxKeyedRateLimits(int value) {
      return set(KnobCatalog.MAX_KEYED_RATE_LIMITS, value);
    }

    /** Sets {@link TaskQConfig#pruneTime()} ({@code TASKQ_PRUNE_TIME}). */
    public Builder pruneTime(LocalTime value) {
      return set(KnobCatalog.PRUNE_TIME, Objects.requireNonNull(value, "pruneTime"));
    }

    /** Sets {@link TaskQConfig#archiveExpiryTime()} ({@code TASKQ_ARCHIVE_EXPIRY_TIME}). */
    public Builder archiveExpiryTime(LocalTime value) {
      return set(
          KnobCatalog.ARCHIVE_EXPIRY_TIME, Objects.requireNonNull(value, "archiveExpiryTime"));
    }

    /** Sets {@link TaskQConfig#pruneAfter()} ({@code TASKQ_PRUNE_AFTER}). */
    public Builder pruneAfter(Duration value) {
      return set(KnobCatalog.PRUNE_AFTER, Objects.requireNonNull(value, "pruneAfter"));
    }

    /** Sets {@link TaskQConfig#archiveRetention()} ({@code TASKQ_ARCHIVE_RETENTION}). */
    public Builder archiveRetention(Duration value) {
      return set(KnobCatalog.ARCHIVE_RETENTION, Objects.requireNonNull(value, "archiveRetention"));
    }

    /**
     * Sets {@link TaskQConfig#databaseUrl()} ({@code TASKQ_DATABASE_URL}); an empty string unsets
     * it.
     */
    public Builder databaseUrl(String value) {
      return setText(KnobCatalog.DATABASE_URL, Objects.requireNonNull(value, "databaseUrl"));
    }

    /**
     * Sets {@link TaskQConfig#databaseUser()} ({@code TASKQ_DATABASE_USER}); an empty string unsets
     * it.
     */
    public Builder databaseUser(String value) {
      return setText(KnobCatalog.DATABASE_USER, Objects.requireNonNull(value, "databaseUser"));
    }

    /**
     * Sets {@link TaskQConfig#databasePassword()} ({@code TASKQ_DATABASE_PASSWORD}); an empty
     * string unsets it.
     */
    public Builder databasePassword(String value) {
      return setText(
          KnobCatalog.DATABASE_PASSWORD, Objects.requireNonNull(value, "databasePassword"));
    }

    /**
     * Sets {@link TaskQConfig#databaseDirectUrl()} ({@code TASKQ_DATABASE_DIRECT_URL}); an empty
     * string unsets it.
     */
    public Builder databaseDirectUrl(String value) {
      return setText(
          KnobCatalog.DATABASE_DIRECT_URL, Objects.requireNonNull(value, "databaseDirectUrl"));
    }

    /** Sets {@link TaskQConfig#databasePoolSize()} ({@code TASKQ_DATABASE_POOL_SIZE}). */
    public Builder databasePoolSize(int value) {
      return set(KnobCatalog.DATABASE_POOL_SIZE, value);
    }

    /** Sets {@link TaskQConfig#databaseKeepaliveTime()} ({@code TASKQ_DATABASE_KEEPALIVE_TIME}). */
    public Builder databaseKeepaliveTime(Duration value) {
      return set(
          KnobCatalog.DATABASE_KEEPALIVE_TIME,
          Objects.requireNonNull(value, "databaseKeepaliveTime"));
    }

    /** Sets {@link TaskQConfig#socketTimeout()} ({@code TASKQ_SOCKET_TIMEOUT}). */
    public Builder socketTimeout(Duration value) {
      return set(KnobCatalog.SOCKET_TIMEOUT, Objects.requireNonNull(value, "socketTimeout"));
    }

    /** Sets {@link TaskQConfig#connectTimeout()} ({@code TASKQ_CONNECT_TIMEOUT}). */
    public Builder connectTimeout(Duration value) {
      return set(KnobCatalog.CONNECT_TIMEOUT, Objects.requireNonNull(value, "connectTimeout"));
    }

    /** Sets {@link TaskQConfig#redisUrl()} ({@code TASKQ_REDIS_URL}); an empty string unsets it. */
    public Builder redisUrl(String value) {
      return setText(KnobCatalog.REDIS_URL, Objects.requireNonNull(value, "redisUrl"));
    }

    /** Sets {@link TaskQConfig#redisCommandTimeout()} ({@code TASKQ_REDIS_COMMAND_TIMEOUT}). */
    public Builder redisCommandTimeout(Duration value) {
      return set(
          KnobCatalog.REDIS_COMMAND_TIMEOUT, Objects.requireNonNull(value, "redisCommandTimeout"));
    }

    /** Sets {@link TaskQConfig#workerConcurrency()} ({@code TASKQ_WORKER_CONCURRENCY}). */
    public Builder workerConcurrency(int value) {
      return set(KnobCatalog.WORKER_CONCURRENCY, value);
    }

    /** Sets {@link TaskQConfig#workerQueues()} ({@code TASKQ_WORKER_QUEUES}). */
    public Builder workerQueues(List<String> value) {
      return set(KnobCatalog.WORKER_QUEUES, nonNullCopy(value, "workerQueues"));
    }

    /** Sets {@link TaskQConfig#workerQueues()} ({@code TASKQ_WORKER_QUEUES}). */
    public Builder workerQueues(String... value) {
      return workerQueues(Arrays.asList(Objects.requireNonNull(value, "workerQueues")));
    }

    /** Sets {@link TaskQConfig#claimBatchSize()} ({@code TASKQ_CLAIM_BATCH_SIZE}). */
    public Builder claimBatchSize(int value) {
      return set(KnobCatalog.CLAIM_BATCH_SIZE, value);
    }

    /** Sets {@link TaskQConfig#leasePeriod()} ({@code TASKQ_LEASE_PERIOD}). */
    public Builder leasePeriod(Duration value) {
      return set(KnobCatalog.LEASE_PERIOD, Objects.requireNonNull(value, "leasePeriod"));
    }

    /** Sets {@link TaskQConfig#heartbeatInterval()} ({@code TASKQ_HEARTBEAT_INTERVAL}). */
    public Builder heartbeatInterval(Duration value) {
      return set(
          KnobCatalog.HEARTBEAT_INTERVAL, Objects.requireNonNull(value, "heartbeatInterval"));
    }

    /** Sets {@link TaskQConfig#workerStaleAfter()} ({@code TASKQ_WORKER_STALE_AFTER}). */
    public Builder workerStaleAfter(Duration value) {
      return set(KnobCatalog.WORKER_STALE_AFTER, Objects.requireNonNull(value, "workerStaleAfter"));
    }

    /** Sets {@link TaskQConfig#pollInterval()} ({@code TASKQ_POLL_INTERVAL}). */
    public Builder pollInterval(Duration value) {
      return set(KnobCatalog.POLL_INTERVAL, Objects.requireNonNull(value, "pollInterval"));
    }

    /** Sets {@link TaskQConfig#shutdownGrace()} ({@code TASKQ_SHUTDOWN_GRACE}). */
    public Builder shutdownGrace(Duration value) {
      return set(KnobCatalog.SHUTDOWN_GRACE, Objects.requireNonNull(value, "shutdownGrace"));
    }

    /** Sets {@link TaskQConfig#resultTtl()} ({@code TASKQ_RESULT_TTL}). */
    public Builder resultTtl(Duration value) {
      return set(KnobCatalog.RESULT_TTL, Objects.requireNonNull(value, "resultTtl"));
    }

    /** Sets {@link TaskQConfig#maxPayloadBytes()} ({@code TASKQ_MAX_PAYLOAD_BYTES}). */
    public Builder maxPayloadBytes(int value) {
      return set(KnobCatalog.MAX_PAYLOAD_BYTES, value);
    }

    /** Sets {@link TaskQConfig#httpPort()} ({@code TASKQ_HTTP_PORT}). */
    public Builder httpPort(int value) {
      return set(KnobCatalog.HTTP_PORT, value);
    }

    /** Sets {@link TaskQConfig#migrate()} ({@code TASKQ_MIGRATE}): apply, verify or skip. */
    public Builder migrate(String value) {
      return set(KnobCatalog.MIGRATE, Objects.requireNonNull(value, "migrate"));
    }

    /** Sets {@link TaskQConfig#httpBind()} ({@code TASKQ_HTTP_BIND}). */
    public Builder httpBind(String value) {
      return set(KnobCatalog.HTTP_BIND, Objects.requireNonNull(value, "httpBind"));
    }

    /** Sets {@link TaskQConfig#dashboardPort()} ({@code TASKQ_DASHBOARD_PORT}). */
    public Builder dashboardPort(int value) {
      return set(KnobCatalog.DASHBOARD_PORT, value);
    }

    /** Sets {@link TaskQConfig#dashboardBind()} ({@code TASKQ_DASHBOARD_BIND}). */
    public Builder dashboardBind(String value) {
      return set(KnobCatalog.DASHBOARD_BIND, Objects.requireNonNull(value, "dashboardBind"));
    }

    /** Sets {@link TaskQConfig#dashboardPath()} ({@code TASKQ_DASHBOARD_PATH}). */
    public Builder dashboardPath(String value) {
      return set(KnobCatalog.DASHBOARD_PATH, Objects.requireNonNull(value, "dashboardPath"));
    }

    /** Sets {@link TaskQConfig#dashboardReadOnly()} ({@code TASKQ_DASHBOARD_READ_ONLY}). */
    public Builder dashboardReadOnly(boolean value) {
      return set(KnobCatalog.DASHBOARD_READ_ONLY, value);
    }

    /**
     * Sets {@link TaskQConfig#dashboardToken()} ({@code TASKQ_DASHBOARD_TOKEN}); an empty string
     * unsets it.
     */
    public Builder dashboardToken(String value) {
      return setText(KnobCatalog.DASHBOARD_TOKEN, Objects.requireNonNull(value, "dashboardToken"));
    }

    /**
     * Sets {@link TaskQConfig#dashboardUser()} ({@code TASKQ_DASHBOARD_USER}); an empty string
     * unsets it.
     */
    public Builder dashboardUser(String value) {
      return setText(KnobCatalog.DASHBOARD_USER, Objects.requireNonNull(value, "dashboardUser"));
    }

    /**
     * Sets {@link TaskQConfig#dashboardPassword()} ({@code TASKQ_DASHBOARD_PASSWORD}); an empty
     * string unsets it.
     */
    public Builder dashboardPassword(String value) {
      return setText(
          KnobCatalog.DASHBOARD_PASSWORD, Objects.requireNonNull(value, "dashboardPassword"));
    }

    /**
     * Sets {@link TaskQConfig#dashboardOrigin()} ({@code TASKQ_DASHBOARD_ORIGIN}); an empty string
     * unsets it.
     */
    public Builder dashboardOrigin(String value) {
      return setText(
          KnobCatalog.DASHBOARD_ORIGIN, Objects.requireNonNull(value, "dashboardOrigin"));
    }

    /**
     * Sets the knob of {@code envName} (e.g. {@code TASKQ_CLAIM_BATCH_SIZE}) as text a framework
     * read from its own property {@code name} (e.g. {@code taskq.claim-batch-size}) at {@code
     * origin} (e.g. {@code "class path resource [application.yml] - 3:22"}). The text is parsed and
     * checked by {@link #build()} like an environment variable's, and its problems name {@code
     * name} and {@code origin}. It wins over the environment; an environment value for the same
     * knob that differs is reported as a problem. A later setter call wins over it.
     *
     * @throws IllegalArgumentException when {@code envName} is not a setting's variable
     */
    public Builder setProperty(String envName, String text, String name, String origin) {
      Objects.requireNonNull(text, "text");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(origin, "origin");
      Knob<?> knob = KnobCatalog.byEnvName(Objects.requireNonNull(envName, "envName"));
      if (knob == null) {
        throw new IllegalArgumentException(envName + " is not a TaskQ setting");
      }
      draft.setProperty(knob, text, name, origin);
      return this;
    }

    /**
     * The configuration, once every setting and every rule between settings holds.
     *
     * @throws TaskQConfigException listing every problem, passwords masked
     */
    public TaskQConfig build() {
      return new TaskQConfig(draft.resolve());
    }

    private <T> Builder set(Knob<T> knob, T value) {
      draft.set(knob, value);
      return this;
    }

    private Builder setText(Knob<?> knob, String text) {
      draft.setText(knob, text);
      return this;
    }

    private static List<String> nonNullCopy(List<String> list, String setter) {
      Objects.requireNonNull(list, setter);
      List<String> copy = new ArrayList<>(list.size());
      for (int i = 0; i < list.size(); i++) {
        copy.add(Objects.requireNonNull(list.get(i), setter + "[" + i + "]"));
      }
      return List.copyOf(copy);
    }
  }
}
