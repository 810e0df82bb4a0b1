package io.taskq.core.internal.config;

import static java.time.Duration.ofDays;
import static java.time.Duration.ofHours;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofMinutes;
import static java.time.Duration.ofSeconds;

import io.taskq.SchemaName;
import java.time.Duration;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Every configuration knob, defined once (T1, D6): name, type, default, rule. The builder, the
 * environment reader, validation, {@code toString} and the test that checks {@code
 * docs/configuration.md} all read this list, so adding a knob here (and its accessor and setter on
 * {@code TaskQConfig}) is the whole change; the tests fail until the documentation row exists.
 *
 * <p>A bare number in a duration knob counts in milliseconds when the variable's name ends in
 * {@code _MS} and in seconds otherwise; the name alone tells the operator the unit.
 *
 * <p>The defaults and their reasons are in the guide's §3 ("Tuning"); the runtime knobs (database,
 * Redis, worker, HTTP) follow D8 and D10.
 */
public final class KnobCatalog {
  /**
   * Prefixes of {@code TASKQ_*} variables that belong to someone else and are not reported as
   * unknown: {@code TASKQ_TEST_*} is read by the test harness (D4).
   */
  public static final List<String> FOREIGN_PREFIXES = List.of("TASKQ_TEST_");

  private static final List<Knob<?>> ALL = new ArrayList<>();

  // Event writers and the sweep loop (guide §2, §3).
  public static final Knob<Integer> EVENT_WRITER_BATCH_SIZE =
      count("TASKQ_EVENT_WRITER_BATCH_SIZE", "eventWriterBatchSize", 100, 1, 10_000);
  public static final Knob<Duration> EVENT_WRITER_STATEMENT_TIMEOUT =
      duration(
          "TASKQ_EVENT_WRITER_STATEMENT_TIMEOUT_MS",
          "eventWriterStatementTimeout",
          ofMillis(1750),
          Rules.between(ofMillis(1), ofHours(1)));
  public static final Knob<Duration> RECLAIM_EVENT_VISIBILITY_DELAY =
      duration(
          "TASKQ_RECLAIM_EVENT_VISIBILITY_DELAY",
          "reclaimEventVisibilityDelay",
          ofSeconds(2),
          Rules.between(ofMillis(100), ofHours(1)));
  public static final Knob<Integer> EVENT_WRITER_REDUCED_BATCH_DIVISOR =
      count(
          "TASKQ_EVENT_WRITER_REDUCED_BATCH_DIVISOR",
          "eventWriterReducedBatchDivisor",
          4,
          1,
          10_000);
  public static final Knob<Integer> SWEEP_BREAKER_FAILURE_THRESHOLD =
      count("TASKQ_SWEEP_BREAKER_FAILURE_THRESHOLD", "sweepBreakerFailureThreshold", 3, 1, 1000);
  public static final Knob<Duration> SWEEP_BREAKER_WINDOW =
      duration(
          "TASKQ_SWEEP_BREAKER_WINDOW_SECS",
          "sweepBreakerWindow",
          ofSeconds(600),
          Rules.between(ofSeconds(1), ofDays(7)));
  public static final Knob<Integer> SWEEP_DRAIN_BATCHES =
      count("TASKQ_SWEEP_DRAIN_BATCHES", "sweepDrainBatches", 8, 1, 10_000);
  public static final Knob<Duration> SWEEP_INTERVAL =
      duration(
          "TASKQ_SWEEP_INTERVAL",
          "sweepInterval",
          ofSeconds(30),
          Rules.between(ofMillis(100), ofDays(1)));
  public static final Knob<Integer> CRON_TICK_LIMIT =
      count("TASKQ_CRON_TICK_LIMIT", "cronTickLimit", 100, 1, 10_000);
  public static final Knob<Integer> CRON_AUTO_DISABLE_THRESHOLD =
      count("TASKQ_CRON_AUTO_DISABLE_THRESHOLD", "cronAutoDisableThreshold", 10, 0, 100_000);
  public static final Knob<Duration> EVENT_RETENTION_PERIOD =
      duration(
          "TASKQ_EVENT_RETENTION_PERIOD",
          "eventRetentionPeriod",
          ofDays(7),
          Rules.zeroOr("event TTL sweep off", ofMinutes(1), ofDays(3650)));
  public static final Knob<Duration> KEYED_ROW_RECLAIM_PERIOD =
      duration(
          "TASKQ_KEYED_ROW_RECLAIM_PERIOD",
          "keyedRowReclaimPeriod",
          ofHours(1),
          Rules.zeroOr("keyed-row sweep off", ofSeconds(1), ofDays(365)));
  public static final Knob<Integer> PRUNE_BATCH_SIZE =
      count("TASKQ_PRUNE_BATCH_SIZE", "pruneBatchSize", 10_000, 1, 1_000_000);
  public static final Knob<SchemaName> SCHEMA_NAME =
      define(
          "TASKQ_SCHEMA_NAME",
          "schemaName",
          ValueTypes.schemaName(),
          SchemaName.of("taskq"),
          Rules.any(
              "1.."
                  + SchemaName.MAX_BYTES
                  + " UTF-8 bytes, no double quote or control character, not starting with pg_"),
          Knob.Exposure.PLAIN);

