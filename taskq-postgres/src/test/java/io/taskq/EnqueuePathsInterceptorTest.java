package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.taskq.bulk.BatchRequest;
import io.taskq.bulk.EnqueuedBatch;
import io.taskq.cron.Schedule;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every path that enqueues passes the enqueue interceptors (P6): batches (members and the
 * completion hook's template, on the client's connection and the caller's) and cron fires, with
 * what the interceptor stamped stored on the jobs, the hook's job included.
 */
@TaskQTest(poolSize = 12)
@Tag("P6")
class EnqueuePathsInterceptorTest {
  /** What each interceptor call saw: its kind, its requests' actors, where it inserts. */
  private record Seen(EnqueueInterceptor.Kind kind, List<String> actors, boolean onCaller) {}

  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private final List<List<Long>> returned = new CopyOnWriteArrayList<>();
  private TestDb db;

  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    db = TestDb.of(services);
    db.truncate();
    db.execute(db.sql("TRUNCATE {schema}.batches, {schema}.cron_schedules"));
  }

  /** Stamps {@code stamp=<kind>} on every request and records what it saw and returned. */
  private EnqueueInterceptor stamping() {
    return enqueue -> {
      seen.add(
          new Seen(
              enqueue.kind(),
              enqueue.requests().stream().map(JobRequest::actor).toList(),
              enqueue.onCallerConnection()));
      List<JobRequest> stamped = new ArrayList<>();
      for (JobRequest r : enqueue.requests()) {
        Map<String, String> labels = new HashMap<>(r.labels());
        labels.put("stamp", enqueue.kind().name());
        stamped.add(r.toBuilder().labels(labels).build());
      }
      List<Long> ids = enqueue.proceed(stamped);
      returned.add(ids);
      return ids;
    };
  }

  private JobsClient client() {
    return JobsClient.builder(db.dataSource, db.schema).interceptEnqueue(stamping()).build();
  }

  private static BatchRequest batch() {
    return BatchRequest.of(List.of(JobRequest.of("member", "{}"), JobRequest.of("member", "{}")))
        .onComplete(JobRequest.builder("on-done").queue("hooks").build());
  }

  private Map<String, String> labelsOf(long id) {
    return JobsClient.create(db.dataSource, db.schema).find(id).orElseThrow().labels();
  }

  @Test
  void aBatch_passesTheInterceptorOnce_membersThenHook_andTheHookJobKeepsItsLabels() {
    JobsClient client = client();
    EnqueuedBatch batch = client.enqueueBatch(batch());

    assertThat(seen)
        .containsExactly(
            new Seen(EnqueueInterceptor.Kind.BATCH, List.of("member", "member", "on-done"), false));
    // proceed() returned the members' ids: the hook's job exists once the batch completes.
    assertThat(returned).containsExactly(batch.jobIds());
    for (long member : batch.jobIds()) {
      assertThat(labelsOf(member)).containsEntry("stamp", "BATCH");
    }

    // The last member's terminal transition enqueues the hook from its template (SQL side).
    batch.jobIds().forEach(client::cancel);
    long hookId =
        Objects.requireNonNull(client.findBatch(batch.batchId()).orElseThrow().hookJobId());
    JobInfo hook = client.find(hookId).orElseThrow();
    assertThat(hook.actor()).isEqualTo("on-done");
    assertThat(hook.labels()).containsEntry("stamp", "BATCH");
  }

  @Test
  void aBatchOnTheCallersConnection_passesTheInterceptor_andCommitsWithTheCaller()
      throws SQLException {
    JobsClient client = client();
    EnqueuedBatch batch;
    try (Connection c = db.dataSource.getConnection()) {
      c.setAutoCommit(false);
      batch = client.enqueueBatch(c, batch());
      c.rollback();
    }
    assertThat(seen)
        .containsExactly(
            new Seen(EnqueueInterceptor.Kind.BATCH, List.of("member", "member", "on-done"), true));
    assertThat(client.find(batch.jobIds().get(0))).isEmpty();

    try (Connection c = db.dataSource.getConnection()) {
      c.setAutoCommit(false);
      batch = client.enqueueBatch(c, batch());
      c.commit();
    }
    assertThat(labelsOf(batch.jobIds().get(1))).containsEntry("stamp", "BATCH");
  }

  @Test
  void aBatchInterceptorThatBreaksTheHooksRules_isRefused_andNothingIsInserted()
      throws SQLException {
    JobsClient client =
        JobsClient.builder(db.dataSource, db.schema)
            .interceptEnqueue(
                enqueue -> {
                  List<JobRequest> changed = new ArrayList<>(enqueue.requests());
                  int last = changed.size() - 1;
                  changed.set(
                      last, changed.get(last).toBuilder().delay(Duration.ofMinutes(5)).build());
                  return enqueue.proceed(changed);
                })
            .build();
    assertThatThrownBy(() -> client.enqueueBatch(batch()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("completion hook")
        .hasMessageContaining("delay");
    JobsClient skipping =
        JobsClient.builder(db.dataSource, db.schema)
            .interceptEnqueue(enqueue -> List.of(1L, 2L))
            .build();
    assertThatThrownBy(() -> skipping.enqueueBatch(batch()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("without proceeding");
    assertThat(db.count("jobs")).isZero();
    assertThat(db.count("batches")).isZero();
  }

  @Test
  void cronFires_passTheTaskQsInterceptor_inTheTick() throws SQLException {
    try (TaskQ taskq =
        TaskQ.builder(db.dataSource)
            .config(db.config().sweepInterval(Duration.ofSeconds(30)).build())
            .migrate(false)
            .interceptEnqueue(stamping())
            .build()) {
      taskq.register(Actor.rawJson("cron-stamped", (json, ctx) -> null));
      taskq.start();
      taskq
          .schedules()
          .put(Schedule.builder("every-second", "cron-stamped", "* * * * * *").build());
      await().atMost(Duration.ofSeconds(15)).until(() -> db.count("jobs") >= 2);
    }
    List<Seen> cron = seen.stream().filter(s -> s.kind() == EnqueueInterceptor.Kind.CRON).toList();
    assertThat(cron).isNotEmpty();
    assertThat(cron).allSatisfy(s -> assertThat(s.onCaller()).isTrue());
    assertThat(cron).allSatisfy(s -> assertThat(s.actors()).containsOnly("cron-stamped"));
    List<Map<String, Object>> jobs =
        db.rows(
            db.sql(
                "SELECT labels ->> 'stamp' AS stamp, labels ->> 'taskq.cron.schedule' AS schedule"
                    + " FROM {schema}.jobs"));
    assertThat(jobs).hasSizeGreaterThanOrEqualTo(2);
    for (Map<String, Object> job : jobs) {
      // The interceptor's label beside the cron loop's own.
      assertThat(job).containsEntry("stamp", "CRON").containsEntry("schedule", "every-second");
    }
  }

  @Test
  void aCronInterceptorThatThrows_rollsTheTickBack_andTheScheduleStaysDue() throws SQLException {
    Instant before;
    try (TaskQ taskq =
        TaskQ.builder(db.dataSource)
            .config(db.config().sweepInterval(Duration.ofSeconds(30)).build())
            .migrate(false)
            .interceptEnqueue(
                enqueue -> {
                  seen.add(new Seen(enqueue.kind(), List.of(), enqueue.onCallerConnection()));
                  throw new IllegalStateException("no tenant for a cron fire");
                })
            .build()) {
      taskq.register(Actor.rawJson("cron-refused", (json, ctx) -> null));
      taskq.start();
      before =
          taskq
              .schedules()
              .put(Schedule.builder("refused", "cron-refused", "* * * * * *").build())
              .nextFireAt();
      await().atMost(Duration.ofSeconds(15)).until(() -> seen.size() >= 2);
      assertThat(taskq.schedules().find("refused").orElseThrow().nextFireAt()).isEqualTo(before);
      assertThat(taskq.schedules().find("refused").orElseThrow().consecutiveFailures()).isZero();
    }
    assertThat(db.count("jobs")).isZero();
  }
}
