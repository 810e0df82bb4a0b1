package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.limits.Decision;
import io.taskq.limits.PostgresSlidingWindow;
import io.taskq.limits.RateLimitRegistry;
import io.taskq.limits.SlidingWindowLog;
import io.taskq.limits.UnavailablePolicy;
import io.taskq.postgres.internal.Handles;
import io.taskq.postgres.internal.maintenance.SweepCatalog;
import io.taskq.postgres.internal.migrate.Migrations;
import io.taskq.postgres.internal.sweep.StatementSweep;
import io.taskq.postgres.testing.Db;
import io.taskq.redis.RedisConnector;
import io.taskq.redis.RedisRateLimiter;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL sliding window (M4, M5, D14): exactly its budget under many concurrent callers in
 * two "processes" (two pools), refill after the window, serialisation on the keyed advisory lock
 * {@code taskq:{schema}:sw:{name}}, schema isolation (M6), and its keyed rows' life cycle (S9,
 * S10).
 */
@TaskQTest(poolSize = 12)
@Tag("M4")
class PostgresSlidingWindowTest {
  private static final SlidingWindowLog HOUR_OF_25 = SlidingWindowLog.of(25, Duration.ofHours(1));

  private static HikariDataSource secondProcess;
  private SchemaName schema;
  private Db db;

  @BeforeAll
  static void migrate(TestServices services) {
    Migrations.apply(services.dataSource(), SchemaName.of(services.schema()));
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(services.jdbcUrl());
    config.setMaximumPoolSize(8);
    secondProcess = new HikariDataSource(config);
  }

  @AfterAll
  static void close() {
    secondProcess.close();
  }

  @BeforeEach
  void clean(TestServices services) {
    schema = SchemaName.of(services.schema());
    db = new Db(services.dataSource());
    db.execute("TRUNCATE " + schema.quoted() + ".rate_limit_buckets");
  }

  @Test
  void manyThreadsInTwoProcesses_admitExactlyTheBudget(TestServices services) throws Exception {
    PostgresSlidingWindow one =
        Handles.slidingWindows().create(services.dataSource(), schema, HOUR_OF_25, false);
    PostgresSlidingWindow two =
        Handles.slidingWindows().create(secondProcess, schema, HOUR_OF_25, false);
    ExecutorService threads = Executors.newFixedThreadPool(16);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Decision>> calls = new ArrayList<>();
    try {
      for (int i = 0; i < 80; i++) {
        PostgresSlidingWindow limiter = i % 2 == 0 ? one : two;
        calls.add(
            threads.submit(
                () -> {
                  start.await();
                  return limiter.tryAcquire("shared-api");
                }));
      }
      start.countDown();
      List<Decision> decisions = new ArrayList<>();
      for (Future<Decision> call : calls) {
        decisions.add(call.get(60, TimeUnit.SECONDS));
      }
      assertThat(decisions.stream().filter(Decision::allowed)).hasSize(25);
      assertThat(decisions).noneMatch(Decision::degraded);
      assertThat(decisions.stream().filter(d -> !d.allowed()))
          .allMatch(d -> d.remaining() == 0)
          .allMatch(d -> d.retryAfter().compareTo(Duration.ofMinutes(59)) > 0);
      assertThat(
              db.queryLong(
                  "SELECT cardinality(window_log) FROM "
                      + schema.quoted()
                      + ".rate_limit_buckets"
                      + " WHERE name = 'shared-api'"))
          .isEqualTo(25);
    } finally {
      threads.shutdownNow();
    }
  }

  private static final Duration WINDOW = Duration.ofMillis(1500);

  @Test
  void aRefusedCallSucceedsOnceItsRetryAfterHasPassed(TestServices services) throws Exception {
    PostgresSlidingWindow limiter =
        Handles.slidingWindows()
            .create(services.dataSource(), schema, SlidingWindowLog.of(2, WINDOW), false);

    // The window is long enough that a stalled CI host cannot let it slide between these calls.
    assertThat(limiter.tryAcquire("refill")).isEqualTo(Decision.allowed(1));
    assertThat(limiter.tryAcquire("refill")).isEqualTo(Decision.allowed(0));
    Decision refused = limiter.tryAcquire("refill");

    assertThat(refused.allowed()).isFalse();
    assertThat(refused.retryAfter()).isPositive().isLessThanOrEqualTo(WINDOW);
    assertThat(limiter.tryAcquire("other-name").allowed()).as("names are independent").isTrue();
    Thread.sleep(refused.retryAfter().toMillis() + 5);
    assertThat(limiter.tryAcquire("refill").allowed()).isTrue();
  }

