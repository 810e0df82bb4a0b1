package io.taskq.postgres.internal.completion;

import static java.util.stream.Collectors.joining;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.taskq.Actor;
import io.taskq.JobContext;
import io.taskq.PayloadCodec;
import io.taskq.SchemaName;
import io.taskq.postgres.internal.FaultSeam;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.caps.ConcurrencyCaps;
import io.taskq.postgres.internal.caps.ReservationRegistry;
import io.taskq.postgres.internal.dispatch.ClaimedJob;
import io.taskq.postgres.internal.dispatch.JobClaimer;
import io.taskq.postgres.internal.execution.Completion;
import io.taskq.postgres.internal.execution.Outcome;
import io.taskq.postgres.internal.execution.RunningJob;
import io.taskq.postgres.testing.PreparedSql;
import io.taskq.postgres.testing.SweepRows;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The lean success path (X2, {@code complete_succeeded}): a batch of successes is recorded on the
 * job rows, without attempt rows, and agrees with {@code complete} on everything else: the lease
 * fence (D9), a cancel requested while the job ran (L8), the result and its expiry (L5); a batch
 * that mixes outcomes still writes attempt rows, and the history shows each success exactly once.
 */
@TaskQTest
@Tag("X2")
@Tag("L1")
class SuccessPathTest {
  private static final String WORKER = "w-live";

  private SweepRows rows;
  private CompletionWriter writer;

  @BeforeEach
  void setUp(TestServices services) {
    rows = SweepRows.migrated(services);
    rows.clear();
    rows.worker(WORKER, Duration.ZERO);
    DataSource dataSource = services.dataSource();
    writer =
        new CompletionWriter(
            dataSource,
            NamedStatements.load(
                "io/taskq/postgres/sql/completion.sql", SchemaName.of(services.schema())),
            WORKER,
            Duration.ofHours(1),
            Duration.ofHours(1),
            new FaultSeam("completion"));
  }

  @Test
  void successes_areRecordedOnTheJobRows_withTheirResults_andNoAttemptRow() throws Exception {
    List<RunningJob> jobs = running(rows.jobs(3).owner(WORKER).leaseIn(Duration.ofMinutes(5)));
    List<Completion> batch = new ArrayList<>();
    for (RunningJob job : jobs) {
      batch.add(new Completion(job, Outcome.succeeded("{\"n\": " + job.jobId() + "}")));
    }

    List<RecordedOutcome> recorded = writer.write(batch);

    assertThat(recorded).extracting(RecordedOutcome::status).containsOnly("succeeded");
    assertThat(recorded).hasSize(3);
    assertThat(rows.attempts()).isZero();
    assertThat(rows.events()).isZero();
    assertThat(
            rows.count(
                "status = 'succeeded' AND locked_by = ? AND lock_expires_at IS NULL"
                    + " AND finished_at IS NOT NULL AND result = jsonb_build_object('n', id)"
                    + " AND result_expires_at > now() + interval '59 minutes'",
                WORKER))
        .isEqualTo(3);
    assertThat(
            rows.one(
                "SELECT count(*) FROM {schema}.job_attempt_history h JOIN {schema}.jobs j"
                    + " ON j.id = h.job_id WHERE h.outcome = 'succeeded' AND h.attempt = 1"
                    + " AND h.worker_id = ? AND h.started_at = j.started_at"
                    + " AND h.finished_at = j.finished_at",
                WORKER))
        .isEqualTo(3);
  }

  @Test
  void aSuccessWhoseLeaseWasTakenOver_changesNothing() throws Exception {
    RunningJob mine = running(rows.jobs(1).owner(WORKER).leaseIn(Duration.ofMinutes(5))).get(0);
    RunningJob stale = withToken(mine, mine.leaseToken() + 1_000);

    List<RecordedOutcome> recorded =
        writer.write(List.of(new Completion(stale, Outcome.succeeded(null))));

    assertThat(recorded).isEmpty();
    assertThat(rows.status(mine.jobId())).isEqualTo("running");
    assertThat(rows.count("locked_by = ? AND lock_expires_at IS NOT NULL", WORKER)).isEqualTo(1);
  }

