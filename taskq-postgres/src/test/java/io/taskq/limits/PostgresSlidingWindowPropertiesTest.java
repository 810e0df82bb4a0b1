package io.taskq.limits;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.taskq.SchemaName;
import io.taskq.postgres.internal.Handles;
import io.taskq.postgres.internal.migrate.Migrations;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The PostgreSQL sliding window decides exactly as the reference model ({@link SlidingWindowModel},
 * the model the Redis script matches) along random timelines: same admissions, same retry-after,
 * same remaining, call by call, so the fallback and the Redis limiter are interchangeable.
 *
 * <p>The limiter takes the instant from the test here (its test-only seam) so limiter and model see
 * the same timeline however slowly the calls run. jqwik does not run JUnit Jupiter extensions, so
 * this class finds PostgreSQL as the harness does ({@code taskq.test.jdbc.url}, {@code
 * TASKQ_TEST_JDBC_URL}, else the local server) and drops its own schema afterwards.
 */
@Tag("M4")
class PostgresSlidingWindowPropertiesTest {
  private static final SchemaName SCHEMA =
      SchemaName.of("swprop_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 4));
  private static final HikariDataSource POOL = pool();
  private static final AtomicLong NAMES = new AtomicLong();

  /** One step of a timeline: advance by {@code percent}% of window/limit, then ask. */
  record Step(int percent, int extraMicros, int permitsSeed) {}

  @Property(tries = 40)
  void decidesExactlyAsTheModel(
      @ForAll @IntRange(min = 1, max = 8) int limit,
      @ForAll @IntRange(min = 1, max = 200) int windowMillis,
      @ForAll("timelines") List<Step> timeline) {
    SlidingWindowLog log = SlidingWindowLog.of(limit, Duration.ofMillis(windowMillis));
    assertMatchesModel(log, log.windowMicros() / limit, timeline);
  }

  /**
   * Timelines on the window's own grid (steps of exactly window/limit), so permits leave the window
   * at the very instant of a later call: the boundary "an entry exactly one window old no longer
   * counts" is exercised on most tries.
   */
  @Property(tries = 30)
  void decidesExactlyAsTheModel_onTheWindowBoundary(
      @ForAll @IntRange(min = 1, max = 6) int limit,
      @ForAll @IntRange(min = 1, max = 50) int unitMillis,
      @ForAll("gridTimelines") List<Step> timeline) {
    SlidingWindowLog log = SlidingWindowLog.of(limit, Duration.ofMillis((long) unitMillis * limit));
    assertMatchesModel(log, unitMillis * 1000L, timeline);
  }

  private static void assertMatchesModel(SlidingWindowLog log, long unit, List<Step> timeline) {
    int limit = log.limit();
    PostgresSlidingWindow limiter = Handles.slidingWindows().create(POOL, SCHEMA, log, false);
    SlidingWindowModel model = new SlidingWindowModel(log);
    String name = "p" + NAMES.incrementAndGet();
    long simulated = Instant.now().truncatedTo(ChronoUnit.SECONDS).toEpochMilli() * 1000;
    List<String> trace = new ArrayList<>();
    for (Step step : timeline) {
      simulated += unit * step.percent() / 100 + step.extraMicros();
      int permits = 1 + step.permitsSeed() % limit;
      Decision expected = model.decide(simulated, permits);
      Decision actual = limiter.decide(name, permits, simulated);
      trace.add("t=" + simulated + " n=" + permits + " -> " + actual);
      assertThat(actual).as("%s after %s", log, trace).isEqualTo(expected);
    }
  }

  @Provide
  Arbitrary<List<Step>> timelines() {
    Arbitrary<Step> step =
        Combinators.combine(
                Arbitraries.integers().between(0, 300).edgeCases(e -> e.add(0, 100)),
                Arbitraries.integers().between(0, 999),
                Arbitraries.integers().between(0, 1000))
            .as(Step::new);
    return step.list().ofMinSize(1).ofMaxSize(30);
  }

  @Provide
  Arbitrary<List<Step>> gridTimelines() {
    Arbitrary<Step> step =
        Combinators.combine(
                Arbitraries.of(0, 100, 100, 200),
                Arbitraries.just(0),
                Arbitraries.integers().between(0, 1000))
            .as(Step::new);
    return step.list().ofMinSize(1).ofMaxSize(30);
  }

  @AfterContainer
  static void dropSchema() throws Exception {
    try (Connection c = POOL.getConnection();
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS " + SCHEMA.value() + " CASCADE");
    } finally {
      POOL.close();
    }
  }

  private static HikariDataSource pool() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl());
    config.setMaximumPoolSize(2);
    HikariDataSource pool = new HikariDataSource(config);
    Migrations.apply(pool, SCHEMA);
    return pool;
  }

  private static String jdbcUrl() {
    String fromProperty = System.getProperty("taskq.test.jdbc.url");
    if (fromProperty != null && !fromProperty.isBlank()) {
      return fromProperty;
    }
    String fromEnv = System.getenv("TASKQ_TEST_JDBC_URL");
    return fromEnv != null && !fromEnv.isBlank()
        ? fromEnv
        : "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
  }
}
