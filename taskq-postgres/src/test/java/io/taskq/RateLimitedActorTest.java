package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.limits.Decision;
import io.taskq.limits.RateLimiter;
import io.taskq.limits.SlidingWindowLog;
import io.taskq.limits.UnavailablePolicy;
import io.taskq.postgres.internal.Handles;
import io.taskq.postgres.internal.TestHooks;
import io.taskq.postgres.testing.Db;
import io.taskq.postgres.testing.TcpProxy;
import io.taskq.redis.RedisConnector;
import io.taskq.redis.RedisRateLimiter;
import io.taskq.spi.JobListener;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher side of rate limits (M5, D14): a rate-limited actor's jobs run at most the budget
 * per window across workers, a refused job waits without burning an attempt, keyed limits go
 * through the worker's bounded registry (S10), and jobs keep flowing when Redis goes away under the
 * fall-back and fail-open policies (and wait, never lost, under fail-closed).
 */
@TaskQTest(poolSize = 24)
@Tag("M5")
class RateLimitedActorTest {
  private static final Pattern CUSTOMER = Pattern.compile("\"c\"\\s*:\\s*\"([^\"]+)\"");

  private final List<TaskQ> workers = new ArrayList<>();
  private final List<AutoCloseable> closeLast = new ArrayList<>();
  private final List<Instant> starts = new CopyOnWriteArrayList<>();

  /** R6: the waits, as the job listener heard them (a refusal writes no job_events row). */
  private final AtomicInteger waits = new AtomicInteger();

