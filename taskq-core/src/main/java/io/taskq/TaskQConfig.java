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
 * the variable ends in {@code _MS} and seconds otherwise.
 *
 * <p>Each accessor says in short what its knob is. The knob catalog, {@code docs/configuration.md},
 * has the rest for every {@code TASKQ_*} variable: its default, allowed range, full meaning, the
 * rules between knobs and when to change one; {@link #settings()} gives the same at run time. A
 * test keeps the page in step with the knobs' one definition.
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

  /** {@return the rows one committed batch of a {@code job_events} writer may touch} */
  public int eventWriterBatchSize() {
    return values.get(KnobCatalog.EVENT_WRITER_BATCH_SIZE);
  }

  /** {@return the {@code statement_timeout} of each event-writer batch} */
  public Duration eventWriterStatementTimeout() {
    return values.get(KnobCatalog.EVENT_WRITER_STATEMENT_TIMEOUT);
  }

  /** {@return the trailing-watermark margin of the crash-reclaim event feed} */
  public Duration reclaimEventVisibilityDelay() {
    return values.get(KnobCatalog.RECLAIM_EVENT_VISIBILITY_DELAY);
  }

  /** {@return the divisor of the sweep breaker's reduced tier (T2)} */
  public int eventWriterReducedBatchDivisor() {
    return values.get(KnobCatalog.EVENT_WRITER_REDUCED_BATCH_DIVISOR);
  }

  /** {@return the consecutive aborted batches that latch a sweep to the reduced tier (T2)} */
  public int sweepBreakerFailureThreshold() {
    return values.get(KnobCatalog.SWEEP_BREAKER_FAILURE_THRESHOLD);
  }

  /** {@return the window in which consecutive aborts latch the sweep breaker} */
  public Duration sweepBreakerWindow() {
    return values.get(KnobCatalog.SWEEP_BREAKER_WINDOW);
  }

  /** {@return the batches one sweep may run per sweep-loop tick} */
  public int sweepDrainBatches() {
    return values.get(KnobCatalog.SWEEP_DRAIN_BATCHES);
  }

  /** {@return the period of the leader's sweep loop} */
  public Duration sweepInterval() {
    return values.get(KnobCatalog.SWEEP_INTERVAL);
  }

  /** {@return the schedules one cron tick selects and fires} */
  public int cronTickLimit() {
    return values.get(KnobCatalog.CRON_TICK_LIMIT);
  }

  /** {@return the consecutive failures after which a cron schedule is disabled} */
  public int cronAutoDisableThreshold() {
    return values.get(KnobCatalog.CRON_AUTO_DISABLE_THRESHOLD);
  }

  /** {@return the age after which {@code job_events} rows are deleted} */
  public Duration eventRetentionPeriod() {
    return values.get(KnobCatalog.EVENT_RETENTION_PERIOD);
  }

  /** {@return the idle time after which orphaned keyed rows are deleted} */
  public Duration keyedRowReclaimPeriod() {
    return values.get(KnobCatalog.KEYED_ROW_RECLAIM_PERIOD);
  }

  /** {@return the rows per committed batch of the daily prune and archive expiry} */
  public int pruneBatchSize() {
    return values.get(KnobCatalog.PRUNE_BATCH_SIZE);
  }

  /** {@return the PostgreSQL schema holding this deployment's tables} */
  public SchemaName schemaName() {
    return values.get(KnobCatalog.SCHEMA_NAME);
  }

  /** {@return the deployment-wide ceiling on every retry delay} */
  public Duration maxRetryBackoff() {
    return values.get(KnobCatalog.MAX_RETRY_BACKOFF);
  }

  /** {@return the deadline of one dispatcher command (a claim, a cron tick)} */
  public Duration dispatcherCommandTimeout() {
    return values.get(KnobCatalog.DISPATCHER_COMMAND_TIMEOUT);
  }

  /** {@return the keyed reservations one worker's registry holds at most} */
  public int maxKeyedReservations() {
    return values.get(KnobCatalog.MAX_KEYED_RESERVATIONS);
  }

  /** {@return the keyed rate limits one worker's registry holds at most} */
  public int maxKeyedRateLimits() {
    return values.get(KnobCatalog.MAX_KEYED_RATE_LIMITS);
  }

  /** {@return the UTC time of day of the daily prune} */
  public LocalTime pruneTime() {
    return values.get(KnobCatalog.PRUNE_TIME);
  }

  /** {@return the UTC time of day of the daily archive expiry} */
  public LocalTime archiveExpiryTime() {
    return values.get(KnobCatalog.ARCHIVE_EXPIRY_TIME);
  }

  /** {@return the age after which the daily prune archives a terminal job} */
  public Duration pruneAfter() {
    return values.get(KnobCatalog.PRUNE_AFTER);
  }

  /** {@return the age after which an archived job is deleted for good} */
  public Duration archiveRetention() {
    return values.get(KnobCatalog.ARCHIVE_RETENTION);
  }

  /** {@return the JDBC URL of the PostgreSQL database} */
  public Optional<String> databaseUrl() {
    return values.get(KnobCatalog.DATABASE_URL);
  }

  /** {@return the database user, when the URL does not carry one} */
  public Optional<String> databaseUser() {
    return values.get(KnobCatalog.DATABASE_USER);
  }

  /** {@return the database password, when the URL does not carry one} */
  public Optional<String> databasePassword() {
    return values.get(KnobCatalog.DATABASE_PASSWORD);
  }

  /**
   * {@return the JDBC URL of a direct connection, not through a pooler, for the leader lock and
   * LISTEN (D8)}
   */
  public Optional<String> databaseDirectUrl() {
    return values.get(KnobCatalog.DATABASE_DIRECT_URL);
  }

  /** {@return the most connections the pool opens} */
  public int databasePoolSize() {
    return values.get(KnobCatalog.DATABASE_POOL_SIZE);
  }

  /** {@return the HikariCP {@code keepaliveTime}} */
  public Duration databaseKeepaliveTime() {
    return values.get(KnobCatalog.DATABASE_KEEPALIVE_TIME);
  }

  /** {@return the PgJDBC {@code socketTimeout}} */
  public Duration socketTimeout() {
    return values.get(KnobCatalog.SOCKET_TIMEOUT);
  }

  /** {@return the PgJDBC {@code connectTimeout} (D10)} */
  public Duration connectTimeout() {
    return values.get(KnobCatalog.CONNECT_TIMEOUT);
  }

  /** {@return the Redis URL (its password is masked wherever it is shown)} */
  public Optional<String> redisUrl() {
    return values.get(KnobCatalog.REDIS_URL);
  }

  /** {@return the deadline of one Redis command} */
  public Duration redisCommandTimeout() {
    return values.get(KnobCatalog.REDIS_COMMAND_TIMEOUT);
  }

  /** {@return the jobs one worker runs at the same time} */
  public int workerConcurrency() {
    return values.get(KnobCatalog.WORKER_CONCURRENCY);
  }

  /** {@return the queues this worker claims from} */
  public List<String> workerQueues() {
    return values.get(KnobCatalog.WORKER_QUEUES);
  }

  /** {@return the jobs one claim statement takes at most} */
  public int claimBatchSize() {
    return values.get(KnobCatalog.CLAIM_BATCH_SIZE);
  }

  /** {@return how long a claimed job's lease lasts without a heartbeat} */
  public Duration leasePeriod() {
    return values.get(KnobCatalog.LEASE_PERIOD);
  }

  /** {@return how often a worker renews its running jobs' leases and its own liveness} */
  public Duration heartbeatInterval() {
    return values.get(KnobCatalog.HEARTBEAT_INTERVAL);
  }

  /** {@return the heartbeat silence after which a worker is deemed dead} */
  public Duration workerStaleAfter() {
    return values.get(KnobCatalog.WORKER_STALE_AFTER);
  }

  /** {@return how often a waiting loop polls when no notification arrives (D11)} */
  public Duration pollInterval() {
    return values.get(KnobCatalog.POLL_INTERVAL);
  }

  /** {@return how long shutdown waits for running jobs to finish; 0 does not wait} */
  public Duration shutdownGrace() {
    return values.get(KnobCatalog.SHUTDOWN_GRACE);
  }

  /** {@return how long a job's stored result is kept; 0 stores no results} */
  public Duration resultTtl() {
    return values.get(KnobCatalog.RESULT_TTL);
  }

  /** {@return the largest job payload accepted at enqueue, in bytes} */
  public int maxPayloadBytes() {
    return values.get(KnobCatalog.MAX_PAYLOAD_BYTES);
  }

  /** {@return the port of the HTTP readiness endpoint ({@code /ready})} */
  public int httpPort() {
    return values.get(KnobCatalog.HTTP_PORT);
  }

  /** {@return what {@code TaskQ.start()} does with the schema's migrations (A7)} */
  public String migrate() {
    return values.get(KnobCatalog.MIGRATE);
  }

  /** {@return the address the HTTP endpoint binds to} */
  public String httpBind() {
    return values.get(KnobCatalog.HTTP_BIND);
  }

  /** {@return whether the HTTP endpoint also serves the web dashboard} */
  public boolean httpDashboard() {
    return values.get(KnobCatalog.HTTP_DASHBOARD);
  }

  /** {@return the port of the standalone web dashboard} */
  public int dashboardPort() {
    return values.get(KnobCatalog.DASHBOARD_PORT);
  }

  /** {@return the address the standalone web dashboard binds to} */
  public String dashboardBind() {
    return values.get(KnobCatalog.DASHBOARD_BIND);
  }

  /** {@return the path the web dashboard is served under} */
  public String dashboardPath() {
    return values.get(KnobCatalog.DASHBOARD_PATH);
  }

  /** {@return whether the web dashboard refuses every state change} */
  public boolean dashboardReadOnly() {
    return values.get(KnobCatalog.DASHBOARD_READ_ONLY);
  }

  /** {@return the token that signs a user in to the web dashboard} */
  public Optional<String> dashboardToken() {
    return values.get(KnobCatalog.DASHBOARD_TOKEN);
  }

  /** {@return the user name that signs in to the web dashboard} */
  public Optional<String> dashboardUser() {
    return values.get(KnobCatalog.DASHBOARD_USER);
  }

  /** {@return the password of {@link #dashboardUser()}} */
  public Optional<String> dashboardPassword() {
    return values.get(KnobCatalog.DASHBOARD_PASSWORD);
  }

  /** {@return the public origin of the web dashboard behind a proxy} */
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
     * {@return this builder, with {@code TASKQ_EVENT_WRITER_BATCH_SIZE} set}
     *
     * @param value the new {@link TaskQConfig#eventWriterBatchSize()}
     */
    public Builder eventWriterBatchSize(int value) {
      return set(KnobCatalog.EVENT_WRITER_BATCH_SIZE, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_EVENT_WRITER_STATEMENT_TIMEOUT_MS} set}
     *
     * @param value the new {@link TaskQConfig#eventWriterStatementTimeout()}
     */
    public Builder eventWriterStatementTimeout(Duration value) {
      return set(KnobCatalog.EVENT_WRITER_STATEMENT_TIMEOUT, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_RECLAIM_EVENT_VISIBILITY_DELAY} set}
     *
     * @param value the new {@link TaskQConfig#reclaimEventVisibilityDelay()}
     */
    public Builder reclaimEventVisibilityDelay(Duration value) {
      return set(KnobCatalog.RECLAIM_EVENT_VISIBILITY_DELAY, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_EVENT_WRITER_REDUCED_BATCH_DIVISOR} set}
     *
     * @param value the new {@link TaskQConfig#eventWriterReducedBatchDivisor()}
     */
    public Builder eventWriterReducedBatchDivisor(int value) {
      return set(KnobCatalog.EVENT_WRITER_REDUCED_BATCH_DIVISOR, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_SWEEP_BREAKER_FAILURE_THRESHOLD} set}
     *
     * @param value the new {@link TaskQConfig#sweepBreakerFailureThreshold()}
     */
    public Builder sweepBreakerFailureThreshold(int value) {
      return set(KnobCatalog.SWEEP_BREAKER_FAILURE_THRESHOLD, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_SWEEP_BREAKER_WINDOW_SECS} set}
     *
     * @param value the new {@link TaskQConfig#sweepBreakerWindow()}
     */
    public Builder sweepBreakerWindow(Duration value) {
      return set(KnobCatalog.SWEEP_BREAKER_WINDOW, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_SWEEP_DRAIN_BATCHES} set}
     *
     * @param value the new {@link TaskQConfig#sweepDrainBatches()}
     */
    public Builder sweepDrainBatches(int value) {
      return set(KnobCatalog.SWEEP_DRAIN_BATCHES, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_SWEEP_INTERVAL} set}
     *
     * @param value the new {@link TaskQConfig#sweepInterval()}
     */
    public Builder sweepInterval(Duration value) {
      return set(KnobCatalog.SWEEP_INTERVAL, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_CRON_TICK_LIMIT} set}
     *
     * @param value the new {@link TaskQConfig#cronTickLimit()}
     */
    public Builder cronTickLimit(int value) {
      return set(KnobCatalog.CRON_TICK_LIMIT, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_CRON_AUTO_DISABLE_THRESHOLD} set}
     *
     * @param value the new {@link TaskQConfig#cronAutoDisableThreshold()}
     */
    public Builder cronAutoDisableThreshold(int value) {
      return set(KnobCatalog.CRON_AUTO_DISABLE_THRESHOLD, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_EVENT_RETENTION_PERIOD} set}
     *
     * @param value the new {@link TaskQConfig#eventRetentionPeriod()}
     */
    public Builder eventRetentionPeriod(Duration value) {
      return set(KnobCatalog.EVENT_RETENTION_PERIOD, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_KEYED_ROW_RECLAIM_PERIOD} set}
     *
     * @param value the new {@link TaskQConfig#keyedRowReclaimPeriod()}
     */
    public Builder keyedRowReclaimPeriod(Duration value) {
      return set(KnobCatalog.KEYED_ROW_RECLAIM_PERIOD, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_PRUNE_BATCH_SIZE} set}
     *
     * @param value the new {@link TaskQConfig#pruneBatchSize()}
     */
    public Builder pruneBatchSize(int value) {
      return set(KnobCatalog.PRUNE_BATCH_SIZE, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_SCHEMA_NAME} set}
     *
     * @param value the new {@link TaskQConfig#schemaName()}
     */
    public Builder schemaName(SchemaName value) {
      return set(KnobCatalog.SCHEMA_NAME, value);
    }

    /**
     * Sets {@link TaskQConfig#schemaName()} from text, checked by {@link #build()}.
     *
     * @param value the new {@link TaskQConfig#schemaName()}
     * @return this builder
     */
    public Builder schemaName(String value) {
      return setText(KnobCatalog.SCHEMA_NAME, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_MAX_RETRY_BACKOFF} set}
     *
     * @param value the new {@link TaskQConfig#maxRetryBackoff()}
     */
    public Builder maxRetryBackoff(Duration value) {
      return set(KnobCatalog.MAX_RETRY_BACKOFF, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_DISPATCHER_COMMAND_TIMEOUT} set}
     *
     * @param value the new {@link TaskQConfig#dispatcherCommandTimeout()}
     */
    public Builder dispatcherCommandTimeout(Duration value) {
      return set(KnobCatalog.DISPATCHER_COMMAND_TIMEOUT, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_MAX_KEYED_RESERVATIONS} set}
     *
     * @param value the new {@link TaskQConfig#maxKeyedReservations()}
     */
    public Builder maxKeyedReservations(int value) {
      return set(KnobCatalog.MAX_KEYED_RESERVATIONS, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_MAX_KEYED_RATE_LIMITS} set}
     *
     * @param value the new {@link TaskQConfig#maxKeyedRateLimits()}
     */
    public Builder maxKeyedRateLimits(int value) {
      return set(KnobCatalog.MAX_KEYED_RATE_LIMITS, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_PRUNE_TIME} set}
     *
     * @param value the new {@link TaskQConfig#pruneTime()}
     */
    public Builder pruneTime(LocalTime value) {
      return set(KnobCatalog.PRUNE_TIME, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_ARCHIVE_EXPIRY_TIME} set}
     *
     * @param value the new {@link TaskQConfig#archiveExpiryTime()}
     */
    public Builder archiveExpiryTime(LocalTime value) {
      return set(KnobCatalog.ARCHIVE_EXPIRY_TIME, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_PRUNE_AFTER} set}
     *
     * @param value the new {@link TaskQConfig#pruneAfter()}
     */
    public Builder pruneAfter(Duration value) {
      return set(KnobCatalog.PRUNE_AFTER, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_ARCHIVE_RETENTION} set}
     *
     * @param value the new {@link TaskQConfig#archiveRetention()}
     */
    public Builder archiveRetention(Duration value) {
      return set(KnobCatalog.ARCHIVE_RETENTION, value);
    }

    /**
     * Sets {@link TaskQConfig#databaseUrl()} ({@code TASKQ_DATABASE_URL}); an empty string unsets
     * it.
     *
     * @param value the new {@link TaskQConfig#databaseUrl()}
     * @return this builder
     */
    public Builder databaseUrl(String value) {
      return setText(KnobCatalog.DATABASE_URL, value);
    }

    /**
     * Sets {@link TaskQConfig#databaseUser()} ({@code TASKQ_DATABASE_USER}); an empty string unsets
     * it.
     *
     * @param value the new {@link TaskQConfig#databaseUser()}
     * @return this builder
     */
    public Builder databaseUser(String value) {
      return setText(KnobCatalog.DATABASE_USER, value);
    }

    /**
     * Sets {@link TaskQConfig#databasePassword()} ({@code TASKQ_DATABASE_PASSWORD}); an empty
     * string unsets it.
     *
     * @param value the new {@link TaskQConfig#databasePassword()}
     * @return this builder
     */
    public Builder databasePassword(String value) {
      return setText(KnobCatalog.DATABASE_PASSWORD, value);
    }

    /**
     * Sets {@link TaskQConfig#databaseDirectUrl()} ({@code TASKQ_DATABASE_DIRECT_URL}); an empty
     * string unsets it.
     *
     * @param value the new {@link TaskQConfig#databaseDirectUrl()}
     * @return this builder
     */
    public Builder databaseDirectUrl(String value) {
      return setText(KnobCatalog.DATABASE_DIRECT_URL, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_DATABASE_POOL_SIZE} set}
     *
     * @param value the new {@link TaskQConfig#databasePoolSize()}
     */
    public Builder databasePoolSize(int value) {
      return set(KnobCatalog.DATABASE_POOL_SIZE, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_DATABASE_KEEPALIVE_TIME} set}
     *
     * @param value the new {@link TaskQConfig#databaseKeepaliveTime()}
     */
    public Builder databaseKeepaliveTime(Duration value) {
      return set(KnobCatalog.DATABASE_KEEPALIVE_TIME, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_SOCKET_TIMEOUT} set}
     *
     * @param value the new {@link TaskQConfig#socketTimeout()}
     */
    public Builder socketTimeout(Duration value) {
      return set(KnobCatalog.SOCKET_TIMEOUT, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_CONNECT_TIMEOUT} set}
     *
     * @param value the new {@link TaskQConfig#connectTimeout()}
     */
    public Builder connectTimeout(Duration value) {
      return set(KnobCatalog.CONNECT_TIMEOUT, value);
    }

    /**
     * Sets {@link TaskQConfig#redisUrl()} ({@code TASKQ_REDIS_URL}); an empty string unsets it.
     *
     * @param value the new {@link TaskQConfig#redisUrl()}
     * @return this builder
     */
    public Builder redisUrl(String value) {
      return setText(KnobCatalog.REDIS_URL, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_REDIS_COMMAND_TIMEOUT} set}
     *
     * @param value the new {@link TaskQConfig#redisCommandTimeout()}
     */
    public Builder redisCommandTimeout(Duration value) {
      return set(KnobCatalog.REDIS_COMMAND_TIMEOUT, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_WORKER_CONCURRENCY} set}
     *
     * @param value the new {@link TaskQConfig#workerConcurrency()}
     */
    public Builder workerConcurrency(int value) {
      return set(KnobCatalog.WORKER_CONCURRENCY, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_WORKER_QUEUES} set}
     *
     * @param value the new {@link TaskQConfig#workerQueues()}
     */
    public Builder workerQueues(List<String> value) {
      return set(KnobCatalog.WORKER_QUEUES, nonNullCopy(value, "workerQueues"));
    }

    /**
     * {@return this builder, with {@code TASKQ_WORKER_QUEUES} set}
     *
     * @param value the new {@link TaskQConfig#workerQueues()}
     */
    public Builder workerQueues(String... value) {
      return workerQueues(Arrays.asList(Objects.requireNonNull(value, "workerQueues")));
    }

    /**
     * {@return this builder, with {@code TASKQ_CLAIM_BATCH_SIZE} set}
     *
     * @param value the new {@link TaskQConfig#claimBatchSize()}
     */
    public Builder claimBatchSize(int value) {
      return set(KnobCatalog.CLAIM_BATCH_SIZE, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_LEASE_PERIOD} set}
     *
     * @param value the new {@link TaskQConfig#leasePeriod()}
     */
    public Builder leasePeriod(Duration value) {
      return set(KnobCatalog.LEASE_PERIOD, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_HEARTBEAT_INTERVAL} set}
     *
     * @param value the new {@link TaskQConfig#heartbeatInterval()}
     */
    public Builder heartbeatInterval(Duration value) {
      return set(KnobCatalog.HEARTBEAT_INTERVAL, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_WORKER_STALE_AFTER} set}
     *
     * @param value the new {@link TaskQConfig#workerStaleAfter()}
     */
    public Builder workerStaleAfter(Duration value) {
      return set(KnobCatalog.WORKER_STALE_AFTER, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_POLL_INTERVAL} set}
     *
     * @param value the new {@link TaskQConfig#pollInterval()}
     */
    public Builder pollInterval(Duration value) {
      return set(KnobCatalog.POLL_INTERVAL, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_SHUTDOWN_GRACE} set}
     *
     * @param value the new {@link TaskQConfig#shutdownGrace()}
     */
    public Builder shutdownGrace(Duration value) {
      return set(KnobCatalog.SHUTDOWN_GRACE, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_RESULT_TTL} set}
     *
     * @param value the new {@link TaskQConfig#resultTtl()}
     */
    public Builder resultTtl(Duration value) {
      return set(KnobCatalog.RESULT_TTL, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_MAX_PAYLOAD_BYTES} set}
     *
     * @param value the new {@link TaskQConfig#maxPayloadBytes()}
     */
    public Builder maxPayloadBytes(int value) {
      return set(KnobCatalog.MAX_PAYLOAD_BYTES, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_HTTP_PORT} set}
     *
     * @param value the new {@link TaskQConfig#httpPort()}
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
      return set(KnobCatalog.MIGRATE, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_HTTP_BIND} set}
     *
     * @param value the new {@link TaskQConfig#httpBind()}
     */
    public Builder httpBind(String value) {
      return set(KnobCatalog.HTTP_BIND, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_HTTP_DASHBOARD} set}
     *
     * @param value the new {@link TaskQConfig#httpDashboard()}
     */
    public Builder httpDashboard(boolean value) {
      return set(KnobCatalog.HTTP_DASHBOARD, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_DASHBOARD_PORT} set}
     *
     * @param value the new {@link TaskQConfig#dashboardPort()}
     */
    public Builder dashboardPort(int value) {
      return set(KnobCatalog.DASHBOARD_PORT, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_DASHBOARD_BIND} set}
     *
     * @param value the new {@link TaskQConfig#dashboardBind()}
     */
    public Builder dashboardBind(String value) {
      return set(KnobCatalog.DASHBOARD_BIND, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_DASHBOARD_PATH} set}
     *
     * @param value the new {@link TaskQConfig#dashboardPath()}
     */
    public Builder dashboardPath(String value) {
      return set(KnobCatalog.DASHBOARD_PATH, value);
    }

    /**
     * {@return this builder, with {@code TASKQ_DASHBOARD_READ_ONLY} set}
     *
     * @param value the new {@link TaskQConfig#dashboardReadOnly()}
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
      return setText(KnobCatalog.DASHBOARD_TOKEN, value);
    }

    /**
     * Sets {@link TaskQConfig#dashboardUser()} ({@code TASKQ_DASHBOARD_USER}); an empty string
     * unsets it.
     *
     * @param value the new {@link TaskQConfig#dashboardUser()}
     * @return this builder
     */
    public Builder dashboardUser(String value) {
      return setText(KnobCatalog.DASHBOARD_USER, value);
    }

    /**
     * Sets {@link TaskQConfig#dashboardPassword()} ({@code TASKQ_DASHBOARD_PASSWORD}); an empty
     * string unsets it.
     *
     * @param value the new {@link TaskQConfig#dashboardPassword()}
     * @return this builder
     */
    public Builder dashboardPassword(String value) {
      return setText(KnobCatalog.DASHBOARD_PASSWORD, value);
    }

    /**
     * Sets {@link TaskQConfig#dashboardOrigin()} ({@code TASKQ_DASHBOARD_ORIGIN}); an empty string
     * unsets it.
     *
     * @param value the new {@link TaskQConfig#dashboardOrigin()}
     * @return this builder
     */
    public Builder dashboardOrigin(String value) {
      return setText(KnobCatalog.DASHBOARD_ORIGIN, value);
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
      draft.set(knob, Objects.requireNonNull(value, knob.accessor()));
      return this;
    }

    private Builder setText(Knob<?> knob, String text) {
      draft.setText(knob, Objects.requireNonNull(text, knob.accessor()));
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