  @Test
  void aSuccessOfAJobWhoseCancelWasRequested_endsCancelled_withItsAttemptRowAndEvent()
      throws Exception {
    RunningJob job =
        running(rows.jobs(1).owner(WORKER).leaseIn(Duration.ofMinutes(5)).cancelRequested()).get(0);

    List<RecordedOutcome> recorded =
        writer.write(List.of(new Completion(job, Outcome.succeeded("{\"kept\": false}"))));

    assertThat(recorded).extracting(RecordedOutcome::status).containsExactly("cancelled");
    assertThat(rows.count("status = 'cancelled' AND result IS NULL AND locked_by IS NULL"))
        .isEqualTo(1);
    assertThat(
            rows.one(
                "SELECT count(*) FROM {schema}.job_attempts"
                    + " WHERE outcome = 'cancelled' AND attempt = 1 AND worker_id = ?",
                WORKER))
        .isEqualTo(1);
    assertThat(
            rows.one(
                "SELECT count(*) FROM {schema}.job_events"
                    + " WHERE kind = 'cancelled' AND disposition = 'cancelled'"))
        .isEqualTo(1);
    assertThat(rows.one("SELECT count(*) FROM {schema}.job_attempt_history")).isEqualTo(1);
  }

  @Test
  void aBatchMixingOutcomes_keepsItsAttemptRows_andTheHistoryShowsEachSuccessOnce()
      throws Exception {
    List<RunningJob> jobs = running(rows.jobs(2).owner(WORKER).leaseIn(Duration.ofMinutes(5)));

    writer.write(
        List.of(
            new Completion(jobs.get(0), Outcome.succeeded(null)),
            new Completion(jobs.get(1), Outcome.failed("Boom", "failed on purpose"))));

    assertThat(rows.attempts()).isEqualTo(2);
    assertThat(
            rows.column(
                "SELECT outcome FROM {schema}.job_attempt_history WHERE job_id = ?",
                jobs.get(0).jobId()))
        .containsExactly("succeeded");
  }

