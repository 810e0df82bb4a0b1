package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.cron.MisfirePolicy;
import io.taskq.cron.Schedule;
import io.taskq.cron.Schedules;
import io.taskq.postgres.internal.Handles;
import io.taskq.postgres.internal.TestHooks;
import io.taskq.postgres.internal.cron.CronFaults;
import io.taskq.postgres.internal.cron.CronTick;
import io.taskq.postgres.internal.cron.CronTickResult;
import io.taskq.postgres.internal.cron.PayloadFactories;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The cron tick driven one tick at a time through its real code path (S12, F5, M1, B3):
 * per-schedule isolation, tick-level rollback, the tick limit, the tick deadline and the cron lock.
 */
@TaskQTest
@Tag("S12")
@Tag("F5")
class CronTickTest {
  private static final String ACTOR = "cron-actor";
  private static final String ORPHAN = "cron-orphan-actor";

  private TestDb db;
  private PayloadFactories factories;
  private CronFaults faults;
  private Schedules schedules;

  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    db = TestDb.of(services);
    db.truncate();
    db.execute(db.sql("TRUNCATE {schema}.cron_schedules"));
    db.execute(
        db.sql(
            "INSERT INTO {schema}.actor_config (actor, queue) VALUES ('" + ACTOR + "', 'cronq')"));
    factories = new PayloadFactories();
    faults = new CronFaults();
    schedules = Handles.schedules().create(db.dataSource, db.schema, factories);
  }

  private CronTick tick(int limit, int threshold, Duration deadline) {
    return new CronTick(
        db.schema, factories, faults, limit, threshold, deadline, 1 << 20, System::nanoTime);
  }

  private CronTick tick(int limit, int threshold) {
    return tick(limit, threshold, Duration.ofSeconds(10));
  }

  /** Makes every enabled schedule due a second ago. */
  private void makeDue() throws SQLException {
    db.execute(
        db.sql(
            "UPDATE {schema}.cron_schedules SET next_fire_at = now() - interval '1 second'"
                + " WHERE enabled"));
  }

  private long jobsOf(String schedule) throws SQLException {
    return db.count("jobs WHERE labels ->> 'taskq.cron.schedule' = ?", schedule);
  }

  private Map<String, Object> row(String schedule) throws SQLException {
    return db.rows(db.sql("SELECT * FROM {schema}.cron_schedules WHERE name = ?"), schedule).get(0);
  }

  private void put(String name, String actor) {
    schedules.put(Schedule.builder(name, actor, "0 0 * * *").build());
  }

  @Test
  void firesDueSchedulesAndAdvancesThem() throws SQLException {
    put("nightly", ACTOR);
    makeDue();
    Instant before = (Instant) row("nightly").get("next_fire_at");

    CronTickResult result = tick(100, 3).run(db.dataSource);

    assertThat(result.ran()).isTrue();
    assertThat(result.fired()).isEqualTo(1);
    Map<String, Object> job =
        db.rows(
                db.sql("SELECT * FROM {schema}.jobs WHERE labels ->> 'taskq.cron.schedule' = ?"),
                "nightly")
            .get(0);
    assertThat(job.get("actor")).isEqualTo(ACTOR);
    assertThat(job.get("queue")).isEqualTo("cronq"); // the actor's own queue
    assertThat(job.get("status")).isEqualTo("pending");
    assertThat(String.valueOf(job.get("labels"))).contains(before.toString());
    Map<String, Object> schedule = row("nightly");
    assertThat((Instant) schedule.get("next_fire_at")).isAfter(Instant.now());
    assertThat(schedule.get("last_job_id")).isEqualTo(job.get("id"));
    assertThat(schedule.get("last_fired_at")).isNotNull();

    // Nothing is due any more: the next tick fires nothing.
    assertThat(tick(100, 3).run(db.dataSource).fired()).isZero();
    assertThat(jobsOf("nightly")).isEqualTo(1);
  }

  @Test
  void failingFactoryIsDisabledAtTheThresholdWhileTheOthersStillFire() throws SQLException {
    AtomicInteger calls = new AtomicInteger();
    factories.register(
        "broken",
        fire -> {
          calls.incrementAndGet();
          throw new IllegalStateException("no report for\u0000 " + fire.scheduleName());
        });
    factories.register("good", fire -> "{\"for\": \"" + fire.fireAt() + "\"}");
    put("plain", ACTOR);
    schedules.put(Schedule.builder("made", ACTOR, "0 0 * * *").payloadFactory("good").build());
    schedules.put(Schedule.builder("broken", ACTOR, "0 0 * * *").payloadFactory("broken").build());
    put("orphan", ORPHAN); // no actor_config row for its actor

    for (int i = 1; i <= 3; i++) {
      makeDue();
      CronTickResult result = tick(100, 3).run(db.dataSource);
      assertThat(result.fired()).isEqualTo(2);
      assertThat(result.failed()).isEqualTo(2);
      Map<String, Object> broken = row("broken");
      assertThat(broken.get("consecutive_failures")).isEqualTo(i);
      assertThat(broken.get("enabled")).isEqualTo(i < 3);
      // Derived text: the NUL is escaped, not rejected (the batched UPDATE would otherwise fail).
      assertThat((String) broken.get("last_fire_error"))
          .contains("payload factory 'broken' threw java.lang.IllegalStateException")
          .contains("no report for\\x00 broken");
      assertThat((String) row("orphan").get("last_fire_error"))
          .contains("no actor_config row for actor '" + ORPHAN + "'");
      assertThat(jobsOf("plain")).isEqualTo(i);
      assertThat(jobsOf("made")).isEqualTo(i);
    }
    assertThat(calls.get()).isEqualTo(3);
    assertThat(row("broken").get("enabled")).isEqualTo(false);
    assertThat(row("orphan").get("enabled")).isEqualTo(false);
    assertThat(row("plain").get("consecutive_failures")).isEqualTo(0);
    assertThat(jobsOf("broken") + jobsOf("orphan")).isZero();
    // Disabled schedules are no longer selected.
    makeDue();
    assertThat(tick(100, 3).run(db.dataSource).due()).isEqualTo(2);
    assertThat(calls.get()).isEqualTo(3);
  }

  @Test
  void plannedFailureThroughTheSeamFailsOnlyThatSchedule() throws SQLException {
    put("a", ACTOR);
    put("b", ACTOR);
    makeDue();
    TestHooks.arm(faults.plan(), 1);

    CronTickResult result = tick(100, 0).run(db.dataSource);

    assertThat(faults.plan().fired()).isEqualTo(1);
    assertThat(result.fired()).isEqualTo(1);
    assertThat(result.failed()).isEqualTo(1);
    assertThat(result.disabled()).isEmpty(); // threshold 0 never disables
    assertThat(jobsOf("a") + jobsOf("b")).isEqualTo(1);
    assertThat((String) row("a").get("last_fire_error") + row("b").get("last_fire_error"))
        .contains("injected fault at seam 'cron schedule planning'");
  }

  @Test
  void insertFailureRollsTheWholeTickBack() throws SQLException {
    factories.register(
        "broken",
        fire -> {
          throw new IllegalStateException("boom");
        });
    for (int i = 0; i < 4; i++) {
      put("s" + i, ACTOR);
    }
    schedules.put(Schedule.builder("broken", ACTOR, "0 0 * * *").payloadFactory("broken").build());
    makeDue();
    List<Map<String, Object>> before =
        db.rows(db.sql("SELECT name, next_fire_at FROM {schema}.cron_schedules ORDER BY name"));
    TestHooks.arm(faults.insert(), 1);

    assertThatThrownBy(() -> tick(100, 1).run(db.dataSource))
        .isInstanceOf(SQLTransientConnectionException.class)
        .hasMessageContaining("cron batched enqueue");

    // Nothing enqueued, nothing advanced, and the failure bookkeeping rolled back too.
    assertThat(faults.insert().fired()).isEqualTo(1);
    assertThat(db.count("jobs")).isZero();
    assertThat(
            db.rows(db.sql("SELECT name, next_fire_at FROM {schema}.cron_schedules ORDER BY name")))
        .isEqualTo(before);
    assertThat(row("broken").get("consecutive_failures")).isEqualTo(0);
    assertThat(row("broken").get("enabled")).isEqualTo(true);
    assertThat(row("broken").get("last_fire_error")).isNull();

    // Every schedule stayed due: the next tick fires them.
    CronTickResult retry = tick(100, 1).run(db.dataSource);
    assertThat(retry.fired()).isEqualTo(4);
    assertThat(retry.disabled()).containsExactly("broken");
    assertThat(db.count("jobs")).isEqualTo(4);
  }

  @Test
  void catchUpBurstDrainsAcrossTicksAtTheLimit() throws SQLException {
    db.execute(
        db.sql(
            "INSERT INTO {schema}.cron_schedules (name, actor, cron_expression, payload,"
                + " next_fire_at) SELECT 'burst-' || n, '"
                + ACTOR
                + "', '0 0 * * *', '{}', now() - n * interval '1 second'"
                + " FROM generate_series(1, 250) AS n"));
    CronTick tick = tick(100, 3);

    assertThat(tick.run(db.dataSource).fired()).isEqualTo(100);
    assertThat(db.count("jobs")).isEqualTo(100);
    // The remainder stays due and untouched until its tick.
    assertThat(db.count("cron_schedules WHERE next_fire_at <= now()")).isEqualTo(150);
    assertThat(db.count("cron_schedules WHERE last_fired_at IS NULL")).isEqualTo(150);
    assertThat(tick.run(db.dataSource).fired()).isEqualTo(100);
    assertThat(tick.run(db.dataSource).fired()).isEqualTo(50);
    assertThat(tick.run(db.dataSource).fired()).isZero();

    assertThat(db.count("jobs")).isEqualTo(250);
    assertThat(
            db.count(
                "jobs j WHERE (SELECT count(*) FROM {schema}.jobs k WHERE k.labels ->>"
                    + " 'taskq.cron.schedule' = j.labels ->> 'taskq.cron.schedule') <> 1"))
        .isZero();
  }

  @Test
  @Tag("B3")
  void theWholeTickRunsUnderOneDeadline() throws SQLException {
    factories.register(
        "slow",
        fire -> {
          Thread.sleep(400);
          return "{}";
        });
    put("plain", ACTOR);
    schedules.put(Schedule.builder("slow", ACTOR, "0 0 * * *").payloadFactory("slow").build());
    makeDue();

    // Each statement is fast; the factory alone spends the tick's budget.
    assertThatThrownBy(() -> tick(100, 3, Duration.ofMillis(300)).run(db.dataSource))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("ran past its deadline")
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("57014"));
    assertThat(db.count("jobs")).isZero();
    assertThat(db.count("cron_schedules WHERE next_fire_at <= now()")).isEqualTo(2);

    // The deadline is SET LOCAL: the pooled connection keeps its own statement_timeout.
    try (Connection c = db.dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement("SHOW statement_timeout");
        var rs = ps.executeQuery()) {
      rs.next();
      assertThat(rs.getString(1)).isEqualTo("0");
    }
  }

  @Test
  @Tag("M1")
  void aTickWaitsForNoOneWhileAnotherHoldsTheCronLock() throws SQLException {
    put("locked", ACTOR);
    makeDue();
    long key = AdvisoryLockName.of(AdvisoryLockName.Purpose.CRON, db.schema).key();
    assertThat(AdvisoryLockName.of(AdvisoryLockName.Purpose.CRON, db.schema).name())
        .isEqualTo("taskq:cron:" + db.schema.value());
    try (Connection other = db.dataSource.getConnection()) {
      other.setAutoCommit(false);
      try (PreparedStatement ps = other.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
        ps.setLong(1, key);
        ps.execute();
      }
      CronTickResult skipped = tick(100, 3).run(db.dataSource);
      assertThat(skipped.ran()).isFalse();
      assertThat(db.count("jobs")).isZero();
      other.rollback();
    }
    assertThat(tick(100, 3).run(db.dataSource).fired()).isEqualTo(1);
  }

  @Test
  void misfireAfterDowntimeFiresOnceUnlessConfigured() throws SQLException {
    schedules.put(Schedule.builder("once", ACTOR, "* * * * * *").build());
    schedules.put(
        Schedule.builder("all", ACTOR, "* * * * * *")
            .misfirePolicy(MisfirePolicy.FIRE_ALL)
            .build());
    // An hour of downtime: 3600 fire times missed.
    db.execute(
        db.sql(
            "UPDATE {schema}.cron_schedules SET next_fire_at = date_trunc('second', now()) - interval '1 hour'"));
    Instant missed = (Instant) row("once").get("next_fire_at");

    tick(100, 3).run(db.dataSource);

    assertThat(jobsOf("once")).isEqualTo(1);
    assertThat((Instant) row("once").get("next_fire_at")).isAfter(Instant.now().minusSeconds(1));
    // FIRE_ALL stands for each missed fire time, one per tick, oldest first.
    assertThat(jobsOf("all")).isEqualTo(1);
    assertThat((Instant) row("all").get("next_fire_at")).isEqualTo(missed.plusSeconds(1));
    tick(100, 3).run(db.dataSource);
    assertThat(jobsOf("all")).isEqualTo(2);
  }

  @Test
  void selectingDueSchedulesUsesTheDueIndex() throws SQLException {
    db.execute(
        db.sql(
            "INSERT INTO {schema}.cron_schedules (name, actor, cron_expression, payload,"
                + " next_fire_at, enabled) SELECT 'idx-' || n, '"
                + ACTOR
                + "', '0 0 * * *', '{}', now() + n * interval '1 minute', n % 10 <> 0"
                + " FROM generate_series(1, 20000) AS n"));
    db.execute(db.sql("ANALYZE {schema}.cron_schedules"));
    String selectDue =
        io.taskq.postgres.internal.NamedStatements.load("io/taskq/postgres/sql/cron.sql", db.schema)
            .get("select_due");
    StringBuilder plan = new StringBuilder();
    try (Connection c = db.dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement("EXPLAIN " + selectDue)) {
      ps.setInt(1, 100);
      try (var rs = ps.executeQuery()) {
        while (rs.next()) {
          plan.append(rs.getString(1)).append('\n');
        }
      }
    }
    assertThat(plan.toString()).contains("cron_schedules_due_idx");
  }
}