  // Retries, dispatch, keyed registries, prune and archive (guide §1).
  public static final Knob<Duration> MAX_RETRY_BACKOFF =
      duration(
          "TASKQ_MAX_RETRY_BACKOFF",
          "maxRetryBackoff",
          ofHours(1),
          Rules.between(ofMillis(1), ofDays(365)));
  public static final Knob<Duration> DISPATCHER_COMMAND_TIMEOUT =
      duration(
          "TASKQ_DISPATCHER_COMMAND_TIMEOUT",
          "dispatcherCommandTimeout",
          ofSeconds(5),
          Rules.between(ofMillis(1), ofHours(1)));
  public static final Knob<Integer> MAX_KEYED_RESERVATIONS =
      count("TASKQ_MAX_KEYED_RESERVATIONS", "maxKeyedReservations", 10_000, 1, 10_000_000);
  public static final Knob<Integer> MAX_KEYED_RATE_LIMITS =
      count("TASKQ_MAX_KEYED_RATE_LIMITS", "maxKeyedRateLimits", 10_000, 1, 10_000_000);
  public static final Knob<LocalTime> PRUNE_TIME =
      timeOfDay("TASKQ_PRUNE_TIME", "pruneTime", LocalTime.of(3, 0));
  public static final Knob<LocalTime> ARCHIVE_EXPIRY_TIME =
      timeOfDay("TASKQ_ARCHIVE_EXPIRY_TIME", "archiveExpiryTime", LocalTime.of(4, 0));
  public static final Knob<Duration> PRUNE_AFTER =
      duration(
          "TASKQ_PRUNE_AFTER", "pruneAfter", ofDays(7), Rules.between(ofMinutes(1), ofDays(3650)));
  public static final Knob<Duration> ARCHIVE_RETENTION =
      duration(
          "TASKQ_ARCHIVE_RETENTION",
          "archiveRetention",
          ofDays(30),
          Rules.between(ofMinutes(1), ofDays(3650)));

  // PostgreSQL (D8, D10).
  public static final Knob<Optional<String>> DATABASE_URL =
      optional("TASKQ_DATABASE_URL", "databaseUrl", Rules.jdbcUrl(), Knob.Exposure.URL);
  public static final Knob<Optional<String>> DATABASE_USER =
      optional("TASKQ_DATABASE_USER", "databaseUser", Rules.optionalText(), Knob.Exposure.PLAIN);
  public static final Knob<Optional<String>> DATABASE_PASSWORD =
      define(
          "TASKQ_DATABASE_PASSWORD",
          "databasePassword",
          ValueTypes.optionalText(false),
          Optional.empty(),
          Rules.anyOptional(),
          Knob.Exposure.SECRET);
  public static final Knob<Optional<String>> DATABASE_DIRECT_URL =
      optional(
          "TASKQ_DATABASE_DIRECT_URL", "databaseDirectUrl", Rules.jdbcUrl(), Knob.Exposure.URL);
  public static final Knob<Integer> DATABASE_POOL_SIZE =
      count("TASKQ_DATABASE_POOL_SIZE", "databasePoolSize", 10, 1, 1000);
  public static final Knob<Duration> DATABASE_KEEPALIVE_TIME =
      duration(
          "TASKQ_DATABASE_KEEPALIVE_TIME",
          "databaseKeepaliveTime",
          ofMinutes(2),
          Rules.between(ofSeconds(30), ofMinutes(20)));
  public static final Knob<Duration> SOCKET_TIMEOUT =
      duration(
          "TASKQ_SOCKET_TIMEOUT",
          "socketTimeout",
          ofSeconds(30),
          Rules.wholeSeconds(ofSeconds(1), ofHours(1)));
  public static final Knob<Duration> CONNECT_TIMEOUT =
      duration(
          "TASKQ_CONNECT_TIMEOUT",
          "connectTimeout",
          ofSeconds(10),
          Rules.wholeSeconds(ofSeconds(1), ofMinutes(10)));