  private TestDb db;
  private Db rows;

  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    db = TestDb.of(services);
    rows = new Db(services.dataSource());
    db.truncate();
    db.execute(db.sql("TRUNCATE {schema}.rate_limit_buckets"));
  }

  @AfterEach
  void closeAll() throws Exception {
    workers.forEach(TaskQ::close);
    workers.clear();
    for (AutoCloseable c : closeLast) {
      c.close();
    }
    closeLast.clear();
  }

  private TaskQConfig.Builder quick() {
    return db.config().pollInterval(Duration.ofMillis(50)).workerConcurrency(4);
  }

  private TaskQ worker(TaskQ.Builder builder, Actor<?> actor) throws SQLException {
    TaskQ taskq = builder.build();
    workers.add(taskq);
    taskq.register(actor);
    taskq.start();
    return taskq;
  }

  private TaskQ.Builder builder(TaskQConfig.Builder settings) {
    return TaskQ.builder(db.dataSource)
        .config(settings.build())
        .migrate(false)
        .maintenance(false)
        .jobListener(
            new JobListener() {
              @Override
              public void jobRateLimited(String actor, String queue) {
                waits.incrementAndGet();
              }
            });
  }

  private Actor<String> recording(String name, SlidingWindowLog limit) {
    return Actor.builder(
            name,
            io.taskq.PayloadCodec.rawJson(),
            (String json, io.taskq.JobContext ctx) -> {
              starts.add(Instant.now());
              return null;
            })
        .rateLimit(name + "-limit", limit)
        .build();
  }

  private List<Long> enqueue(String actor, int count) {
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(workers.get(0).jobs().enqueue(JobRequest.of(actor, "{\"i\": " + i + "}")));
    }
    return ids;
  }

  private long count(String where) {
    return rows.queryLong(db.sql("SELECT count(*) FROM {schema}." + where));
  }

  private void awaitSucceeded(int jobs, Duration within) {
    await()
        .atMost(within)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> count("jobs WHERE status = 'succeeded'") == jobs);
  }

  /** No attempt burned: each job ran once, as attempt 1, with one attempt row. */
  private void assertNoAttemptBurned(int jobs) {
    assertThat(count("jobs WHERE attempt = 1 AND status = 'succeeded'")).isEqualTo(jobs);
    assertThat(count("job_attempt_history")).isEqualTo(jobs);
    assertThat(count("job_attempt_history WHERE outcome <> 'succeeded'")).isZero();
  }

  /** When an admitted decision was asked for, and when it came back (the test's clock). */
  record Admission(Instant asked, Instant answered) {}

  @Test
  @Tag("R6")
  void aLimitedActor_runsAtMostItsBudgetPerWindow_acrossTwoWorkers_burningNoAttempt()
      throws Exception {
    SlidingWindowLog threePerSecond = SlidingWindowLog.of(3, Duration.ofSeconds(1));
    List<Admission> admissions = new CopyOnWriteArrayList<>();
    BiFunction<Actor.ActorRateLimit, RateLimiter, RateLimiter> recorded =
        (declared, rootsOwn) -> {
          RateLimiter postgres =
              Handles.slidingWindows().create(db.dataSource, db.schema, threePerSecond, false);
          return (name, permits) -> {
            Instant asked = Instant.now();
            Decision d = postgres.tryAcquire(name, permits);
            if (d.allowed()) {
              admissions.add(new Admission(asked, Instant.now()));
            }
            return d;
          };
        };
    Actor<String> actor = recording("limited", threePerSecond);
    worker(builder(quick()).rateLimiters(recorded), actor);
    worker(builder(quick()).rateLimiters(recorded), actor);

    enqueue("limited", 9);
    awaitSucceeded(9, Duration.ofSeconds(30));

    assertThat(starts).hasSize(9);
    List<Admission> sorted = new ArrayList<>(admissions);
    sorted.sort(Comparator.comparing(Admission::asked));
    assertThat(sorted).hasSize(9);
    for (int i = 0; i + 3 < sorted.size(); i++) {
      // Any 4 admissions span at least one window on the database clock; the decisions happened
      // between asked and answered, so the last answer of 4 is at least a window after the first
      // question (this cannot fail for a limiter that holds, whatever the machine's load).
      Instant lastAnswer =
          sorted.subList(i, i + 4).stream()
              .map(Admission::answered)
              .max(Comparator.naturalOrder())
              .orElseThrow();
      assertThat(Duration.between(sorted.get(i).asked(), lastAnswer))
          .as("admissions %s", sorted)
          .isGreaterThanOrEqualTo(Duration.ofSeconds(1));
    }
    assertNoAttemptBurned(9);
    assertThat(waits).as("the waits are counted").hasPositiveValue();
    // R6: a refusal writes no job_events row (a row per refusal grows without bound).
    assertThat(count("job_events WHERE kind = 'rate_limited'")).as("rows per refusal").isZero();
  }

  @Test
  @Tag("L8")
  void aJobCancelledWhileItsLimiterDecides_endsCancelled_insteadOfWaiting() throws Exception {
    CountDownLatch asked = new CountDownLatch(1);
    CountDownLatch answer = new CountDownLatch(1);
    RateLimiter slowRefusal =
        (name, permits) -> {
          asked.countDown();
          try {
            if (!answer.await(20, TimeUnit.SECONDS)) {
              throw new IllegalStateException("the test never answered");
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return Decision.denied(Duration.ofMinutes(5), 0);
        };
    Actor<String> actor = recording("cancelled", SlidingWindowLog.of(1, Duration.ofHours(1)));
    TaskQ taskq = worker(builder(quick()).rateLimiters((declared, postgres) -> slowRefusal), actor);
    long id = enqueue("cancelled", 1).get(0);

    assertThat(asked.await(20, TimeUnit.SECONDS)).isTrue();
    taskq.jobs().cancel(id);
    answer.countDown();

    await().atMost(Duration.ofSeconds(15)).until(() -> db.status(id).equals("cancelled"));
    assertThat(starts).isEmpty();
    assertThat(count("job_attempts WHERE outcome = 'cancelled'")).isEqualTo(1);
    assertThat(count("job_events WHERE kind = 'cancelled'")).isEqualTo(1);
    assertThat(count("job_events WHERE kind = 'rate_limited'")).isZero();
    assertThat(waits).hasValue(0);
  }

  @Test
  void aLimiterThatFails_makesTheJobWait_neverSkipsTheLimit() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    RateLimiter failingOnce =
        (name, permits) -> {
          if (calls.incrementAndGet() == 1) {
            throw new IllegalStateException("store and fallback both down");
          }
          return Decision.allowed(0);
        };
    Actor<String> actor = recording("failing", SlidingWindowLog.of(1, Duration.ofHours(1)));
    worker(builder(quick()).rateLimiters((declared, postgres) -> failingOnce), actor);

    enqueue("failing", 1);

    awaitSucceeded(1, Duration.ofSeconds(15));
    assertThat(calls).hasValue(2);
    assertThat(waits).hasValue(1);
    assertThat(count("job_events WHERE kind = 'rate_limited'")).isZero();
    assertNoAttemptBurned(1);
  }

  @Test
  void aWaitingJob_isClaimedWhenDue_notAtTheNextPoll() throws Exception {
    Actor<String> actor = recording("due", SlidingWindowLog.of(1, Duration.ofMillis(300)));
    // A poll interval far longer than the whole test: only the due-time wake-ups can claim.
    worker(builder(quick().pollInterval(Duration.ofSeconds(30))), actor);

    enqueue("due", 3);

    awaitSucceeded(3, Duration.ofSeconds(10));
    assertNoAttemptBurned(3);
  }

  @Test
  @Tag("S10")
  @Tag("S9")
  void keyedLimits_eachKeyItsOwnBudget_throughABoundedRegistry() throws Exception {
    Actor<String> perCustomer =
        Actor.builder(
                "per-customer",
                io.taskq.PayloadCodec.rawJson(),
                (String json, io.taskq.JobContext ctx) -> null)
            .rateLimit(
                "customer",
                SlidingWindowLog.of(1, Duration.ofHours(1)),
                RateLimitedActorTest::customerOf)
            .build();
    TaskQ taskq = worker(builder(quick().maxKeyedRateLimits(2)), perCustomer);

    for (String c : List.of("a", "b", "c", "a")) {
      taskq.jobs().enqueue(JobRequest.of("per-customer", "{\"c\": \"" + c + "\"}"));
    }

    awaitSucceeded(3, Duration.ofSeconds(20));
    await().atMost(Duration.ofSeconds(10)).until(() -> waits.get() >= 1);
    // The second job of customer a waits its hour: pending, no attempt used.
    assertThat(
            count(
                "jobs WHERE status = 'pending' AND attempt = 0 AND run_at > now() + interval '50 minutes'"))
        .isEqualTo(1);
    assertThat(
            rows.queryColumn(
                db.sql("SELECT name FROM {schema}.rate_limit_buckets WHERE keyed ORDER BY name")))
        .containsExactly("customer:a", "customer:b", "customer:c");
    assertThat(TestHooks.of(taskq).worker().registeredRateLimitKeys()).isLessThanOrEqualTo(2);
  }

  @Test
  @Tag("S10")
  void eachWorkerEvictsItsIdleKeys_andReclaimsTheirRows_withoutTheLeader() throws Exception {
    Actor<String> perCustomer =
        Actor.builder(
                "per-customer",
                io.taskq.PayloadCodec.rawJson(),
                (String json, io.taskq.JobContext ctx) -> null)
            .rateLimit(
                "customer",
                SlidingWindowLog.of(5, Duration.ofMillis(200)),
                RateLimitedActorTest::customerOf)
            .build();
    // No maintenance: the eviction tick is the worker's own (S10 is not leader-gated).
    TaskQ taskq =
        worker(
            builder(
                quick()
                    .sweepInterval(Duration.ofMillis(500))
                    .keyedRowReclaimPeriod(Duration.ofSeconds(1))),
            perCustomer);

    for (String c : List.of("a", "b")) {
      taskq.jobs().enqueue(JobRequest.of("per-customer", "{\"c\": \"" + c + "\"}"));
    }
    awaitSucceeded(2, Duration.ofSeconds(20));
    assertThat(count("rate_limit_buckets WHERE keyed")).isEqualTo(2);

    await()
        .atMost(Duration.ofSeconds(15))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> TestHooks.of(taskq).worker().registeredRateLimitKeys() == 0);
    await()
        .atMost(Duration.ofSeconds(15))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> count("rate_limit_buckets") == 0);
  }

  private static String customerOf(String json) {
    Matcher m = CUSTOMER.matcher(json);
    if (!m.find()) {
      throw new IllegalArgumentException("no customer in " + json);
    }
    return m.group(1);
  }

  @Test
  @Tag("D14")
  void redisStoppedMidRun_fallsBackToPostgres_andJobsKeepFlowing(TestServices services)
      throws Exception {
    TcpProxy proxy = TcpProxy.to(services.redisUri());
    closeLast.add(proxy);
    RedisConnector redis =
        RedisConnector.create(
            proxy.redisUrl(), Duration.ofMillis(300), SchemaName.of(services.schema()));
    closeLast.add(redis);
    List<Decision> decisions = new CopyOnWriteArrayList<>();
    BiFunction<Actor.ActorRateLimit, RateLimiter, RateLimiter> viaRedis =
        (declared, postgres) -> {
          RateLimiter limiter =
              RedisRateLimiter.create(
                  redis, declared.limit(), UnavailablePolicy.fallbackTo(postgres));
          return (name, permits) -> {
            Decision d = limiter.tryAcquire(name, permits);
            decisions.add(d);
            return d;
          };
        };
    Actor<String> actor = recording("flowing", SlidingWindowLog.of(50, Duration.ofHours(1)));
    worker(builder(quick()).rateLimiters(viaRedis), actor);

    enqueue("flowing", 4);
    awaitSucceeded(4, Duration.ofSeconds(20));
    proxy.stop();
    enqueue("flowing", 4);
    awaitSucceeded(8, Duration.ofSeconds(20));

    assertThat(decisions).hasSize(8);
    assertThat(decisions.subList(0, 4)).noneMatch(Decision::degraded).allMatch(Decision::allowed);
    assertThat(decisions.subList(4, 8)).allMatch(Decision::degraded).allMatch(Decision::allowed);
    assertThat(
            rows.queryColumn(
                db.sql("SELECT cardinality(window_log) FROM {schema}.rate_limit_buckets")))
        .as("the fallback counted the 4 jobs it admitted")
        .containsExactly(4);
    assertNoAttemptBurned(8);
  }

  @Test
  @Tag("D14")
  void redisUnreachable_failOpen_jobsKeepFlowing(TestServices services) throws Exception {
    RedisConnector redis =
        RedisConnector.create(
            "redis://127.0.0.1:1", Duration.ofMillis(300), SchemaName.of(services.schema()));
    closeLast.add(redis);
    Actor<String> actor = recording("open", SlidingWindowLog.of(2, Duration.ofHours(1)));
    worker(
        builder(quick())
            .rateLimiters(
                (declared, postgres) ->
                    RedisRateLimiter.create(redis, declared.limit(), UnavailablePolicy.failOpen())),
        actor);

    enqueue("open", 5);

    awaitSucceeded(5, Duration.ofSeconds(20));
    assertNoAttemptBurned(5);
  }

  @Test
  @Tag("D14")
  void redisUnreachable_failClosed_jobsWait_neverLost_noAttemptBurned(TestServices services)
      throws Exception {
    RedisConnector redis =
        RedisConnector.create(
            "redis://127.0.0.1:1", Duration.ofMillis(300), SchemaName.of(services.schema()));
    closeLast.add(redis);
    Actor<String> actor = recording("closed", SlidingWindowLog.of(2, Duration.ofHours(1)));
    worker(
        builder(quick())
            .rateLimiters(
                (declared, postgres) ->
                    RedisRateLimiter.create(
                        redis,
                        declared.limit(),
                        UnavailablePolicy.failClosed(Duration.ofMillis(200)))),
        actor);

    enqueue("closed", 3);

    await().atMost(Duration.ofSeconds(15)).until(() -> waits.get() >= 6);
    assertThat(starts).as("no handler ran").isEmpty();
    assertThat(count("jobs WHERE status IN ('pending', 'running') AND attempt <= 1")).isEqualTo(3);
    assertThat(count("job_attempts")).isZero();
  }
}
