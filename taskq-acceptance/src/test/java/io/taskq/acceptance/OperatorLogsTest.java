package io.taskq.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.taskq.Actor;
import io.taskq.JobRequest;
import io.taskq.RetryPolicy;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * P4: the log lines an operator relies on, captured with their level and fields from a real TaskQ:
 * a job that fails for good (and a flood of them), the effective configuration at start, short
 * start-up lines, and nothing per job at INFO.
 */
@Tag("P4")
@TaskQTest(poolSize = 8)
class OperatorLogsTest {
  private static final String FAILED_FOR_GOOD =
      "io.taskq.postgres.internal.completion.FailedForGoodLog";
  private static final String STARTUP = "io.taskq.postgres.internal.startup.StartupChecks";
  private static final RetryPolicy TWO_QUICK_ATTEMPTS =
      RetryPolicy.of(
          RetryPolicy.Backoff.CONSTANT, Duration.ofMillis(10), Duration.ofMillis(10), 0, 2);

  private final TestServices services;
  private CapturedLogs logs;

  OperatorLogsTest(TestServices services) {
    this.services = services;
  }

  @BeforeEach
  void capture() {
    logs = new CapturedLogs();
  }

  @AfterEach
  void release() {
    logs.close();
  }

  private TaskQConfig.Builder settings() {
    return TaskQConfig.builder(Map.of())
        .schemaName(services.schema())
        .pollInterval(Duration.ofMillis(100));
  }

  private TaskQ taskq(TaskQConfig config) {
    return TaskQ.builder(services.dataSource()).config(config).maintenance(false).build();
  }

  private static Actor<String> failing(String name) {
    return Actor.builder(
            name,
            io.taskq.PayloadCodec.rawJson(),
            (String json, io.taskq.JobContext ctx) -> {
              throw new IllegalStateException("the partner API said no");
            })
        .retryPolicy(TWO_QUICK_ATTEMPTS)
        .build();
  }