  // Redis.
  public static final Knob<Optional<String>> REDIS_URL =
      optional("TASKQ_REDIS_URL", "redisUrl", Rules.redisUrl(), Knob.Exposure.URL);
  public static final Knob<Duration> REDIS_COMMAND_TIMEOUT =
      duration(
          "TASKQ_REDIS_COMMAND_TIMEOUT",
          "redisCommandTimeout",
          ofSeconds(2),
          Rules.between(ofMillis(1), ofHours(1)));

  // Workers.
  public static final Knob<Integer> WORKER_CONCURRENCY =
      count("TASKQ_WORKER_CONCURRENCY", "workerConcurrency", 8, 1, 10_000);
  public static final Knob<List<String>> WORKER_QUEUES =
      define(
          "TASKQ_WORKER_QUEUES",
          "workerQueues",
          ValueTypes.commaList(),
          List.of("default"),
          Rules.queueNames(),
          Knob.Exposure.PLAIN);
  public static final Knob<Integer> CLAIM_BATCH_SIZE =
      count("TASKQ_CLAIM_BATCH_SIZE", "claimBatchSize", 256, 1, 1000);
  public static final Knob<Duration> LEASE_PERIOD =
      duration(
          "TASKQ_LEASE_PERIOD",
          "leasePeriod",
          ofSeconds(30),
          Rules.between(ofSeconds(1), ofDays(1)));
  public static final Knob<Duration> HEARTBEAT_INTERVAL =
      duration(
          "TASKQ_HEARTBEAT_INTERVAL",
          "heartbeatInterval",
          ofSeconds(5),
          Rules.between(ofMillis(100), ofHours(1)));
  public static final Knob<Duration> WORKER_STALE_AFTER =
      duration(
          "TASKQ_WORKER_STALE_AFTER",
          "workerStaleAfter",
          ofSeconds(60),
          Rules.between(ofSeconds(1), ofDays(7)));
  public static final Knob<Duration> POLL_INTERVAL =
      duration(
          "TASKQ_POLL_INTERVAL",
          "pollInterval",
          ofSeconds(1),
          Rules.between(ofMillis(10), ofHours(1)));
  public static final Knob<Duration> SHUTDOWN_GRACE =
      duration(
          "TASKQ_SHUTDOWN_GRACE",
          "shutdownGrace",
          ofSeconds(30),
          Rules.zeroOr("do not wait", ofMillis(1), ofHours(1)));
  public static final Knob<Duration> RESULT_TTL =
      duration(
          "TASKQ_RESULT_TTL",
          "resultTtl",
          ofDays(1),
          Rules.zeroOr("results not stored", ofSeconds(1), ofDays(3650)));
  public static final Knob<Integer> MAX_PAYLOAD_BYTES =
      define(
          "TASKQ_MAX_PAYLOAD_BYTES",
          "maxPayloadBytes",
          ValueTypes.size(),
          1 << 20,
          Rules.between(1, 1 << 28),
          Knob.Exposure.PLAIN);

  // Migrations at start (A7): apply what is pending, verify the schema is current, or skip.
  public static final Knob<String> MIGRATE =
      define(
          "TASKQ_MIGRATE",
          "migrate",
          ValueTypes.text(),
          "apply",
          Rules.oneOf("apply", "verify", "skip"),
          Knob.Exposure.PLAIN);

  // HTTP readiness endpoint (O7).
  public static final Knob<Integer> HTTP_PORT = count("TASKQ_HTTP_PORT", "httpPort", 0, 0, 65_535);
  public static final Knob<String> HTTP_BIND =
      define(
          "TASKQ_HTTP_BIND",
          "httpBind",
          ValueTypes.text(),
          "127.0.0.1",
          Rules.host(),
          Knob.Exposure.PLAIN);
  public static final Knob<Boolean> HTTP_DASHBOARD =
      define(
          "TASKQ_HTTP_DASHBOARD",
          "httpDashboard",
          ValueTypes.bool(),
          false,
          Rules.any("true or false"),
          Knob.Exposure.PLAIN);