  @Test
  void multiplePermits_countEachAndNeverExceedTheLimit(TestServices services) {
    PostgresSlidingWindow limiter =
        Handles.slidingWindows()
            .create(
                services.dataSource(), schema, SlidingWindowLog.of(5, Duration.ofHours(1)), false);

    assertThat(limiter.tryAcquire("bulk", 3)).isEqualTo(Decision.allowed(2));
    Decision refused = limiter.tryAcquire("bulk", 3);
    assertThat(refused.allowed()).isFalse();
    assertThat(refused.remaining()).isEqualTo(2);
    assertThat(limiter.tryAcquire("bulk", 2)).isEqualTo(Decision.allowed(0));
  }

  @Test
  void decisionsSerialiseOnTheKeyedAdvisoryLock(TestServices services) throws Exception {
    PostgresSlidingWindow limiter =
        Handles.slidingWindows().create(services.dataSource(), schema, HOUR_OF_25, false);
    AdvisoryLockName lock = AdvisoryLockName.slidingWindow(schema, "locked");
    assertThat(lock.name()).isEqualTo("taskq:" + schema.value() + ":sw:locked");
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try (Connection holder = services.dataSource().getConnection()) {
      holder.setAutoCommit(false);
      try (PreparedStatement s = holder.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
        s.setLong(1, lock.key());
        s.execute();
      }
      Future<Decision> blocked = caller.submit(() -> limiter.tryAcquire("locked"));
      assertThat(limiter.tryAcquire("not-locked").allowed())
          .as("another name does not wait")
          .isTrue();
      Thread.sleep(300);
      assertThat(blocked).as("waits while another holds the name's lock").isNotDone();
      holder.commit();
      assertThat(blocked.get(10, TimeUnit.SECONDS).allowed()).isTrue();
    } finally {
      caller.shutdownNow();
    }
  }

  @Test
  @Tag("M6")
  void twoSchemasInOneDatabase_neverShareAWindow(TestServices services) {
    SchemaName other = SchemaName.of(services.schema() + "_b");
    Migrations.apply(services.dataSource(), other);
    try {
      SlidingWindowLog one = SlidingWindowLog.of(1, Duration.ofHours(1));
      PostgresSlidingWindow here =
          Handles.slidingWindows().create(services.dataSource(), schema, one, false);
      PostgresSlidingWindow there =
          Handles.slidingWindows().create(services.dataSource(), other, one, false);

      assertThat(here.tryAcquire("api").allowed()).isTrue();
      assertThat(there.tryAcquire("api").allowed()).as("the other schema's own budget").isTrue();
      assertThat(here.tryAcquire("api").allowed()).isFalse();
      assertThat(AdvisoryLockName.slidingWindow(schema, "api").key())
          .isNotEqualTo(AdvisoryLockName.slidingWindow(other, "api").key());
    } finally {
      db.execute("DROP SCHEMA " + other.quoted() + " CASCADE");
    }
  }