  @Test
  void aJobThatFailsForGood_isOneWarnWithActorJobIdAttemptAndErrorClass() throws Exception {
    try (TaskQ taskq = taskq(settings().build())) {
      taskq.register(failing("charge-card"));
      taskq.start();

      long id = taskq.jobs().enqueue(JobRequest.of("charge-card", "{}"));
      await().atMost(Duration.ofSeconds(30)).until(() -> status(id).equals("failed"));
      await().atMost(Duration.ofSeconds(10)).until(() -> !logs.of(FAILED_FOR_GOOD).isEmpty());

      assertThat(logs.of(FAILED_FOR_GOOD))
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.getLevel()).isEqualTo(Level.WARN);
                assertThat(e.getFormattedMessage())
                    .isEqualTo(
                        "job failed for good: actor=charge-card job_id="
                            + id
                            + " attempt=2/2 error_class=java.lang.IllegalStateException: the"
                            + " partner API said no");
              });
    }
  }

  @Test
  void aFloodOfFailures_logsTenLinesThenOneCountOfTheRest() throws Exception {
    int jobs = 40;
    try (TaskQ taskq = taskq(settings().workerConcurrency(8).build())) {
      taskq.register(failing("flaky-partner"));
      taskq.start();
      List<JobRequest> flood = new ArrayList<>();
      for (int i = 0; i < jobs; i++) {
        flood.add(JobRequest.of("flaky-partner", "{\"n\":" + i + "}"));
      }
      List<Long> ids = taskq.jobs().enqueueAll(flood);
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> countFailed(ids.get(0), ids.get(jobs - 1)) == jobs);
      await().atMost(Duration.ofSeconds(10)).until(() -> logs.of(FAILED_FOR_GOOD).size() >= 10);
    }
    // close() ran: the completer reported what it held back.
    List<ILoggingEvent> lines = logs.of(FAILED_FOR_GOOD);
    assertThat(lines).allSatisfy(e -> assertThat(e.getLevel()).isEqualTo(Level.WARN));
    assertThat(lines.subList(0, 10))
        .allSatisfy(
            e -> assertThat(e.getFormattedMessage()).startsWith("job failed for good: actor="));
    assertThat(lines).hasSize(11);
    assertThat(lines.get(10).getFormattedMessage())
        .startsWith("... and " + (jobs - 10) + " more jobs failed for good without a line")
        .contains("at most 10 lines every 60 s");
  }

  @Test
  void start_logsTheEffectiveConfigurationOnceAtInfo_passwordsMasked() throws Exception {
    TaskQConfig config =
        settings()
            .databaseUrl(services.jdbcUrl() + "&password=s3cret-in-url")
            .databasePassword("s3cret-setting")
            .workerConcurrency(3)
            .build();
    try (TaskQ taskq = taskq(config)) {
      taskq.register(Actor.rawJson("noop", (json, ctx) -> null));
      taskq.start();
    }

    assertThat(logs.of(STARTUP))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.getLevel()).isEqualTo(Level.INFO);
              assertThat(e.getFormattedMessage())
                  .startsWith("TaskQ configuration for schema \"" + services.schema() + "\"\n")
                  .contains("\n  TASKQ_WORKER_CONCURRENCY=3 (", "\n  TASKQ_DATABASE_URL=")
                  .contains("***")
                  .doesNotContain("s3cret-in-url", "s3cret-setting");
              assertThat(e.getFormattedMessage().lines().count())
                  .as("a line per setting, after the heading")
                  .isEqualTo(1 + config.describe().size());
            });
  }

  @Test
  void startUpLinesAreShort_andNoJobIsLoggedAtInfo() throws Exception {
    try (TaskQ taskq =
        TaskQ.builder(services.dataSource()).config(settings().build()).build()) { // maintenance on
      taskq.register(Actor.rawJson("quick", (json, ctx) -> null));
      taskq.register(failing("doomed"));
      taskq.start();
      await().atMost(Duration.ofSeconds(20)).until(taskq::isLeader);
      List<ILoggingEvent> startup = logs.at(Level.INFO);
      logs.clear();

      List<JobRequest> work = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        work.add(JobRequest.of(i % 10 == 0 ? "doomed" : "quick", "{}"));
      }
      List<Long> ids = taskq.jobs().enqueueAll(work);
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> countFinished(ids.get(0), ids.get(ids.size() - 1)) == ids.size());

      assertThat(startup)
          .filteredOn(e -> !e.getLoggerName().equals(STARTUP))
          .isNotEmpty()
          .allSatisfy(
              e -> assertThat(e.getFormattedMessage()).as(e.getLoggerName()).hasSizeLessThan(200));
      // The only INFO lines while 50 jobs ran are the leader's daily sweeps, once a day each.
      assertThat(logs.at(Level.INFO))
          .as("INFO lines while 50 jobs ran")
          .allSatisfy(
              e -> {
                assertThat(e.getLoggerName()).contains(".internal.maintenance.");
                assertThat(e.getFormattedMessage()).doesNotContain("quick", "doomed");
                ids.forEach(id -> assertThat(e.getFormattedMessage()).doesNotContain("job " + id));
              });
    }
  }

  private String status(long id) throws Exception {
    try (Connection c = services.dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT status FROM \"" + services.schema() + "\".jobs WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : "absent";
      }
    }
  }

  private long countFailed(long from, long to) throws Exception {
    return count("status = 'failed'", from, to);
  }

  private long countFinished(long from, long to) throws Exception {
    return count("status IN ('succeeded', 'failed')", from, to);
  }

  private long count(String condition, long from, long to) throws Exception {
    try (Connection c = services.dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*) FROM \""
                    + services.schema()
                    + "\".jobs WHERE id BETWEEN ? AND ? AND "
                    + condition)) {
      ps.setLong(1, from);
      ps.setLong(2, to);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
