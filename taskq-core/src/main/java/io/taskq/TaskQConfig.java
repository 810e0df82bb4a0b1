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

  /** {@return a builder starting from the defaults} */
  public static Builder builder() {
    return new Builder(new SettingsDraft());
  }

  /**
   * {@return a builder starting from the {@code TASKQ_*} variables of {@code env} over the
   * defaults; its setters override the environment} Problems in {@code env} are reported by {@link
   * Builder#build()}, together with any in the setters.
   *
   * @param env the environment variables, by name
   */
  public static Builder builder(Map<String, String> env) {
    SettingsDraft draft = new SettingsDraft();
    draft.readEnvironment(env);
    return new Builder(draft);
  }

  /**
   * {@return the configuration the {@code TASKQ_*} variables of {@code env} describe}
   *
   * @param env the environment variables, by name
   * @throws TaskQConfigException listing every bad or unknown variable
   */
  public static TaskQConfig fromEnv(Map<String, String> env) {
    return builder(env).build();
  }

  /**
   * {@return the configuration this process's environment describes}
   *
   * @throws TaskQConfigException listing every bad or unknown variable
   */
  public static TaskQConfig fromEnv() {
    return fromEnv(System.getenv());
  }

  /** {@return every knob at its default} */
  public static TaskQConfig defaults() {
    return builder().build();
  }

  /**
   * {@return every setting, in documentation order: the catalog a framework integration maps its
   * own properties onto (the Spring Boot starter's {@code taskq.*} keys), so that they are
   * validated with the same rules and reported in the same message as {@code TASKQ_*} variables}
   */
  public static List<TaskQSetting> settings() {
    return TaskQSetting.ALL;
  }

  /** {@return a builder holding this configuration's values, to derive a changed copy} */
  public Builder newBuilder() {
    return new Builder(SettingsDraft.of(values));
  }

  /**
   * {@return one line per knob, {@code TASKQ_NAME=value (source)}, passwords masked: what a
   * start-up log should print}
   */
  public List<String> describe() {
    return values.describe();
  }

  /**
   * {@return the rows one committed batch of any {@code job_events} writer (reclaim and deadline
   * sweeps, bulk cancel, deregistration) may touch; also the batch bound of the other drained
   * sweeps} When TaskQSweepTimeouts fires, lower this rather than raising the statement timeout
   * (guide §3).
   *
   * <p>Default: 100. Range: 1..10000.
   */
  public int eventWriterBatchSize() {
    return values.get(KnobCatalog.EVENT_WRITER_BATCH_SIZE);
  }

  /**
   * {@return the server-side {@code statement_timeout} set on each event-writer batch: the
   * enforcement that keeps a batch inside the visibility margin (guide §2)} Must stay below {@link
   * #reclaimEventVisibilityDelay()} (7/8 of it by default) and below {@link #socketTimeout()}. A
   * bare number in {@code TASKQ_EVENT_WRITER_STATEMENT_TIMEOUT_MS} counts milliseconds.
   *
   * <p>Default: 1750ms. Range: 1ms..1h.
   */
  public Duration eventWriterStatementTimeout() {
    return values.get(KnobCatalog.EVENT_WRITER_STATEMENT_TIMEOUT);
  }

  /**
   * {@return the trailing-watermark margin of the crash-reclaim event feed: only events older than
   * this are delivered, so a sibling writer has time to commit first} Raise {@link
   * #eventWriterStatementTimeout()} with it, keeping it below.
   *
   * <p>Default: 2s. Range: 100ms..1h.
   */
  public Duration reclaimEventVisibilityDelay() {
    return values.get(KnobCatalog.RECLAIM_EVENT_VISIBILITY_DELAY);
  }

  /**
   * {@return the divisor of the sweep breaker's reduced tier, which is {@code max(1,
   * eventWriterBatchSize / divisor)} (T2)}
   *
   * <p>Default: 4. Range: 1..10000.
   */
  public int eventWriterReducedBatchDivisor() {
    return values.get(KnobCatalog.EVENT_WRITER_REDUCED_BATCH_DIVISOR);
  }

  /**
   * {@return the consecutive aborted batches, within {@link #sweepBreakerWindow()}, that latch a
   * sweep to the reduced tier for the rest of the process (T2)}
   *
   * <p>Default: 3. Range: 1..1000.
   */
  public int sweepBreakerFailureThreshold() {
    return values.get(KnobCatalog.SWEEP_BREAKER_FAILURE_THRESHOLD);
  }

  /**
   * {@return the rolling window in which {@link #sweepBreakerFailureThreshold()} consecutive aborts
   * latch the breaker} A bare number in {@code TASKQ_SWEEP_BREAKER_WINDOW_SECS} counts seconds.
   *
   * <p>Default: 10m. Range: 1s..7d.
   */
  public Duration sweepBreakerWindow() {
    return values.get(KnobCatalog.SWEEP_BREAKER_WINDOW);
  }

  /**
   * {@return the batches one sweep may run per sweep-loop tick before leaving the rest to the next
   * tick; raise it for a known-large recovery rather than removing the bound}
   *
   * <p>Default: 8. Range: 1..10000.
   */
  public int sweepDrainBatches() {
    return values.get(KnobCatalog.SWEEP_DRAIN_BATCHES);
  }

  /**
   * {@return the period of the leader's sweep loop} It also sets the readiness detector: a sweep
   * without success for three intervals is reported degraded (O7).
   *
   * <p>Default: 30s. Range: 100ms..1d.
   */
  public Duration sweepInterval() {
    return values.get(KnobCatalog.SWEEP_INTERVAL);
  }

  /**
   * {@return the schedules one cron tick selects and fires; a larger catch-up drains across the
   * one-second ticks}
   *
   * <p>Default: 100. Range: 1..10000.
   */
  public int cronTickLimit() {
    return values.get(KnobCatalog.CRON_TICK_LIMIT);
  }

  /**
   * {@return the consecutive failures after which a cron schedule is disabled; 0 never disables
   * one}
   *
   * <p>Default: 10. Range: 0..100000.
   */
  public int cronAutoDisableThreshold() {
    return values.get(KnobCatalog.CRON_AUTO_DISABLE_THRESHOLD);
  }

  /**
   * {@return the age after which the event TTL sweep deletes {@code job_events} rows; 0 turns the
   * sweep off}
   *
   * <p>Default: 7d. Range: 0 (event TTL sweep off) or 1m..3650d.
   */
  public Duration eventRetentionPeriod() {
    return values.get(KnobCatalog.EVENT_RETENTION_PERIOD);
  }

  /**
   * {@return the idle time after which orphaned keyed reservation-slot and rate-limit rows are
   * deleted; 0 turns the sweep off}
   *
   * <p>Default: 1h. Range: 0 (keyed-row sweep off) or 1s..365d.
   */
  public Duration keyedRowReclaimPeriod() {
    return values.get(KnobCatalog.KEYED_ROW_RECLAIM_PERIOD);
  }

  /**
   * {@return the rows per committed batch of the daily prune and archive expiry}
   *
   * <p>Default: 10000. Range: 1..1000000.
   */
  public int pruneBatchSize() {
    return values.get(KnobCatalog.PRUNE_BATCH_SIZE);
  }

  /**
   * {@return the PostgreSQL schema holding this deployment's tables; it also qualifies lock names,
   * NOTIFY channels and Redis keys, so it is the deployment boundary (M1-M3)}
   *
   * <p>Default: taskq. Range: 1..63 UTF-8 bytes, no double quote or control character, not starting
   * with pg_.
   */
  public SchemaName schemaName() {
    return values.get(KnobCatalog.SCHEMA_NAME);
  }

  /**
   * {@return the deployment-wide ceiling on every retry delay, applied on top of each job's own
   * policy cap}
   *
   * <p>Default: 1h. Range: 1ms..365d.
   */
  public Duration maxRetryBackoff() {
    return values.get(KnobCatalog.MAX_RETRY_BACKOFF);
  }

  /**
   * {@return the deadline of one dispatcher command (a claim, a cron tick), so a stalled server
   * fails the command instead of stalling its loop} Must stay below {@link #socketTimeout()}.
   *
   * <p>Default: 5s. Range: 1ms..1h.
   */
  public Duration dispatcherCommandTimeout() {
    return values.get(KnobCatalog.DISPATCHER_COMMAND_TIMEOUT);
  }

  /**
   * {@return the keyed reservations one worker's registry holds at most; idle ones are evicted
   * beyond it}
   *
   * <p>Default: 10000. Range: 1..10000000.
   */
  public int maxKeyedReservations() {
    return values.get(KnobCatalog.MAX_KEYED_RESERVATIONS);
  }

  /**
   * {@return the keyed rate limits one worker's registry holds at most; idle ones are evicted
   * beyond it}
   *
   * <p>Default: 10000. Range: 1..10000000.
   */
  public int maxKeyedRateLimits() {
    return values.get(KnobCatalog.MAX_KEYED_RATE_LIMITS);
  }

  /**
   * {@return the UTC time of day of the daily prune, which moves terminal jobs older than {@link
   * #pruneAfter()} to {@code jobs_archive}}
   *
   * <p>Default: 03:00. Range: HH:mm or HH:mm:ss, UTC.
   */
  public LocalTime pruneTime() {
    return values.get(KnobCatalog.PRUNE_TIME);
  }

  /**
   * {@return the UTC time of day of the daily archive expiry, which deletes archived jobs older
   * than {@link #archiveRetention()}}
   *
   * <p>Default: 04:00. Range: HH:mm or HH:mm:ss, UTC.
   */
  public LocalTime archiveExpiryTime() {
    return values.get(KnobCatalog.ARCHIVE_EXPIRY_TIME);
  }

  /**
   * {@return the age after which the daily prune moves a terminal job to {@code jobs_archive}}
   *
   * <p>Default: 7d. Range: 1m..3650d.
   */
  public Duration pruneAfter() {
    return values.get(KnobCatalog.PRUNE_AFTER);
  }

  /**
   * {@return the age after which an archived job is deleted for good}
   *
   * <p>Default: 30d. Range: 1m..3650d.
   */
  public Duration archiveRetention() {
    return values.get(KnobCatalog.ARCHIVE_RETENTION);
  }

  /**
   * {@return the JDBC URL of the PostgreSQL database} It may carry a user and password; the
   * password is masked wherever the URL is shown. Unset: the application hands TaskQ its own {@code
   * DataSource}.
   *
   * <p>Default: unset. Range: unset, or a URL starting with jdbc:postgresql:.
   */
  public Optional<String> databaseUrl() {
    return values.get(KnobCatalog.DATABASE_URL);
  }

  /**
   * {@return the database user, when the URL does not carry one}
   *
   * <p>Default: unset. Range: unset, or text without control characters.
   */
  public Optional<String> databaseUser() {
    return values.get(KnobCatalog.DATABASE_USER);
  }

  /**
   * {@return the database password, when the URL does not carry one} Never shown: {@code toString}
   * and error messages print {@code ***}.
   *
   * <p>Default: unset. Range: unset, or any text.
   */
  public Optional<String> databasePassword() {
    return values.get(KnobCatalog.DATABASE_PASSWORD);
  }

  /**
   * {@return the JDBC URL of a direct (not transaction-pooled) connection, used for the leader's
   * session advisory lock and for LISTEN, which a PgBouncer in {@code pool_mode=transaction} breaks
   * (D8)} Unset: {@link #databaseUrl()} is used.
   *
   * <p>Default: unset. Range: unset, or a URL starting with jdbc:postgresql:.
   */
  public Optional<String> databaseDirectUrl() {
    return values.get(KnobCatalog.DATABASE_DIRECT_URL);
  }

  /**
   * {@return the most connections the pool opens}
   *
   * <p>Default: 10. Range: 1..1000.
   */
  public int databasePoolSize() {
    return values.get(KnobCatalog.DATABASE_POOL_SIZE);
  }

  /**
   * {@return the HikariCP {@code keepaliveTime}: how often an idle pooled connection is probed, so
   * a dead peer is found before a borrower meets it (D10)} HikariCP requires at least 30s and less
   * than the pool's maximum lifetime.
   *
   * <p>Default: 2m. Range: 30s..20m.
   */
  public Duration databaseKeepaliveTime() {
    return values.get(KnobCatalog.DATABASE_KEEPALIVE_TIME);
  }

  /**
   * {@return the PgJDBC {@code socketTimeout}: the longest one read may block, so no thread hangs
   * on a frozen server (D10)} Must exceed {@link #eventWriterStatementTimeout()} and {@link
   * #dispatcherCommandTimeout()}; whole seconds, because PgJDBC counts seconds.
   *
   * <p>Default: 30s. Range: whole seconds, 1s..1h.
   */
  public Duration socketTimeout() {
    return values.get(KnobCatalog.SOCKET_TIMEOUT);
  }

  /**
   * {@return the PgJDBC {@code connectTimeout} (D10); whole seconds, because PgJDBC counts seconds}
   *
   * <p>Default: 10s. Range: whole seconds, 1s..10m.
   */
  public Duration connectTimeout() {
    return values.get(KnobCatalog.CONNECT_TIMEOUT);
  }

  /**
   * {@return the Redis URL; a password in it is masked wherever the URL is shown} Unset: TaskQ runs
   * without Redis.
   *
   * <p>Default: unset. Range: unset, or a URL starting with redis://, rediss://, redis-socket:// or
   * redis-sentinel://.
   */
  public Optional<String> redisUrl() {
    return values.get(KnobCatalog.REDIS_URL);
  }

  /**
   * {@return the deadline of one Redis command}
   *
   * <p>Default: 2s. Range: 1ms..1h.
   */
  public Duration redisCommandTimeout() {
    return values.get(KnobCatalog.REDIS_COMMAND_TIMEOUT);
  }

  /**
   * {@return the jobs one worker runs at the same time}
   *
   * <p>Default: 8. Range: 1..10000.
   */
  public int workerConcurrency() {
    return values.get(KnobCatalog.WORKER_CONCURRENCY);
  }

  /**
   * {@return the queues this worker claims from; in the environment a comma-separated list}
   *
   * <p>Default: default. Range: 1 or more distinct queue names, each 1..128 characters without NUL
   * or comma.
   */
  public List<String> workerQueues() {
    return values.get(KnobCatalog.WORKER_QUEUES);
  }

  /**
   * {@return the jobs one claim statement takes at most; never more than the worker's free slots}
   *
   * <p>Default: 256. Range: 1..1000.
   */
  public int claimBatchSize() {
    return values.get(KnobCatalog.CLAIM_BATCH_SIZE);
  }

  /**
   * {@return how long a claimed job's lease lasts without a heartbeat before the reclaim sweep may
   * take the job back}
   *
   * <p>Default: 30s. Range: 1s..1d.
   */
  public Duration leasePeriod() {
    return values.get(KnobCatalog.LEASE_PERIOD);
  }

  /**
   * {@return how often a worker renews its running jobs' leases and its own liveness} Must be
   * shorter than {@link #leasePeriod()} and {@link #workerStaleAfter()}.
   *
   * <p>Default: 5s. Range: 100ms..1h.
   */
  public Duration heartbeatInterval() {
    return values.get(KnobCatalog.HEARTBEAT_INTERVAL);
  }

  /**
   * {@return the heartbeat silence after which a worker is deemed dead and its row is cleaned up}
   * Must exceed {@link #heartbeatInterval()}.
   *
   * <p>Default: 1m. Range: 1s..7d.
   */
  public Duration workerStaleAfter() {
    return values.get(KnobCatalog.WORKER_STALE_AFTER);
  }

  /**
   * {@return the polling fallback: how often a waiting loop looks for work when no notification
   * arrives (D11)}
   *
   * <p>Default: 1s. Range: 10ms..1h.
   */
  public Duration pollInterval() {
    return values.get(KnobCatalog.POLL_INTERVAL);
  }

  /**
   * {@return how long shutdown waits for running jobs to finish; 0 does not wait}
   *
   * <p>Default: 30s. Range: 0 (do not wait) or 1ms..1h.
   */
  public Duration shutdownGrace() {
    return values.get(KnobCatalog.SHUTDOWN_GRACE);
  }

  /**
   * {@return how long a job's stored result is kept; 0 stores no results}
   *
   * <p>Default: 1d. Range: 0 (results not stored) or 1s..3650d.
   */
  public Duration resultTtl() {
    return values.get(KnobCatalog.RESULT_TTL);
  }

  /**
   * {@return the largest job payload accepted at enqueue, in bytes; the environment also takes
   * {@code 512KiB} or {@code 1MiB}}
   *
   * <p>Default: 1MiB. Range: 1..268435456.
   */
  public int maxPayloadBytes() {
    return values.get(KnobCatalog.MAX_PAYLOAD_BYTES);
  }

  /**
   * {@return the port of the HTTP readiness endpoint ({@code /ready}); 0 turns the endpoint off}
   *
   * <p>Default: 0. Range: 0..65535.
   */
  public int httpPort() {
    return values.get(KnobCatalog.HTTP_PORT);
  }

  /**
   * {@return what {@code TaskQ.start()} does with the schema's migrations (A7): {@code apply} what
   * is pending (needs CREATE only when something is), {@code verify} that the schema is current and
   * refuse to start otherwise (no CREATE needed), or {@code skip} the check (the schema is managed
   * elsewhere)}
   *
   * <p>Default: apply. Range: apply, verify or skip.
   */
  public String migrate() {
    return values.get(KnobCatalog.MIGRATE);
  }

  /**
   * {@return the address the HTTP endpoint binds to}
   *
   * <p>Default: 127.0.0.1. Range: a host name or IP address.
   */
  public String httpBind() {
    return values.get(KnobCatalog.HTTP_BIND);
  }

  /**
   * {@return the port of the standalone web dashboard ({@code docs/dashboard.md}); 0 turns it off}
   *
   * <p>Default: 0. Range: 0..65535.
   */
  public int dashboardPort() {
    return values.get(KnobCatalog.DASHBOARD_PORT);
  }

  /**
   * {@return the address the standalone web dashboard binds to}
   *
   * <p>Default: 127.0.0.1. Range: a host name or IP address.
   */
  public String dashboardBind() {
    return values.get(KnobCatalog.DASHBOARD_BIND);
  }

  /**
   * {@return the path the web dashboard is served under}
   *
   * <p>Default: /taskq. Range: / or /segment[/segment...] of letters, digits and ._~-.
   */
  public String dashboardPath() {
    return values.get(KnobCatalog.DASHBOARD_PATH);
  }

  /**
   * {@return whether the web dashboard refuses every state change (retry, cancel, pause, ...)}
   *
   * <p>Default: false. Range: true or false.
   */
  public boolean dashboardReadOnly() {
    return values.get(KnobCatalog.DASHBOARD_READ_ONLY);
  }

  /**
   * {@return the token that signs a user in to the web dashboard} Never shown.
   *
   * <p>Default: unset. Range: unset, or at least 16 characters.
   */
  public Optional<String> dashboardToken() {
    return values.get(KnobCatalog.DASHBOARD_TOKEN);
  }

  /**
   * {@return the user name that signs in to the web dashboard with {@link #dashboardPassword()}}
   *
   * <p>Default: unset. Range: unset, or text without control characters.
   */
  public Optional<String> dashboardUser() {
    return values.get(KnobCatalog.DASHBOARD_USER);
  }

  /**
   * {@return the password of {@link #dashboardUser()}} Never shown.
   *
   * <p>Default: unset. Range: unset, or at least 8 characters.
   */
  public Optional<String> dashboardPassword() {
    return values.get(KnobCatalog.DASHBOARD_PASSWORD);
  }

  /**
   * {@return the public origin of the web dashboard behind a proxy that rewrites the host; state
   * changes are accepted from it besides the request's own host}
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

    /**
     * Sets {@link TaskQConfig#eventWriterBatchSize()} ({@code TASKQ_EVENT_WRITER_BATCH_SIZE}).
     *
     * @param value the new {@link TaskQConfig#eventWriterBatchSize()}
     * @return this builder
     */
    public Builder eventWriterBatchSize(int value) {
      return set(KnobCatalog.EVENT_WRITER_BATCH_SIZE, value);
    }

    /**
     * Sets {@link TaskQConfig#eventWriterStatementTimeout()} ({@code
     * TASKQ_EVENT_WRITER_STATEMENT_TIMEOUT_MS}).
     *
     * @param value the new {@link TaskQConfig#eventWriterStatementTimeout()}
     * @return this builder
     */
    public Builder eventWriterStatementTimeout(Duration value) {
      return set(
          KnobCatalog.EVENT_WRITER_STATEMENT_TIMEOUT,
          Objects.requireNonNull(value, "eventWriterStatementTimeout"));
    }

    /**
     * Sets {@link TaskQConfig#reclaimEventVisibilityDelay()} ({@code
     * TASKQ_RECLAIM_EVENT_VISIBILITY_DELAY}).
     *
     * @param value the new {@link TaskQConfig#reclaimEventVisibilityDelay()}
     * @return this builder
     */
    public Builder reclaimEventVisibilityDelay(Duration value) {
      return set(
          KnobCatalog.RECLAIM_EVENT_VISIBILITY_DELAY,
          Objects.requireNonNull(value, "reclaimEventVisibilityDelay"));
    }

    /**
     * Sets {@link TaskQConfig#eventWriterReducedBatchDivisor()} ({@code
     * TASKQ_EVENT_WRITER_REDUCED_BATCH_DIVISOR}).
     *
     * @param value the new {@link TaskQConfig#eventWriterReducedBatchDivisor()}
     * @return this builder
     */
    public Builder eventWriterReducedBatchDivisor(int value) {
      return set(KnobCatalog.EVENT_WRITER_REDUCED_BATCH_DIVISOR, value);
    }

    /**
     * Sets {@link TaskQConfig#sweepBreakerFailureThreshold()} ({@code
     * TASKQ_SWEEP_BREAKER_FAILURE_THRESHOLD}).
     *
     * @param value the new {@link TaskQConfig#sweepBreakerFailureThreshold()}
     * @return this builder
     */
    public Builder sweepBreakerFailureThreshold(int value) {
      return set(KnobCatalog.SWEEP_BREAKER_FAILURE_THRESHOLD, value);
    }

    /**
     * Sets {@link TaskQConfig#sweepBreakerWindow()} ({@code TASKQ_SWEEP_BREAKER_WINDOW_SECS}).
     *
     * @param value the new {@link TaskQConfig#sweepBreakerWindow()}
     * @return this builder
     */
    public Builder sweepBreakerWindow(Duration value) {
      return set(
          KnobCatalog.SWEEP_BREAKER_WINDOW, Objects.requireNonNull(value, "sweepBreakerWindow"));
    }

    /**
     * Sets {@link TaskQConfig#sweepDrainBatches()} ({@code TASKQ_SWEEP_DRAIN_BATCHES}).
     *
     * @param value the new {@link TaskQConfig#sweepDrainBatches()}
     * @return this builder
     */
    public Builder sweepDrainBatches(int value) {
      return set(KnobCatalog.SWEEP_DRAIN_BATCHES, value);
    }

    /**
     * Sets {@link TaskQConfig#sweepInterval()} ({@code TASKQ_SWEEP_INTERVAL}).
     *
     * @param value the new {@link TaskQConfig#sweepInterval()}
     * @return this builder
     */
    public Builder sweepInterval(Duration value) {
      return set(KnobCatalog.SWEEP_INTERVAL, Objects.requireNonNull(value, "sweepInterval"));
    }

    /**
     * Sets {@link TaskQConfig#cronTickLimit()} ({@code TASKQ_CRON_TICK_LIMIT}).
     *
     * @param value the new {@link TaskQConfig#cronTickLimit()}
     * @return this builder
     */
    public Builder cronTickLimit(int value) {
      return set(KnobCatalog.CRON_TICK_LIMIT, value);
    }

    /**
     * Sets {@link TaskQConfig#cronAutoDisableThreshold()} ({@code
     * TASKQ_CRON_AUTO_DISABLE_THRESHOLD}).
     *
     * @param value the new {@link TaskQConfig#cronAutoDisableThreshold()}
     * @return this builder
     */
    public Builder cronAutoDisableThreshold(int value) {
      return set(KnobCatalog.CRON_AUTO_DISABLE_THRESHOLD, value);
    }

    /**
     * Sets {@link TaskQConfig#eventRetentionPeriod()} ({@code TASKQ_EVENT_RETENTION_PERIOD}).
     *
     * @param value the new {@link TaskQConfig#eventRetentionPeriod()}
     * @return this builder
     */
    public Builder eventRetentionPeriod(Duration value) {
      return set(
          KnobCatalog.EVENT_RETENTION_PERIOD,
          Objects.requireNonNull(value, "eventRetentionPeriod"));
    }

    /**
     * Sets {@link TaskQConfig#keyedRowReclaimPeriod()} ({@code TASKQ_KEYED_ROW_RECLAIM_PERIOD}).
     *
     * @param value the new {@link TaskQConfig#keyedRowReclaimPeriod()}
     * @return this builder
     */
    public Builder keyedRowReclaimPeriod(Duration value) {
      return set(
          KnobCatalog.KEYED_ROW_RECLAIM_PERIOD,
          Objects.requireNonNull(value, "keyedRowReclaimPeriod"));
    }

    /**
     * Sets {@link TaskQConfig#pruneBatchSize()} ({@code TASKQ_PRUNE_BATCH_SIZE}).
     *
     * @param value the new {@link TaskQConfig#pruneBatchSize()}
     * @return this builder
     */
    public Builder pruneBatchSize(int value) {
      return set(KnobCatalog.PRUNE_BATCH_SIZE, value);
    }

    /**
     * Sets {@link TaskQConfig#schemaName()} ({@code TASKQ_SCHEMA_NAME}).
     *
     * @param value the new {@link TaskQConfig#schemaName()}
     * @return this builder
     */
    public Builder schemaName(SchemaName value) {
      return set(KnobCatalog.SCHEMA_NAME, Objects.requireNonNull(value, "schemaName"));
    }

    /**
     * Sets {@link TaskQConfig#schemaName()} from text, checked by {@link #build()}.
     *
     * @param value the new {@link TaskQConfig#schemaName()}
     * @return this builder
     */
    public Builder schemaName(String value) {
      return setText(KnobCatalog.SCHEMA_NAME, Objects.requireNonNull(value, "schemaName"));
    }

    /**
     * Sets {@link TaskQConfig#maxRetryBackoff()} ({@code TASKQ_MAX_RETRY_BACKOFF}).
     *
     * @param value the new {@link TaskQConfig#maxRetryBackoff()}
     * @return this builder
     */
    public Builder maxRetryBackoff(Duration value) {
      return set(KnobCatalog.MAX_RETRY_BACKOFF, Objects.requireNonNull(value, "maxRetryBackoff"));
    }

    /**
     * Sets {@link TaskQConfig#dispatcherCommandTimeout()} ({@code
     * TASKQ_DISPATCHER_COMMAND_TIMEOUT}).
     *
     * @param value the new {@link TaskQConfig#dispatcherCommandTimeout()}
     * @return this builder
     */
    public Builder dispatcherCommandTimeout(Duration value) {
      return set(
          KnobCatalog.DISPATCHER_COMMAND_TIMEOUT,
          Objects.requireNonNull(value, "dispatcherCommandTimeout"));
    }

    /**
     * Sets {@link TaskQConfig#maxKeyedReservations()} ({@code TASKQ_MAX_KEYED_RESERVATIONS}).
     *
     * @param value the new {@link TaskQConfig#maxKeyedReservations()}
     * @return this builder
     */
    public Builder maxKeyedReservations(int value) {
      return set(KnobCatalog.MAX_KEYED_RESERVATIONS, value);
    }

    /**
     * Sets {@link TaskQConfig#maxKeyedRateLimits()} ({@code TASKQ_MAX_KEYED_RATE_LIMITS}).
     *
     * @param value the new {@link TaskQConfig#maxKeyedRateLimits()}
     * @return this builder
     */
    public Builder maxKeyedRateLimits(int value) {
      return set(KnobCatalog.MAX_KEYED_RATE_LIMITS, value);
    }

    /**
     * Sets {@link TaskQConfig#pruneTime()} ({@code TASKQ_PRUNE_TIME}).
     *
     * @param value the new {@link TaskQConfig#pruneTime()}
     * @return this builder
     */
    public Builder pruneTime(LocalTime value) {
      return set(KnobCatalog.PRUNE_TIME, Objects.requireNonNull(value, "pruneTime"));
    }

    /**
     * Sets {@link TaskQConfig#archiveExpiryTime()} ({@code TASKQ_ARCHIVE_EXPIRY_TIME}).
     *
     * @param value the new {@link TaskQConfig#archiveExpiryTime()}
     * @return this builder
     */
    public Builder archiveExpiryTime(LocalTime value) {
      return set(
          KnobCatalog.ARCHIVE_EXPIRY_TIME, Objects.requireNonNull(value, "archiveExpiryTime"));
    }

    /**
     * Sets {@link TaskQConfig#pruneAfter()} ({@code TASKQ_PRUNE_AFTER}).
     *
     * @param value the new {@link TaskQConfig#pruneAfter()}
     * @return this builder
     */
    public Builder pruneAfter(Duration value) {
      return set(KnobCatalog.PRUNE_AFTER, Objects.requireNonNull(value, "pruneAfter"));
    }

    /**
     * Sets {@link TaskQConfig#archiveRetention()} ({@code TASKQ_ARCHIVE_RETENTION}).
     *
     * @param value the new {@link TaskQConfig#archiveRetention()}
     * @return this builder
     */
    public Builder archiveRetention(Duration value) {
      return set(KnobCatalog.ARCHIVE_RETENTION, Objects.requireNonNull(value, "archiveRetention"));
    }

    /**
     * Sets {@link TaskQConfig#databaseUrl()} ({@code TASKQ_DATABASE_URL}); an empty string unsets
     * it.
     *
     * @param value the new {@link TaskQConfig#databaseUrl()}
     * @return this builder
     */
    public Builder databaseUrl(String value) {
      return setText(KnobCatalog.DATABASE_URL, Objects.requireNonNull(value, "databaseUrl"));
    }

    /**
     * Sets {@link TaskQConfig#databaseUser()} ({@code TASKQ_DATABASE_USER}); an empty string unsets
     * it.
     *
     * @param value the new {@link TaskQConfig#databaseUser()}
     * @return this builder
     */
    public Builder databaseUser(String value) {
      return setText(KnobCatalog.DATABASE_USER, Objects.requireNonNull(value, "databaseUser"));
    }

    /**
     * Sets {@link TaskQConfig#databasePassword()} ({@code TASKQ_DATABASE_PASSWORD}); an empty
     * string unsets it.
     *
     * @param value the new {@link TaskQConfig#databasePassword()}
     * @return this builder
     */
    public Builder databasePassword(String value) {
      return setText(
          KnobCatalog.DATABASE_PASSWORD, Objects.requireNonNull(value, "databasePassword"));
    }

    /**
     * Sets {@link TaskQConfig#databaseDirectUrl()} ({@code TASKQ_DATABASE_DIRECT_URL}); an empty
     * string unsets it.
     *
     * @param value the new {@link TaskQConfig#databaseDirectUrl()}
     * @return this builder
     */
    public Builder databaseDirectUrl(String value) {
      return setText(
          KnobCatalog.DATABASE_DIRECT_URL, Objects.requireNonNull(value, "databaseDirectUrl"));
    }

    /**
     * Sets {@link TaskQConfig#databasePoolSize()} ({@code TASKQ_DATABASE_POOL_SIZE}).
     *
     * @param value the new {@link TaskQConfig#databasePoolSize()}
     * @return this builder
     */
    public Builder databasePoolSize(int value) {
      return set(KnobCatalog.DATABASE_POOL_SIZE, value);
    }

    /**
     * Sets {@link TaskQConfig#databaseKeepaliveTime()} ({@code TASKQ_DATABASE_KEEPALIVE_TIME}).
     *
     * @param value the new {@link TaskQConfig#databaseKeepaliveTime()}
     * @return this builder
     */
    public Builder databaseKeepaliveTime(Duration value) {
      return set(
          KnobCatalog.DATABASE_KEEPALIVE_TIME,
          Objects.requireNonNull(value, "databaseKeepaliveTime"));
    }

    /**
     * Sets {@link TaskQConfig#socketTimeout()} ({@code TASKQ_SOCKET_TIMEOUT}).
     *
     * @param value the new {@link TaskQConfig#socketTimeout()}
     * @return this builder
     */
    public Builder socketTimeout(Duration value) {
      return set(KnobCatalog.SOCKET_TIMEOUT, Objects.requireNonNull(value, "socketTimeout"));
    }

    /**
     * Sets {@link TaskQConfig#connectTimeout()} ({@code TASKQ_CONNECT_TIMEOUT}).
     *
     * @param value the new {@link TaskQConfig#connectTimeout()}
     * @return this builder
     */
    public Builder connectTimeout(Duration value) {
      return set(KnobCatalog.CONNECT_TIMEOUT, Objects.requireNonNull(value, "connectTimeout"));
    }

    /**
     * Sets {@link TaskQConfig#redisUrl()} ({@code TASKQ_REDIS_URL}); an empty string unsets it.
     *
     * @param value the new {@link TaskQConfig#redisUrl()}
     * @return this builder
     */
    public Builder redisUrl(String value) {
      return setText(KnobCatalog.REDIS_URL, Objects.requireNonNull(value, "redisUrl"));
    }

    /**
     * Sets {@link TaskQConfig#redisCommandTimeout()} ({@code TASKQ_REDIS_COMMAND_TIMEOUT}).
     *
     * @param value the new {@link TaskQConfig#redisCommandTimeout()}
     * @return this builder
     */
    public Builder redisCommandTimeout(Duration value) {
      return set(
          KnobCatalog.REDIS_COMMAND_TIMEOUT, Objects.requireNonNull(value, "redisCommandTimeout"));
    }

    /**
     * Sets {@link TaskQConfig#workerConcurrency()} ({@code TASKQ_WORKER_CONCURRENCY}).
     *
     * @param value the new {@link TaskQConfig#workerConcurrency()}
     * @return this builder
     */
    public Builder workerConcurrency(int value) {
      return set(KnobCatalog.WORKER_CONCURRENCY, value);
    }

    /**
     * Sets {@link TaskQConfig#workerQueues()} ({@code TASKQ_WORKER_QUEUES}).
     *
     * @param value the new {@link TaskQConfig#workerQueues()}
     * @return this builder
     */
    public Builder workerQueues(List<String> value) {
      return set(KnobCatalog.WORKER_QUEUES, nonNullCopy(value, "workerQueues"));
    }

    /**
     * Sets {@link TaskQConfig#workerQueues()} ({@code TASKQ_WORKER_QUEUES}).
     *
     * @param value the new {@link TaskQConfig#workerQueues()}
     * @return this builder
     */
    public Builder workerQueues(String... value) {
      return workerQueues(Arrays.asList(Objects.requireNonNull(value, "workerQueues")));
    }

    /**
     * Sets {@link TaskQConfig#claimBatchSize()} ({@code TASKQ_CLAIM_BATCH_SIZE}).
     *
     * @param value the new {@link TaskQConfig#claimBatchSize()}
     * @return this builder
     */
    public Builder claimBatchSize(int value) {
      return set(KnobCatalog.CLAIM_BATCH_SIZE, value);
    }

    /**
     * Sets {@link TaskQConfig#leasePeriod()} ({@code TASKQ_LEASE_PERIOD}).
     *
     * @param value the new {@link TaskQConfig#leasePeriod()}
     * @return this builder
     */
    public Builder leasePeriod(Duration value) {
      return set(KnobCatalog.LEASE_PERIOD, Objects.requireNonNull(value, "leasePeriod"));
    }

    /**
     * Sets {@link TaskQConfig#heartbeatInterval()} ({@code TASKQ_HEARTBEAT_INTERVAL}).
     *
     * @param value the new {@link TaskQConfig#heartbeatInterval()}
     * @return this builder
     */
    public Builder heartbeatInterval(Duration value) {
      return set(
          KnobCatalog.HEARTBEAT_INTERVAL, Objects.requireNonNull(value, "heartbeatInterval"));
    }

    /**
     * Sets {@link TaskQConfig#workerStaleAfter()} ({@code TASKQ_WORKER_STALE_AFTER}).
     *
     * @param value the new {@link TaskQConfig#workerStaleAfter()}
     * @return this builder
     */
    public Builder workerStaleAfter(Duration value) {
      return set(KnobCatalog.WORKER_STALE_AFTER, Objects.requireNonNull(value, "workerStaleAfter"));
    }

    /**
     * Sets {@link TaskQConfig#pollInterval()} ({@code TASKQ_POLL_INTERVAL}).
     *
     * @param value the new {@link TaskQConfig#pollInterval()}
     * @return this builder
     */
    public Builder pollInterval(Duration value) {
      return set(KnobCatalog.POLL_INTERVAL, Objects.requireNonNull(value, "pollInterval"));
    }

    /**
     * Sets {@link TaskQConfig#shutdownGrace()} ({@code TASKQ_SHUTDOWN_GRACE}).
     *
     * @param value the new {@link TaskQConfig#shutdownGrace()}
     * @return this builder
     */
    public Builder shutdownGrace(Duration value) {
      return set(KnobCatalog.SHUTDOWN_GRACE, Objects.requireNonNull(value, "shutdownGrace"));
    }

    /**
     * Sets {@link TaskQConfig#resultTtl()} ({@code TASKQ_RESULT_TTL}).
     *
     * @param value the new {@link TaskQConfig#resultTtl()}
     * @return this builder
     */
    public Builder resultTtl(Duration value) {
      return set(KnobCatalog.RESULT_TTL, Objects.requireNonNull(value, "resultTtl"));
    }

    /**
     * Sets {@link TaskQConfig#maxPayloadBytes()} ({@code TASKQ_MAX_PAYLOAD_BYTES}).
     *
     * @param value the new {@link TaskQConfig#maxPayloadBytes()}
     * @return this builder
     */
    public Builder maxPayloadBytes(int value) {
      return set(KnobCatalog.MAX_PAYLOAD_BYTES, value);
    }

    /**
     * Sets {@link TaskQConfig#httpPort()} ({@code TASKQ_HTTP_PORT}).
     *
     * @param value the new {@link TaskQConfig#httpPort()}
     * @return this builder
     */
    public Builder httpPort(int value) {
      return set(KnobCatalog.HTTP_PORT, value);
    }

    /**
     * Sets {@link TaskQConfig#migrate()} ({@code TASKQ_MIGRATE}): apply, verify or skip.
     *
     * @param value the new {@link TaskQConfig#migrate()}
     * @return this builder
     */
    public Builder migrate(String value) {
      return set(KnobCatalog.MIGRATE, Objects.requireNonNull(value, "migrate"));
    }

    /**
     * Sets {@link TaskQConfig#httpBind()} ({@code TASKQ_HTTP_BIND}).
     *
     * @param value the new {@link TaskQConfig#httpBind()}
     * @return this builder
     */
    public Builder httpBind(String value) {
      return set(KnobCatalog.HTTP_BIND, Objects.requireNonNull(value, "httpBind"));
    }

    /**
     * Sets {@link TaskQConfig#dashboardPort()} ({@code TASKQ_DASHBOARD_PORT}).
     *
     * @param value the new {@link TaskQConfig#dashboardPort()}
     * @return this builder
     */
    public Builder dashboardPort(int value) {
      return set(KnobCatalog.DASHBOARD_PORT, value);
    }

    /**
     * Sets {@link TaskQConfig#dashboardBind()} ({@code TASKQ_DASHBOARD_BIND}).
     *
     * @param value the new {@link TaskQConfig#dashboardBind()}
     * @return this builder
     */
    public Builder dashboardBind(String value) {
      return set(KnobCatalog.DASHBOARD_BIND, Objects.requireNonNull(value, "dashboardBind"));
    }

    /**
     * Sets {@link TaskQConfig#dashboardPath()} ({@code TASKQ_DASHBOARD_PATH}).
     *
     * @param value the new {@link TaskQConfig#dashboardPath()}
     * @return this builder
     */
    public Builder dashboardPath(String value) {
      return set(KnobCatalog.DASHBOARD_PATH, Objects.requireNonNull(value, "dashboardPath"));
    }

    /**
     * Sets {@link TaskQConfig#dashboardReadOnly()} ({@code TASKQ_DASHBOARD_READ_ONLY}).
     *
     * @param value the new {@link TaskQConfig#dashboardReadOnly()}
     * @return this builder
     */
    public Builder dashboardReadOnly(boolean value) {
      return set(KnobCatalog.DASHBOARD_READ_ONLY, value);
    }

    /**
     * Sets {@link TaskQConfig#dashboardToken()} ({@code TASKQ_DASHBOARD_TOKEN}); an empty string
     * unsets it.
     *
     * @param value the new {@link TaskQConfig#dashboardToken()}
     * @return this builder
     */
    public Builder dashboardToken(String value) {
      return setText(KnobCatalog.DASHBOARD_TOKEN, Objects.requireNonNull(value, "dashboardToken"));
    }

    /**
     * Sets {@link TaskQConfig#dashboardUser()} ({@code TASKQ_DASHBOARD_USER}); an empty string
     * unsets it.
     *
     * @param value the new {@link TaskQConfig#dashboardUser()}
     * @return this builder
     */
    public Builder dashboardUser(String value) {
      return setText(KnobCatalog.DASHBOARD_USER, Objects.requireNonNull(value, "dashboardUser"));
    }

    /**
     * Sets {@link TaskQConfig#dashboardPassword()} ({@code TASKQ_DASHBOARD_PASSWORD}); an empty
     * string unsets it.
     *
     * @param value the new {@link TaskQConfig#dashboardPassword()}
     * @return this builder
     */
    public Builder dashboardPassword(String value) {
      return setText(
          KnobCatalog.DASHBOARD_PASSWORD, Objects.requireNonNull(value, "dashboardPassword"));
    }

    /**
     * Sets {@link TaskQConfig#dashboardOrigin()} ({@code TASKQ_DASHBOARD_ORIGIN}); an empty string
     * unsets it.
     *
     * @param value the new {@link TaskQConfig#dashboardOrigin()}
     * @return this builder
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
     * @param envName the knob's {@code TASKQ_*} variable
     * @param text the value as text
     * @param name the framework's property name, shown in problems
     * @param origin where the framework read it, shown in problems
     * @return this builder
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
     * {@return the configuration, once every setting and every rule between settings holds}
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