  @Test
  void badInput_isRefusedNamingTheProblem(TestServices services) {
    PostgresSlidingWindow limiter =
        Handles.slidingWindows().create(services.dataSource(), schema, HOUR_OF_25, false);

    assertThatThrownBy(() -> limiter.tryAcquire("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> limiter.tryAcquire("a\u0000b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("NUL");
    assertThatThrownBy(() -> limiter.tryAcquire("taskq:global:queue:x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("process-local");
    assertThatThrownBy(() -> limiter.tryAcquire("api", 26))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("permits must be in 1..25");
    assertThat(db.queryLong("SELECT count(*) FROM " + schema.quoted() + ".rate_limit_buckets"))
        .isZero();
  }

  @Test
  @Tag("S9")
  void keyedRows_areMarked_andTheIdleSweepDeletesThemOnly(TestServices services) throws Exception {
    SlidingWindowLog limit = SlidingWindowLog.of(3, Duration.ofSeconds(1));
    PostgresSlidingWindow keyed =
        Handles.slidingWindows().create(services.dataSource(), schema, limit, true);
    PostgresSlidingWindow plain =
        Handles.slidingWindows().create(services.dataSource(), schema, limit, false);
    Instant before = Instant.now().minusSeconds(5);

    keyed.tryAcquire("customer:1");
    keyed.tryAcquire("customer:2");
    plain.tryAcquire("global-api");

    assertThat(
            db.queryColumn(
                "SELECT name FROM "
                    + schema.quoted()
                    + ".rate_limit_buckets WHERE keyed ORDER BY name"))
        .containsExactly("customer:1", "customer:2");
    assertThat(
            db.queryLong(
                "SELECT count(*) FROM "
                    + schema.quoted()
                    + ".rate_limit_buckets WHERE last_used_at > ?",
                java.sql.Timestamp.from(before)))
        .isEqualTo(3);
    // customer:1 and the plain row go unused for two hours; customer:2 stays fresh.
    db.update(
        "UPDATE "
            + schema.quoted()
            + ".rate_limit_buckets SET last_used_at = now() - interval '2 hours'"
            + " WHERE name IN ('customer:1', 'global-api')");

    StatementSweep sweep = SweepCatalog.SWEEP_IDLE_KEYED_ROWS.batch(schema, Duration.ofHours(1));
    try (Connection tx = services.dataSource().getConnection()) {
      tx.setAutoCommit(false);
      assertThat(sweep.runCounts(tx, 256)).isEqualTo(List.of(0, 1));
      tx.commit();
    }
    assertThat(
            db.queryColumn(
                "SELECT name FROM " + schema.quoted() + ".rate_limit_buckets ORDER BY name"))
        .containsExactly("customer:2", "global-api");
  }

  @Test
  @Tag("S10")
  void registryEviction_reclaimsTheEvictedKeysRows_onlyOnceTheirWindowIsEmpty(
      TestServices services) {
    PostgresSlidingWindow keyed =
        Handles.slidingWindows()
            .create(
                services.dataSource(),
                schema,
                SlidingWindowLog.of(3, Duration.ofMillis(300)),
                true);
    AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
    InstantSource clock = now::get;
    RateLimitRegistry registry =
        RateLimitRegistry.create(2, Duration.ofMinutes(5), clock, n -> keyed);

    registry.tryAcquire("customer:1");
    registry.tryAcquire("customer:2");
    registry.tryAcquire("customer:3"); // beyond the cap of 2: customer:1 is evicted
    assertThat(registry.size()).isEqualTo(2);
    assertThat(registry.pendingEvictions()).containsExactly("customer:1");

    // Drained at once, customer:1's permit is still inside its window: the row stays.
    assertThat(registry.drainEvicted(keyed::forget)).isEqualTo(1);
    assertThat(rowNames()).contains("customer:1");

    now.set(now.get().plus(Duration.ofMinutes(6)));
    assertThat(registry.evictIdle()).isEqualTo(2);
    db.update(
        "UPDATE "
            + schema.quoted()
            + ".rate_limit_buckets SET last_used_at = now() - interval '1 second'");
    List<String> drained = new ArrayList<>();
    registry.drainEvicted(
        names -> {
          drained.addAll(names);
          keyed.forget(names);
        });

    assertThat(drained).containsExactlyInAnyOrder("customer:2", "customer:3");
    assertThat(rowNames()).containsExactly("customer:1");
    assertThat(
            registry.drainEvicted(
                names -> {
                  throw new AssertionError("nothing pending: the drain must not be called");
                }))
        .isZero();
  }

  @Test
  @Tag("D14")
  @Tag("M5")
  void asTheFallbackOfAnUnreachableRedis_theLimitStillHolds(TestServices services) {
    SlidingWindowLog three = SlidingWindowLog.of(3, Duration.ofHours(1));
    try (RedisConnector closedPort =
        RedisConnector.create("redis://127.0.0.1:1", Duration.ofMillis(300), schema)) {
      RedisRateLimiter limiter =
          RedisRateLimiter.create(
              closedPort,
              three,
              UnavailablePolicy.fallbackTo(
                  Handles.slidingWindows().create(services.dataSource(), schema, three, false)));

      List<Decision> decisions =
          assertTimeoutPreemptively(
              Duration.ofSeconds(15),
              () -> {
                List<Decision> out = new ArrayList<>();
                for (int i = 0; i < 6; i++) {
                  out.add(limiter.tryAcquire("behind-redis"));
                }
                return out;
              });

      assertThat(decisions).allMatch(Decision::degraded);
      assertThat(decisions)
          .extracting(Decision::allowed)
          .containsExactly(true, true, true, false, false, false);
      assertThat(closedPort.available()).isFalse();
    }
  }

  private List<Object> rowNames() {
    return db.queryColumn(
        "SELECT name FROM " + schema.quoted() + ".rate_limit_buckets ORDER BY name");
  }
}
