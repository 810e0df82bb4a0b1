package io.taskq;

import static java.time.Duration.ofDays;
import static java.time.Duration.ofHours;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofMinutes;
import static java.time.Duration.ofSeconds;

import java.time.Duration;
import java.time.LocalTime;
import java.util.List;
import java.util.Optional;

/**
 * Test data, written independently of {@code KnobCatalog}: for every knob a good environment value
 * (not the default), the value it must produce, and values that must be refused. A test checks that
 * every catalog knob has an entry here, so a new knob cannot go untested.
 */
final class KnobExamples {
  /** One knob's examples. */
  record Example(String env, String good, Object expected, List<String> bad) {}

  static final List<Example> ALL =
      List.of(
          ex(
              "TASKQ_EVENT_WRITER_BATCH_SIZE",
              "250",
              250,
              "0",
              "10001",
              "ten",
              "1.5",
              "99999999999"),
          ex("TASKQ_EVENT_WRITER_STATEMENT_TIMEOUT_MS", "1500", ofMillis(1500), "0", "2h", "soon"),
          ex("TASKQ_RECLAIM_EVENT_VISIBILITY_DELAY", "3", ofSeconds(3), "50ms", "0", "2 seconds"),
          ex("TASKQ_EVENT_WRITER_REDUCED_BATCH_DIVISOR", "8", 8, "0", "10001"),
          ex("TASKQ_SWEEP_BREAKER_FAILURE_THRESHOLD", "5", 5, "0", "1001"),
          ex("TASKQ_SWEEP_BREAKER_WINDOW_SECS", "300", ofSeconds(300), "0", "8d", "500ms"),
          ex("TASKQ_SWEEP_DRAIN_BATCHES", "16", 16, "0", "10001"),
          ex("TASKQ_SWEEP_INTERVAL", "10", ofSeconds(10), "50ms", "2d", "0", "5M"),
          ex("TASKQ_CRON_TICK_LIMIT", "50", 50, "0", "10001"),
          ex("TASKQ_CRON_AUTO_DISABLE_THRESHOLD", "0", 0, "100001"),
          ex("TASKQ_EVENT_RETENTION_PERIOD", "0", Duration.ZERO, "30s", "3651d"),
          ex("TASKQ_KEYED_ROW_RECLAIM_PERIOD", "30m", ofMinutes(30), "500ms", "366d"),
          ex("TASKQ_PRUNE_BATCH_SIZE", "500", 500, "0", "1000001"),
          ex(
              "TASKQ_SCHEMA_NAME",
              "taskq_staging",
              SchemaName.of("taskq_staging"),
              "pg_jobs",
              "a\"b",
              "x".repeat(64)),
          ex("TASKQ_MAX_RETRY_BACKOFF", "PT30M", ofMinutes(30), "0", "366d"),
          ex("TASKQ_DISPATCHER_COMMAND_TIMEOUT", "10", ofSeconds(10), "0", "2h"),
          ex("TASKQ_MAX_KEYED_RESERVATIONS", "500", 500, "0", "10000001"),
          ex("TASKQ_MAX_KEYED_RATE_LIMITS", "600", 600, "0", "10000001"),
          ex("TASKQ_PRUNE_TIME", "02:30", LocalTime.of(2, 30), "24:00", "3pm", "03:60"),
          ex("TASKQ_ARCHIVE_EXPIRY_TIME", "5:15:30", LocalTime.of(5, 15, 30), "noon"),
          ex("TASKQ_PRUNE_AFTER", "14d", ofDays(14), "0", "30s", "3651d"),
          ex("TASKQ_ARCHIVE_RETENTION", "90d", ofDays(90), "0", "3651d"),
          ex(
              "TASKQ_DATABASE_URL",
              " jdbc:postgresql://db:5432/app ",
              Optional.of("jdbc:postgresql://db:5432/app"),
              "postgres://db/app",
              "mysql"),
          ex("TASKQ_DATABASE_USER", "app", Optional.of("app"), "a\u0001b"),
          ex("TASKQ_DATABASE_PASSWORD", " s3cret ", Optional.of(" s3cret ")),
          ex(
              "TASKQ_DATABASE_DIRECT_URL",
              "jdbc:postgresql://db-direct/app",
              Optional.of("jdbc:postgresql://db-direct/app"),
              "http://db-direct"),
          ex("TASKQ_DATABASE_POOL_SIZE", "20", 20, "0", "1001"),
          ex("TASKQ_DATABASE_KEEPALIVE_TIME", "5m", ofMinutes(5), "10s", "21m", "0"),
          ex("TASKQ_SOCKET_TIMEOUT", "60", ofSeconds(60), "0", "2500ms", "2h"),
          ex("TASKQ_CONNECT_TIMEOUT", "5s", ofSeconds(5), "0", "11m", "1500ms"),
          ex(
              "TASKQ_REDIS_URL",
              "rediss://cache:6380/1",
              Optional.of("rediss://cache:6380/1"),
              "http://cache"),
          ex("TASKQ_REDIS_COMMAND_TIMEOUT", "500ms", ofMillis(500), "0", "2h"),
          ex("TASKQ_WORKER_CONCURRENCY", "32", 32, "0", "10001"),
          ex(
              "TASKQ_WORKER_QUEUES",
              "default, emails ,reports",
              List.of("default", "emails", "reports"),
              "a,,b",
              "a,a",
              "q".repeat(129),
              "a\u0000b"),
          ex("TASKQ_CLAIM_BATCH_SIZE", "32", 32, "0", "1001"),
          ex("TASKQ_LEASE_PERIOD", "2m", ofMinutes(2), "500ms", "2d", "0"),
          ex("TASKQ_HEARTBEAT_INTERVAL", "10s", ofSeconds(10), "50ms", "0", "2h"),
          ex("TASKQ_WORKER_STALE_AFTER", "5m", ofMinutes(5), "0", "8d"),
          ex("TASKQ_POLL_INTERVAL", "250ms", ofMillis(250), "5ms", "2h", "0"),
          ex("TASKQ_SHUTDOWN_GRACE", "0", Duration.ZERO, "2h"),
          ex("TASKQ_RESULT_TTL", "0", Duration.ZERO, "500ms", "3651d"),
          ex("TASKQ_MAX_PAYLOAD_BYTES", "512KiB", 512 * 1024, "0", "257MiB", "1MB", "3GiB"),
          ex("TASKQ_MIGRATE", "verify", "verify", "Apply", "later"),
          ex("TASKQ_HTTP_PORT", "8080", 8080, "65536"),
          ex("TASKQ_HTTP_BIND", "0.0.0.0", "0.0.0.0", "local host"),
          ex("TASKQ_HTTP_DASHBOARD", "TRUE", true, "yes", "1"),
          ex("TASKQ_DASHBOARD_PORT", "8081", 8081, "65536"),
          ex("TASKQ_DASHBOARD_BIND", "::1", "::1", "local host"),
          ex("TASKQ_DASHBOARD_PATH", "/ops/jobs", "/ops/jobs", "taskq", "/taskq/", "/a b"),
          ex("TASKQ_DASHBOARD_READ_ONLY", "TRUE", true, "yes", "1"),
          ex("TASKQ_DASHBOARD_TOKEN", "0123456789abcdef", Optional.of("0123456789abcdef")),
          ex("TASKQ_DASHBOARD_USER", "ops", Optional.of("ops"), "a\u0001b"),
          ex("TASKQ_DASHBOARD_PASSWORD", "long enough", Optional.of("long enough")),
          ex(
              "TASKQ_DASHBOARD_ORIGIN",
              "https://ops.example.com",
              Optional.of("https://ops.example.com"),
              "https://ops.example.com/taskq",
              "ftp://x"));

