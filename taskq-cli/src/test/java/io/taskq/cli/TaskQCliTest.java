package io.taskq.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A8: the CLI in-process ({@link TaskQCli#run}) against real PostgreSQL, in this class's own
 * schema: migrations, status, jobs, queues, exit codes and error messages. The tests run in order
 * on one schema (the first migrates it).
 */
@TaskQTest
@Tag("A8")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TaskQCliTest {
  /** One run's exit code and streams. */
  record Run(int code, String out, String err) {}

  static Run cli(TestServices services, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Map<String, String> env =
        Map.of("TASKQ_DATABASE_URL", services.jdbcUrl(), "TASKQ_SCHEMA_NAME", services.schema());
    int code =
        TaskQCli.run(
            args,
            env,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  @Order(1)
  @Tag("A7")
  void migrate_verifyFailsOnAFreshSchema_applyMakesItCurrent_statusListsIt(TestServices s) {
    Run before = cli(s, "migrate", "--verify");
    assertThat(before.code()).as(before.err()).isEqualTo(ExitCodes.SCHEMA_NOT_CURRENT);
    assertThat(before.err()).contains("pending");
    Run apply = cli(s, "migrate");
    assertThat(apply.code()).as(apply.err()).isZero();
    assertThat(apply.out()).contains("applied V001__jobs.sql");
    assertThat(cli(s, "migrate", "--verify").code()).isZero();
    Run status = cli(s, "migrate", "--status", "--json");
    assertThat(status.out())
        .contains("\"current\":true")
        .contains("\"name\":\"V007__operations.sql\"");
  }

  @Test
  @Order(2)
  void status_jobsList_andQueuesPause_work(TestServices s) throws Exception {
    try (Connection c = s.dataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute(
          "INSERT INTO \""
              + s.schema()
              + "\".jobs (actor, queue, status, payload, run_at, attempt, max_attempts,"
              + " retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter, error_class,"
              + " error_message, finished_at) SELECT 'mail', 'emails', 'failed', '{}', now(), 1, 1,"
              + " 'constant', 10, 10, 0, 'java.io.IOException', 'smtp down', now()"
              + " FROM generate_series(1, 3)");
    }
    Run status = cli(s, "status");
    assertThat(status.code()).as(status.err()).isZero();
    assertThat(status.out()).contains("QUEUE").contains("emails").contains("leader:");

    Run list = cli(s, "jobs", "list", "--status", "failed", "--json");
    assertThat(list.code()).as(list.err()).isZero();
    assertThat(list.out())
        .contains("\"status\":\"failed\"")
        .contains("\"error_class\":\"java.io.IOException\"");
    assertThat(list.out().split("\"id\":", -1)).hasSize(4);

    Run pause = cli(s, "queues", "pause", "emails", "--reason", "smtp down");
    assertThat(pause.code()).as(pause.err()).isZero();
    assertThat(pause.out()).contains("queue 'emails' paused");
    assertThat(cli(s, "queues", "list", "--json").out()).contains("\"paused\":true");
    assertThat(cli(s, "status", "--json").out()).contains("\"name\":\"emails\"");
    assertThat(cli(s, "queues", "resume", "emails").out()).contains("resumed");
  }

  @Test
  @Order(3)
  @Tag("A3")
  void jobsRetry_byIdAndByFilter(TestServices s) throws Exception {
    String firstId =
        cli(s, "jobs", "list", "--status", "failed", "--limit", "1", "--json")
            .out()
            .replaceAll("(?s).*?\"id\":(\\d+).*", "$1");
    Run one = cli(s, "jobs", "retry", firstId, "--by", "test");
    assertThat(one.code()).as(one.err()).isZero();
    assertThat(one.out()).contains("retried");
    Run refused = cli(s, "jobs", "retry", "--actor", "mail");
    assertThat(refused.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(refused.out()).contains("2 jobs match").contains("--yes");
    Run bulk = cli(s, "jobs", "retry", "--actor", "mail", "--yes", "--json", "--by", "ops-dave");
    assertThat(bulk.code()).as(bulk.err()).isZero();
    assertThat(bulk.out()).contains("\"retried\":2");
    Run show = cli(s, "jobs", "show", firstId);
    assertThat(show.out()).contains("manually_retried").contains("retried by test");
    assertThat(events(s, "manually_retried", "retried by ops-dave (bulk retry)"))
        .as("each job the bulk retry touched names the operator")
        .isEqualTo(2);
  }

  @Test
  @Order(3)
  @Tag("A3")
  void jobsCancel_byFilter_namesTheOperatorOnEachEvent(TestServices s) throws Exception {
    try (Connection c = s.dataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute(
          "INSERT INTO \""
              + s.schema()
              + "\".jobs (actor, queue, status, payload, run_at, max_attempts, retry_backoff,"
              + " retry_base_ms, retry_cap_ms, retry_jitter) SELECT 'audit', 'audits', 'scheduled',"
              + " '{}', now() + interval '1 hour', 3, 'constant', 10, 10, 0"
              + " FROM generate_series(1, 3)");
    }
    Run cancel = cli(s, "jobs", "cancel", "--actor", "audit", "--yes", "--by", "ops-erin");
    assertThat(cancel.code()).as(cancel.err()).isZero();
    assertThat(cancel.out()).contains("cancelled 3 jobs");
    assertThat(events(s, "cancelled", "cancelled by ops-erin (bulk cancel)")).isEqualTo(3);
  }

  @Test
  @Order(3)
  @Tag("A8")
  @Tag("L8")
  void jobsCancel_byId_namesTheOperatorOnTheEvent(TestServices s) throws Exception {
    long id = scheduledJob(s, "audit", 0);
    Run cancel = cli(s, "jobs", "cancel", Long.toString(id), "--by", "ops-frank");
    assertThat(cancel.code()).as(cancel.err()).isZero();
    assertThat(cancel.out()).contains("job " + id + ": cancelled");
    assertThat(events(s, "cancelled", "cancelled by ops-frank")).isEqualTo(1);
  }

  @Test
  @Order(3)
  @Tag("A8")
  @Tag("A2")
  @Tag("L8")
  void jobsCancel_ofARunningJob_namesTheOperatorOnTheRequest_andJobsShowListsIt(TestServices s)
      throws Exception {
    long id = scheduledJob(s, "busy", 0);
    try (Connection c = s.dataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute(
          "UPDATE \""
              + s.schema()
              + "\".jobs SET status = 'running', attempt = 1, locked_by = 'test-worker',"
              + " lock_expires_at = now() + interval '1 minute', lease_token = 1,"
              + " started_at = now() WHERE id = "
              + id);
    }
    Run cancel = cli(s, "jobs", "cancel", Long.toString(id), "--by", "ops-gina");
    assertThat(cancel.code()).as(cancel.err()).isZero();
    assertThat(cancel.out()).contains("job " + id + ": cancel_requested");
    Run show = cli(s, "jobs", "show", Long.toString(id));
    assertThat(show.code()).as(show.err()).isZero();
    assertThat(show.out()).contains("cancel_requested").contains("cancel requested by ops-gina");
    assertThat(cli(s, "jobs", "show", Long.toString(id), "--json").out())
        .contains("\"kind\":\"cancel_requested\"")
        .contains("\"note\":\"cancel requested by ops-gina\"");
  }

  @Test
  @Order(3)
  @Tag("A4")
  @Tag("A8")
  void queuesAndActorsResume_passTheOperator_asPauseDoes(TestServices s) {
    assertThat(cli(s, "queues", "pause", "ledger", "--by", "ops-hana").code()).isZero();
    assertThat(cli(s, "actors", "pause", "settle", "--by", "ops-hana").code()).isZero();
    assertThat(cli(s, "status", "--json").out()).contains("\"paused_by\":\"ops-hana\"");

    ByteArrayOutputStream log = new ByteArrayOutputStream();
    PrintStream original = System.err;
    Run queue;
    Run actor;
    try {
      System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
      queue = cli(s, "queues", "resume", "ledger", "--by", "ops-ivan", "--json");
      actor = cli(s, "actors", "resume", "settle", "--by", "ops-ivan");
    } finally {
      System.setErr(original);
    }

    assertThat(queue.code()).as(queue.err()).isZero();
    assertThat(queue.out()).contains("\"resumed\":true,\"by\":\"ops-ivan\",\"changed\":true");
    assertThat(actor.code()).as(actor.err()).isZero();
    assertThat(actor.out()).contains("actor 'settle' resumed");
    assertThat(log.toString(StandardCharsets.UTF_8))
        .contains(
            "queue 'ledger' in \"" + s.schema() + "\" resumed by ops-ivan (paused by ops-hana")
        .contains(
            "actor 'settle' in \"" + s.schema() + "\" resumed by ops-ivan (paused by ops-hana");
  }

  @Test
  @Order(3)
  @Tag("A5")
  @Tag("A8")
  void jobsShow_saysHowManySnoozesTheJobUsed(TestServices s) throws Exception {
    long id = scheduledJob(s, "poll", 2);
    Run show = cli(s, "jobs", "show", Long.toString(id));
    assertThat(show.code()).as(show.err()).isZero();
    assertThat(show.out()).contains("attempt 0/3  snoozes 2");
    assertThat(cli(s, "jobs", "show", Long.toString(id), "--json").out()).contains("\"snoozes\":2");
  }

  /** Inserts a job of {@code actor} due in an hour, at most 3 attempts, with {@code snoozes}. */
  private static long scheduledJob(TestServices s, String actor, int snoozes) throws Exception {
    try (Connection c = s.dataSource().getConnection();
        var ps =
            c.prepareStatement(
                "INSERT INTO \""
                    + s.schema()
                    + "\".jobs (actor, queue, status, payload, run_at, max_attempts,"
                    + " retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter, snoozes) VALUES"
                    + " (?, ?, 'scheduled', '{}', now() + interval '1 hour', 3, 'constant', 10,"
                    + " 10, 0, ?) RETURNING id")) {
      ps.setString(1, actor);
      ps.setString(2, actor + "s");
      ps.setInt(3, snoozes);
      try (var rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  private static long events(TestServices s, String kind, String note) throws Exception {
    try (Connection c = s.dataSource().getConnection();
        var ps =
            c.prepareStatement(
                "SELECT count(*) FROM \""
                    + s.schema()
                    + "\".job_events WHERE kind = ? AND note = ?")) {
      ps.setString(1, kind);
      ps.setString(2, note);
      try (var rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  @Test
  @Order(4)
  void errors_areOneClearLineWithADocumentedCode(TestServices s) {
    Run unknownJob = cli(s, "jobs", "show", "987654321");
    assertThat(unknownJob.code()).isEqualTo(ExitCodes.NOT_FOUND);
    assertThat(unknownJob.err()).contains("no job 987654321");
    Run badStatus = cli(s, "jobs", "list", "--status", "bogus");
    assertThat(badStatus.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(badStatus.err()).contains("unknown job status 'bogus'");
    Run badTime = cli(s, "jobs", "list", "--created-after", "yesterday");
    assertThat(badTime.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(badTime.err()).contains("--created-after");
    Run unreachable =
        cli(
            s,
            "status",
            "--database-url",
            "jdbc:postgresql://127.0.0.1:1/nothing?user=x&password=secret");
    assertThat(unreachable.code()).as(unreachable.err()).isEqualTo(ExitCodes.UNREACHABLE);
    assertThat(unreachable.err()).contains("TASKQ_DATABASE_URL").doesNotContain("secret");
    Run otherSchema = cli(s, "status", "--schema", s.schema() + "_missing");
    assertThat(otherSchema.code()).as(otherSchema.err()).isEqualTo(ExitCodes.SCHEMA_NOT_CURRENT);
    assertThat(otherSchema.err()).contains("taskq migrate");
    assertThat(cli(s, "nonsense").code()).isEqualTo(ExitCodes.USAGE);
  }

  @Test
  @Order(5)
  @Tag("A3")
  void jobsDiscard_endsAPendingJob_refusesAnEndedOne_withDocumentedCodes(TestServices s)
      throws Exception {
    long pending = insertOne(s, "pending", "now() + interval '1 hour'", "NULL");
    long failed = insertOne(s, "failed", "now()", "now()");
    Run noReason = cli(s, "jobs", "discard", String.valueOf(pending));
    assertThat(noReason.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(noReason.err()).contains("--reason");

    Run done =
        cli(s, "jobs", "discard", String.valueOf(pending), "--reason", "bad input", "--by", "test");
    assertThat(done.code()).as(done.err()).isZero();
    assertThat(done.out()).contains("job " + pending + " discarded");
    Run show = cli(s, "jobs", "show", String.valueOf(pending));
    assertThat(show.out()).contains("discarded").contains("bad input").contains("Discarded");

    Run again = cli(s, "jobs", "discard", String.valueOf(pending), "--reason", "again", "--json");
    assertThat(again.code()).isEqualTo(ExitCodes.REFUSED);
    assertThat(again.out()).contains("\"outcome\":\"finished\"").contains("\"status\":\"failed\"");
    Run ended = cli(s, "jobs", "discard", String.valueOf(failed), "--reason", "late");
    assertThat(ended.code()).isEqualTo(ExitCodes.REFUSED);
    assertThat(ended.err()).contains("taskq: job " + failed + " has already ended (failed)");
    Run unknown = cli(s, "jobs", "discard", "987654321", "--reason", "typo");
    assertThat(unknown.code()).isEqualTo(ExitCodes.NOT_FOUND);
    assertThat(unknown.err()).contains("no job 987654321");
  }

  private static long insertOne(TestServices s, String status, String runAt, String finishedAt)
      throws Exception {
    try (Connection c = s.dataSource().getConnection();
        Statement st = c.createStatement();
        var rs =
            st.executeQuery(
                "INSERT INTO \""
                    + s.schema()
                    + "\".jobs (actor, queue, status, payload, run_at, max_attempts, retry_backoff,"
                    + " retry_base_ms, retry_cap_ms, retry_jitter, finished_at) VALUES ('mail',"
                    + " 'emails', '"
                    + status
                    + "', '{}', "
                    + runAt
                    + ", 3, 'constant', 10, 10, 0, "
                    + finishedAt
                    + ") RETURNING id")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  @Order(6)
  void everyCommand_hasHelp(TestServices s) {
    for (String[] command :
        List.of(
            new String[] {"--help"},
            new String[] {"migrate", "--help"},
            new String[] {"status", "--help"},
            new String[] {"jobs", "list", "--help"},
            new String[] {"jobs", "show", "--help"},
            new String[] {"jobs", "retry", "--help"},
            new String[] {"jobs", "cancel", "--help"},
            new String[] {"jobs", "discard", "--help"},
            new String[] {"queues", "pause", "--help"},
            new String[] {"actors", "deregister", "--help"},
            new String[] {"schedules", "list", "--help"})) {
      Run help = cli(s, command);
      assertThat(help.code()).as(String.join(" ", command)).isZero();
      assertThat(help.out()).as(String.join(" ", command)).contains("Usage: taskq");
    }
  }
}