  /**
   * X1: the batch is found by primary key, never through a running-state partial index filtered by
   * id (which reads every running job per batch), even with statistics taken while nothing ran, as
   * after a burst of claims beside many finished jobs.
   */
  @Test
  @Tag("X1")
  void theBatch_isFoundByPrimaryKey_neverThroughARunningStateIndex(TestServices services)
      throws Exception {
    rows.jobs(5_000).status("succeeded").insert();
    rows.db().execute(rows.sql("ANALYZE {schema}.jobs"));
    List<RunningJob> jobs = running(rows.jobs(300).owner(WORKER).leaseIn(Duration.ofMinutes(5)));
    Long[] ids = jobs.stream().map(RunningJob::jobId).toArray(Long[]::new);
    Long[] tokens = jobs.stream().map(RunningJob::leaseToken).toArray(Long[]::new);
    String sql =
        NamedStatements.load(
                "io/taskq/postgres/sql/completion_success.sql", SchemaName.of(services.schema()))
            .get("complete_succeeded");
    StringBuilder plan = new StringBuilder();
    try (Connection c = services.dataSource().getConnection()) {
      c.setAutoCommit(false);
      try (PreparedStatement ps = c.prepareStatement("EXPLAIN " + sql)) {
        ps.setLong(1, 0);
        ps.setString(2, WORKER);
        ps.setArray(3, c.createArrayOf("bigint", ids));
        ps.setArray(4, c.createArrayOf("bigint", tokens));
        ps.setArray(5, c.createArrayOf("text", new String[ids.length]));
        ps.setBoolean(6, true);
        ps.setString(7, "wake");
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            plan.append(rs.getString(1)).append('\n');
          }
        }
      } finally {
        c.rollback();
      }
    }
    assertThat(plan.toString())
        .contains("Index Scan using jobs_pkey on jobs j")
        .doesNotContain("jobs_running_idx");
  }

  /**
   * L7: a success frees the reservation slots its attempt holds, also in a batch beside jobs that
   * hold none: the batch's slot step is chosen by what the capped claim handed out.
   */
  @Test
  @Tag("L7")
  void aCappedJobsSlot_isFreedWithItsSuccess_inABatchBesideAJobWithoutSlots(TestServices services)
      throws Exception {
    rows.db().execute(rows.sql("TRUNCATE {schema}.reservation_slots"));
    rows.jobs(1).actor("capped").status("pending").insert();
    rows.jobs(1).actor("mailer").status("pending").insert();
    List<ClaimedJob> claimed =
        cappedClaimer(services).claim(List.of("default"), List.of("capped", "mailer"), 10);
    assertThat(claimed)
        .extracting(ClaimedJob::actor, ClaimedJob::holdsSlots)
        .containsExactlyInAnyOrder(tuple("capped", true), tuple("mailer", false));
    assertThat(heldSlots()).isEqualTo(1);

    List<Completion> batch = new ArrayList<>();
    for (ClaimedJob claim : claimed) {
      batch.add(new Completion(new RunningJob(claim), Outcome.succeeded(null)));
    }
    assertThat(writer.write(batch)).extracting(RecordedOutcome::status).containsOnly("succeeded");

    assertThat(heldSlots()).as("slots still held after the success").isZero();
  }

  /**
   * X1/X2: a batch whose jobs hold no reservation slots never probes {@code reservation_slots} (the
   * slot step is a false one-time filter), custom and generic; a batch that may hold some probes it
   * once per job.
   */
  @Test
  @Tag("X1")
  @Tag("X2")
  void aBatchHoldingNoSlots_neverProbesTheSlots_customAndGeneric(TestServices services)
      throws Exception {
    List<RunningJob> jobs = running(rows.jobs(256).owner(WORKER).leaseIn(Duration.ofMinutes(5)));
    for (String mode : List.of("force_custom_plan", "force_generic_plan")) {
      List<String> slotScans = slotScans(explainSuccess(services, mode, jobs, false));
      assertThat(slotScans)
          .as(mode)
          .allSatisfy(line -> assertThat(line).contains("never executed"));

      List<String> holding = slotScans(explainSuccess(services, mode, jobs, true));
      assertThat(holding).as(mode).anySatisfy(line -> assertThat(line).contains("loops=256"));
    }
  }

  private long heldSlots() {
    return rows.one("SELECT count(*) FROM {schema}.reservation_slots WHERE job_id IS NOT NULL");
  }

  private static JobClaimer cappedClaimer(TestServices services) {
    SchemaName schema = SchemaName.of(services.schema());
    Actor<String> capped =
        Actor.builder("capped", PayloadCodec.rawJson(), (String json, JobContext ctx) -> null)
            .maxConcurrency(1)
            .build();
    Actor<String> mailer =
        Actor.builder("mailer", PayloadCodec.rawJson(), (String json, JobContext ctx) -> null)
            .build();
    return new JobClaimer(
        services.dataSource(),
        NamedStatements.load("io/taskq/postgres/sql/claim.sql", schema),
        WORKER,
        Duration.ofMinutes(5),
        new FaultSeam("claim"),
        NamedStatements.load("io/taskq/postgres/sql/caps.sql", schema),
        ConcurrencyCaps.of(Map.of(), List.of(capped, mailer)),
        new ReservationRegistry(100, Duration.ofHours(1), InstantSource.system()));
  }

  /** The plan's scan lines of {@code reservation_slots} and its indexes. */
  private static List<String> slotScans(String plan) {
    return plan.lines().filter(l -> l.contains("Scan") && l.contains("reservation_slots")).toList();
  }

  /**
   * {@code complete_succeeded} for {@code jobs} under {@code EXPLAIN ANALYZE}, prepared on the
   * server in the given plan-cache mode, then rolled back.
   */
  private String explainSuccess(
      TestServices services, String mode, List<RunningJob> jobs, boolean holdsSlots)
      throws Exception {
    String ids = jobs.stream().map(j -> String.valueOf(j.jobId())).collect(joining(","));
    String tokens = jobs.stream().map(j -> String.valueOf(j.leaseToken())).collect(joining(","));
    StringBuilder plan = new StringBuilder();
    try (Connection c = services.dataSource().getConnection();
        Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      try {
        s.execute("SET LOCAL plan_cache_mode = " + mode);
        s.execute(
            PreparedSql.prepare(
                "x2_success",
                "bigint, text, bigint[], bigint[], text[], boolean, text",
                successSql(services)));
        String args =
            "0, '%s', '{%s}', '{%s}', NULL, %s, 'wake'".formatted(WORKER, ids, tokens, holdsSlots);
        try (ResultSet rs = s.executeQuery("EXPLAIN (ANALYZE) EXECUTE x2_success(" + args + ")")) {
          while (rs.next()) {
            plan.append(rs.getString(1)).append('\n');
          }
        }
      } finally {
        c.rollback();
        s.execute("DEALLOCATE ALL");
        c.setAutoCommit(true);
      }
    }
    return plan.toString();
  }

  private static String successSql(TestServices services) {
    return NamedStatements.load(
            "io/taskq/postgres/sql/completion_success.sql", SchemaName.of(services.schema()))
        .get("complete_succeeded");
  }

  private List<RunningJob> running(SweepRows.Jobs jobs) {
    List<RunningJob> out = new ArrayList<>();
    for (long id : jobs.insert()) {
      long token = rows.one("SELECT lease_token FROM {schema}.jobs WHERE id = ?", id);
      out.add(new RunningJob(claimed(id, token)));
    }
    return out;
  }

  private static RunningJob withToken(RunningJob job, long token) {
    return new RunningJob(claimed(job.jobId(), token));
  }

  private static ClaimedJob claimed(long id, long token) {
    return new ClaimedJob(
        id, "mailer", "default", 0, Instant.now(), "{}", 1, 3, token, null, false, Instant.now());
  }
}