  /** Knobs where 0 is allowed (and means "off" or "do not"). */
  static final List<String> ZERO_ALLOWED =
      List.of(
          "TASKQ_CRON_AUTO_DISABLE_THRESHOLD",
          "TASKQ_EVENT_RETENTION_PERIOD",
          "TASKQ_KEYED_ROW_RECLAIM_PERIOD",
          "TASKQ_SHUTDOWN_GRACE",
          "TASKQ_RESULT_TTL",
          "TASKQ_HTTP_PORT",
          "TASKQ_DASHBOARD_PORT");

  /** Knobs whose values are free text: no "unparseable" value exists for them. */
  static final List<String> FREE_TEXT =
      List.of(
          "TASKQ_SCHEMA_NAME",
          "TASKQ_DATABASE_USER",
          "TASKQ_DATABASE_PASSWORD",
          "TASKQ_WORKER_QUEUES",
          "TASKQ_HTTP_BIND",
          "TASKQ_DASHBOARD_BIND",
          "TASKQ_DASHBOARD_USER",
          "TASKQ_DASHBOARD_TOKEN",
          "TASKQ_DASHBOARD_PASSWORD");

  /** The defaults the guide and the requirements name. */
  static final List<Object[]> GUIDE_DEFAULTS =
      List.of(
          new Object[] {"eventWriterBatchSize", 100},
          new Object[] {"eventWriterStatementTimeout", ofMillis(1750)},
          new Object[] {"reclaimEventVisibilityDelay", ofSeconds(2)},
          new Object[] {"eventWriterReducedBatchDivisor", 4},
          new Object[] {"sweepBreakerFailureThreshold", 3},
          new Object[] {"sweepBreakerWindow", ofSeconds(600)},
          new Object[] {"sweepDrainBatches", 8},
          new Object[] {"sweepInterval", ofSeconds(30)},
          new Object[] {"cronTickLimit", 100},
          new Object[] {"cronAutoDisableThreshold", 10},
          new Object[] {"eventRetentionPeriod", ofDays(7)},
          new Object[] {"keyedRowReclaimPeriod", ofHours(1)},
          new Object[] {"pruneBatchSize", 10_000},
          new Object[] {"schemaName", SchemaName.of("taskq")},
          new Object[] {"maxRetryBackoff", ofHours(1)},
          new Object[] {"dispatcherCommandTimeout", ofSeconds(5)},
          new Object[] {"maxKeyedReservations", 10_000},
          new Object[] {"maxKeyedRateLimits", 10_000},
          new Object[] {"pruneTime", LocalTime.of(3, 0)},
          new Object[] {"archiveExpiryTime", LocalTime.of(4, 0)},
          new Object[] {"pruneAfter", ofDays(7)},
          new Object[] {"archiveRetention", ofDays(30)},
          new Object[] {"databaseUrl", Optional.empty()},
          new Object[] {"databaseUser", Optional.empty()},
          new Object[] {"databasePassword", Optional.empty()},
          new Object[] {"databaseDirectUrl", Optional.empty()},
          new Object[] {"databasePoolSize", 10},
          new Object[] {"databaseKeepaliveTime", ofMinutes(2)},
          new Object[] {"socketTimeout", ofSeconds(30)},
          new Object[] {"connectTimeout", ofSeconds(10)},
          new Object[] {"redisUrl", Optional.empty()},
          new Object[] {"redisCommandTimeout", ofSeconds(2)},
          new Object[] {"workerConcurrency", 8},
          new Object[] {"workerQueues", List.of("default")},
          new Object[] {"claimBatchSize", 256},
          new Object[] {"leasePeriod", ofSeconds(30)},
          new Object[] {"heartbeatInterval", ofSeconds(5)},
          new Object[] {"workerStaleAfter", ofSeconds(60)},
          new Object[] {"pollInterval", ofSeconds(1)},
          new Object[] {"shutdownGrace", ofSeconds(30)},
          new Object[] {"resultTtl", ofDays(1)},
          new Object[] {"maxPayloadBytes", 1_048_576},
          new Object[] {"migrate", "apply"},
          new Object[] {"httpPort", 0},
          new Object[] {"httpBind", "127.0.0.1"},
          new Object[] {"httpDashboard", false},
          new Object[] {"dashboardPort", 0},
          new Object[] {"dashboardBind", "127.0.0.1"},
          new Object[] {"dashboardPath", "/taskq"},
          new Object[] {"dashboardReadOnly", false},
          new Object[] {"dashboardToken", Optional.empty()},
          new Object[] {"dashboardUser", Optional.empty()},
          new Object[] {"dashboardPassword", Optional.empty()},
          new Object[] {"dashboardOrigin", Optional.empty()});

  private KnobExamples() {}

  private static Example ex(String env, String good, Object expected, String... bad) {
    return new Example(env, good, expected, List.of(bad));
  }

  static Example of(String env) {
    return ALL.stream()
        .filter(e -> e.env().equals(env))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no example for " + env));
  }

  /** Calls the accessor {@code name} on {@code config}. */
  static Object read(TaskQConfig config, String accessor) {
    try {
      return TaskQConfig.class.getMethod(accessor).invoke(config);
    } catch (ReflectiveOperationException e) {
      throw new LinkageError("TaskQConfig has no accessor " + accessor + "()", e);
    }
  }
}