  // Web dashboard (W3): off by default, loopback by default, secrets never shown.
  public static final Knob<Integer> DASHBOARD_PORT =
      count("TASKQ_DASHBOARD_PORT", "dashboardPort", 0, 0, 65_535);
  public static final Knob<String> DASHBOARD_BIND =
      define(
          "TASKQ_DASHBOARD_BIND",
          "dashboardBind",
          ValueTypes.text(),
          "127.0.0.1",
          Rules.host(),
          Knob.Exposure.PLAIN);
  public static final Knob<String> DASHBOARD_PATH =
      define(
          "TASKQ_DASHBOARD_PATH",
          "dashboardPath",
          ValueTypes.text(),
          "/taskq",
          Rules.urlPath(),
          Knob.Exposure.PLAIN);
  public static final Knob<Boolean> DASHBOARD_READ_ONLY =
      define(
          "TASKQ_DASHBOARD_READ_ONLY",
          "dashboardReadOnly",
          ValueTypes.bool(),
          false,
          Rules.any("true or false"),
          Knob.Exposure.PLAIN);
  public static final Knob<Optional<String>> DASHBOARD_TOKEN =
      optional(
          "TASKQ_DASHBOARD_TOKEN", "dashboardToken", Rules.minLength(16), Knob.Exposure.SECRET);
  public static final Knob<Optional<String>> DASHBOARD_USER =
      optional("TASKQ_DASHBOARD_USER", "dashboardUser", Rules.optionalText(), Knob.Exposure.PLAIN);
  public static final Knob<Optional<String>> DASHBOARD_PASSWORD =
      optional(
          "TASKQ_DASHBOARD_PASSWORD",
          "dashboardPassword",
          Rules.minLength(8),
          Knob.Exposure.SECRET);
  public static final Knob<Optional<String>> DASHBOARD_ORIGIN =
      optional("TASKQ_DASHBOARD_ORIGIN", "dashboardOrigin", Rules.origin(), Knob.Exposure.PLAIN);

  private static final List<Knob<?>> KNOBS = List.copyOf(ALL);
  private static final Map<String, Knob<?>> BY_ENV_NAME =
      KNOBS.stream().collect(Collectors.toUnmodifiableMap(Knob::envName, Function.identity()));

  private static final List<CrossRule> CROSS_RULES =
      List.of(
          new CrossRule(
              EVENT_WRITER_STATEMENT_TIMEOUT,
              RECLAIM_EVENT_VISIBILITY_DELAY,
              "a batch must finish inside the visibility margin, or its events can be missed"
                  + " silently (guide §2)"),
          new CrossRule(
              HEARTBEAT_INTERVAL,
              LEASE_PERIOD,
              "a worker must renew its lease before the lease expires"),
          new CrossRule(
              HEARTBEAT_INTERVAL,
              WORKER_STALE_AFTER,
              "a live worker must heartbeat before it is deemed stale and deleted"),
          new CrossRule(
              EVENT_WRITER_STATEMENT_TIMEOUT,
              SOCKET_TIMEOUT,
              "the client must not give up before the server's statement timeout fires (D10)"),
          new CrossRule(
              DISPATCHER_COMMAND_TIMEOUT,
              SOCKET_TIMEOUT,
              "the socket must outlive the longest command deadline (D10)"));

  private KnobCatalog() {}

  /** Every knob, in documentation order. */
  public static List<Knob<?>> all() {
    return KNOBS;
  }

  /** Every rule between knobs. */
  public static List<CrossRule> crossRules() {
    return CROSS_RULES;
  }

  /** The knob read from {@code envName}, or null. */
  public static @Nullable Knob<?> byEnvName(String envName) {
    return BY_ENV_NAME.get(envName);
  }

  private static Knob<Integer> count(String env, String accessor, int dflt, int min, int max) {
    return define(
        env, accessor, ValueTypes.integer(), dflt, Rules.between(min, max), Knob.Exposure.PLAIN);
  }

  private static Knob<Duration> duration(
      String env, String accessor, Duration dflt, Rule<Duration> rule) {
    ChronoUnit bare = env.endsWith("_MS") ? ChronoUnit.MILLIS : ChronoUnit.SECONDS;
    return define(env, accessor, ValueTypes.duration(bare), dflt, rule, Knob.Exposure.PLAIN);
  }

  private static Knob<LocalTime> timeOfDay(String env, String accessor, LocalTime dflt) {
    return define(
        env,
        accessor,
        ValueTypes.timeOfDay(),
        dflt,
        Rules.any("HH:mm or HH:mm:ss, UTC"),
        Knob.Exposure.PLAIN);
  }

  private static Knob<Optional<String>> optional(
      String env, String accessor, Rule<Optional<String>> rule, Knob.Exposure exposure) {
    return define(env, accessor, ValueTypes.optionalText(true), Optional.empty(), rule, exposure);
  }

  private static <T> Knob<T> define(
      String env,
      String accessor,
      ValueType<T> type,
      T dflt,
      Rule<T> rule,
      Knob.Exposure exposure) {
    Knob<T> knob = new Knob<>(ALL.size(), env, accessor, type, dflt, rule, exposure);
    ALL.add(knob);
    return knob;
  }
}
