package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.taskq.cron.Schedule;
import io.taskq.cron.ScheduleInfo;
import io.taskq.cron.Schedules;
import io.taskq.spi.JobListener;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Cron end to end through TaskQ: the Schedules API and the running cron loop (S12, M1). */
@TaskQTest(poolSize = 20)
@Tag("S12")
class CronTest {
  private static final String ACTOR = "cron-e2e";
  private final List<TaskQ> fleet = new ArrayList<>();
  private TestDb db;

  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    db = TestDb.of(services);
    db.truncate();
    db.execute(db.sql("TRUNCATE {schema}.cron_schedules"));
  }

  @AfterEach
  void closeFleet() {
    fleet.forEach(TaskQ::close);
    fleet.clear();
  }

  private TaskQ started(Actor<?> actor) throws SQLException {
    return started(actor, JobListener.NONE);
  }

  private TaskQ started(Actor<?> actor, JobListener listener) throws SQLException {
    TaskQConfig.Builder settings = db.config().sweepInterval(Duration.ofSeconds(30));
    TaskQ taskq =
        TaskQ.builder(db.dataSource)
            .config(settings.build())
            .migrate(false)
            .jobListener(listener)
            .build();
    fleet.add(taskq);
    taskq.register(actor);
    taskq.start();
    return taskq;
  }

  @Test
  void aScheduleFiresOnTime() throws SQLException {
    ConcurrentLinkedQueue<Instant> ran = new ConcurrentLinkedQueue<>();
    AtomicInteger enqueued = new AtomicInteger();
    JobListener listener =
        new JobListener() {
          @Override
          public void jobsEnqueued(String actor, String queue, int count) {
            enqueued.addAndGet(count);
          }
        };
    TaskQ taskq =
        started(
            Actor.rawJson(
                ACTOR,
                (json, ctx) -> {
                  ran.add(Instant.now());
                  return null;
                }),
            listener);
    ScheduleInfo info =
        taskq.schedules().put(Schedule.builder("every-second", ACTOR, "* * * * * *").build());
    assertThat(info.enabled()).isTrue();

    await().atMost(Duration.ofSeconds(10)).until(() -> ran.size() >= 3);

    List<Map<String, Object>> jobs =
        db.rows(
            db.sql(
                "SELECT created_at, labels ->> 'taskq.cron.fire_at' AS fire_at FROM {schema}.jobs"));
    for (Map<String, Object> job : jobs) {
      Instant fireAt = Instant.parse((String) job.get("fire_at"));
      Instant created = (Instant) job.get("created_at");
      // Ticks run every second: a job is enqueued within about a tick of its fire time, never
      // before.
      assertThat(created).isAfterOrEqualTo(fireAt);
      assertThat(Duration.between(fireAt, created)).isLessThan(Duration.ofSeconds(5));
    }
    // Cron fires count as enqueues for the job listener (taskq.jobs.enqueued).
    assertThat(enqueued.get()).isGreaterThanOrEqualTo(jobs.size() - 1).isPositive();
    ScheduleInfo after = taskq.schedules().find("every-second").orElseThrow();
    assertThat(after.lastFiredAt()).isNotNull();
    assertThat(after.lastJobId()).isNotNull();
    assertThat(after.consecutiveFailures()).isZero();
  }

  @Test
  @Tag("M1")
  void twoProcessesNeverFireTheSameScheduleTwice() throws SQLException {
    TaskQ one = started(Actor.rawJson(ACTOR, (json, ctx) -> null));
    started(Actor.rawJson(ACTOR, (json, ctx) -> null));
    for (int i = 0; i < 50; i++) {
      one.schedules().put(Schedule.builder("s" + i, ACTOR, "* * * * * *").build());
    }

    await().atMost(Duration.ofSeconds(15)).until(() -> db.count("jobs") >= 100);
    fleet.forEach(TaskQ::close);

    // Every (schedule, fire time) pair was enqueued exactly once.
    assertThat(
            db.queryLong(
                db.sql(
                    "SELECT count(*) FROM (SELECT 1 FROM {schema}.jobs GROUP BY labels ->>"
                        + " 'taskq.cron.schedule', labels ->> 'taskq.cron.fire_at' HAVING count(*) >"
                        + " 1) AS dup")))
        .isZero();
  }

  @Test
  void schedulesAreIdempotentByName() {
    Schedules schedules = Schedules.create(db.dataSource, db.schema);
    Schedule nightly =
        Schedule.builder("nightly", ACTOR, "30 2 * * *")
            .timeZone("Europe/Berlin")
            .payloadJson("{\"report\": \"daily\"}")
            .build();
    ScheduleInfo created = schedules.put(nightly);
    assertThat(created.timeZone()).isEqualTo(ZoneId.of("Europe/Berlin"));
    assertThat(created.nextFireAt().atZone(ZoneId.of("Europe/Berlin")).getHour()).isIn(2, 3);

    // The same definition again changes nothing.
    ScheduleInfo again = schedules.put(nightly);
    assertThat(again).isEqualTo(created);

    // A changed expression recomputes the next fire time; a disabled schedule stays disabled.
    assertThat(schedules.disable("nightly")).isTrue();
    assertThat(schedules.disable("nightly")).isFalse();
    ScheduleInfo changed =
        schedules.put(Schedule.builder("nightly", ACTOR, "0 * * * *").queue("reports").build());
    assertThat(changed.cronExpression()).isEqualTo("0 * * * *");
    assertThat(changed.queue()).isEqualTo("reports");
    assertThat(changed.payloadJson()).isEqualTo("{}");
    assertThat(changed.timeZone()).isEqualTo(ZoneId.of("UTC"));
    assertThat(changed.nextFireAt()).isNotEqualTo(created.nextFireAt());
    assertThat(changed.enabled()).isFalse();

    assertThat(schedules.enable("nightly")).isTrue();
    assertThat(schedules.find("nightly").orElseThrow().enabled()).isTrue();
    assertThat(schedules.list()).extracting(ScheduleInfo::name).containsExactly("nightly");
    assertThat(schedules.delete("nightly")).isTrue();
    assertThat(schedules.delete("nightly")).isFalse();
    assertThat(schedules.enable("nightly")).isFalse();
    assertThat(schedules.list()).isEmpty();
  }

  @Test
  void badInputIsRefusedNamingTheProblem() throws SQLException {
    assertThatThrownBy(() -> Schedule.builder("x", ACTOR, "* * * *"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cron expression '* * * *' has 4 fields");
    assertThatThrownBy(() -> Schedule.builder("x", ACTOR, "0 0 * * *").timeZone("Mars/Olympus"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown time zone 'Mars/Olympus'");
    assertThatThrownBy(() -> Schedule.builder("x\u0000y", ACTOR, "0 0 * * *"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("schedule name contains a NUL");
    assertThatThrownBy(
            () -> Schedule.builder("x", ACTOR, "0 0 * * *").payloadJson("{\"a\": \"\\u0000\"}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("payload");
    assertThatThrownBy(() -> Schedule.builder("x", ACTOR, "0 0 * * *").payloadJson("{oops"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("payload is not valid JSON");

    TaskQ taskq = db.taskq();
    fleet.add(taskq);
    taskq.registerPayloadFactory("known", fire -> "{}");
    assertThatThrownBy(() -> taskq.registerPayloadFactory("known", fire -> "{}"))
        .hasMessageContaining("already registered");
    assertThatThrownBy(
            () ->
                taskq
                    .schedules()
                    .put(
                        Schedule.builder("x", ACTOR, "0 0 * * *")
                            .payloadFactory("unknown")
                            .build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("payload factory 'unknown', which is not registered")
        .hasMessageContaining("[known]");
    assertThat(db.count("cron_schedules")).isZero();
    assertThat(
            taskq
                .schedules()
                .put(Schedule.builder("x", ACTOR, "0 0 * * *").payloadFactory("known").build())
                .payloadFactory())
        .isEqualTo("known");
  }
}
