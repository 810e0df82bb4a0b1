package io.taskq.postgres.internal.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.SchemaName;
import io.taskq.core.internal.NotifyChannels;
import io.taskq.postgres.internal.FaultSeam;
import io.taskq.postgres.internal.FencedWrites;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.WorkerIdentity;
import io.taskq.postgres.internal.completion.CompletionWriter;
import io.taskq.postgres.internal.completion.RecordedOutcome;
import io.taskq.postgres.internal.dispatch.ClaimedJob;
import io.taskq.postgres.internal.execution.Completion;
import io.taskq.postgres.internal.execution.InFlight;
import io.taskq.postgres.internal.execution.Outcome;
import io.taskq.postgres.internal.execution.RunningJob;
import io.taskq.postgres.internal.sweep.BatchExecutor;
import io.taskq.postgres.internal.sweep.BatchFence;
import io.taskq.postgres.internal.sweep.LeaseReclaimSweep;
import io.taskq.postgres.testing.SweepRows;
import io.taskq.spi.MaintenanceListener;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The statements that change many {@code jobs} rows at once (heartbeat, completion, lease release)
 * lock their rows in one order, job id ascending, so two of them over overlapping ids wait for each
 * other and never deadlock (SQLSTATE 40P01); the S1 sweep locks with SKIP LOCKED and never waits.
 *
 * <p>The first two tests force the interleaving that deadlocks statements locking in the order
 * their arrays list the ids: a third connection holds a row lock in the middle of the set, the
 * heartbeat renews the set in one order and stops at that row, the other statement goes through the
 * set in the reverse order and stops there too; then the lock is let go.
 */
@TaskQTest
@Tag("L4")
@Tag("L5")
@Tag("S1")
@Tag("X2")
class LockOrderTest {
  private static final String WORKER = "w-live";
  private static final int JOBS = 60;

  private SweepRows rows;
  private DataSource dataSource;
  private SchemaName schema;
  private NamedStatements leaseSql;
  private NamedStatements completionSql;
  private final ExecutorService threads = Executors.newFixedThreadPool(4);

  @BeforeEach
  void setUp(TestServices services) {
    rows = SweepRows.migrated(services);
    rows.clear();
    rows.worker(WORKER, Duration.ZERO);
    dataSource = services.dataSource();
    schema = SchemaName.of(services.schema());
    leaseSql = NamedStatements.load("io/taskq/postgres/sql/lease.sql", schema);
    completionSql = NamedStatements.load("io/taskq/postgres/sql/completion.sql", schema);
    // Enough other rows that the planner finds the held jobs through the primary key, one by one
    // in the order they are listed: the plan under which an unordered statement deadlocks.
    rows.jobs(5_000).status("pending").insert();
    rows.db().execute(rows.sql("ANALYZE {schema}.jobs"));
  }

  @AfterEach
  void tearDown() {
    threads.shutdownNow();
  }

  @Test
  void heartbeatAndCompletion_overTheSameJobsInOppositeOrders_waitInsteadOfDeadlocking()
      throws Exception {
    InFlight inFlight = held(rows.jobs(JOBS).owner(WORKER).leaseIn(Duration.ofMinutes(5)));
    List<RunningJob> order = inFlight.all();
    List<Completion> reversed = new ArrayList<>();
    for (int i = order.size() - 1; i >= 0; i--) {
      reversed.add(new Completion(order.get(i), Outcome.succeeded(null)));
    }
    Heartbeat heartbeat = heartbeat(inFlight);
    CompletionWriter writer = completionWriter();

    List<RecordedOutcome> recorded =
        interleave(
            order.get(JOBS / 2).jobId(),
            () -> {
              heartbeat.tick();
              return null;
            },
            () -> writer.write(reversed));

    assertThat(heartbeat.ticks()).isEqualTo(1);
    assertThat(recorded).hasSize(JOBS);
    assertThat(rows.count("status = 'succeeded'")).isEqualTo(JOBS);
  }

  /**
   * As above with one failure in the batch, so the batch takes {@code complete} rather than the
   * success path (X2): both lock in id order.
   */
  @Test
  void heartbeatAndMixedCompletion_overTheSameJobsInOppositeOrders_waitInsteadOfDeadlocking()
      throws Exception {
    InFlight inFlight = held(rows.jobs(JOBS).owner(WORKER).leaseIn(Duration.ofMinutes(5)));
    List<RunningJob> order = inFlight.all();
    List<Completion> reversed = new ArrayList<>();
    for (int i = order.size() - 1; i >= 0; i--) {
      reversed.add(
          new Completion(
              order.get(i),
              i == 0 ? Outcome.failed("Boom", "failed on purpose") : Outcome.succeeded(null)));
    }
    Heartbeat heartbeat = heartbeat(inFlight);
    CompletionWriter writer = completionWriter();

    List<RecordedOutcome> recorded =
        interleave(
            order.get(JOBS / 2).jobId(),
            () -> {
              heartbeat.tick();
              return null;
            },
            () -> writer.write(reversed));

    assertThat(heartbeat.ticks()).isEqualTo(1);
    assertThat(recorded).hasSize(JOBS);
    assertThat(rows.count("status = 'succeeded'")).isEqualTo(JOBS - 1);
  }

  @Test
  void heartbeatAndRelease_overTheSameJobsInOppositeOrders_waitInsteadOfDeadlocking()
      throws Exception {
    InFlight inFlight = held(rows.jobs(JOBS).owner(WORKER).leaseIn(Duration.ofMinutes(5)));
    List<RunningJob> order = inFlight.all();
    List<RunningJob> reversed = new ArrayList<>(order);
    Collections.reverse(reversed);
    reversed.forEach(RunningJob::release);
    Heartbeat heartbeat = heartbeat(inFlight);
    LeaseRelease release = release(inFlight);

    int released =
        interleave(
            order.get(JOBS / 2).jobId(),
            () -> {
              heartbeat.tick();
              return null;
            },
            () -> release.release(reversed));

    assertThat(heartbeat.ticks()).isEqualTo(1);
    // LeaseRelease logs a failed write and returns 0: every job back means no deadlock.
    assertThat(released).isEqualTo(JOBS);
    assertThat(rows.count("status = 'pending' AND locked_by IS NULL")).isEqualTo(5_000L + JOBS);
  }

  @Test
  void heartbeatCompletionReleaseAndReclaim_concurrentlyOnOverlappingJobs_neverDeadlock()
      throws Exception {
    Random random = new Random(42);
    CompletionWriter writer = completionWriter();
    LeaseReclaimSweep sweep =
        new LeaseReclaimSweep(
            schema, Duration.ofMinutes(1), Duration.ofHours(1), new MaintenanceListener() {});
    BatchExecutor executor = new BatchExecutor(schema);
    int transitions = 0;
    for (int round = 0; round < 15; round++) {
      // Half the leases expired, so the sweep has rows to take from the same set.
      InFlight inFlight = held(rows.jobs(JOBS / 2).owner(WORKER).leaseIn(Duration.ofSeconds(-5)));
      held(rows.jobs(JOBS / 2).owner(WORKER).leaseIn(Duration.ofMinutes(5)))
          .all()
          .forEach(inFlight::add);
      List<RunningJob> all = new ArrayList<>(inFlight.all());
      Collections.shuffle(all, random);
      List<Completion> completing = new ArrayList<>();
      for (RunningJob job : all.subList(0, 2 * JOBS / 3)) {
        completing.add(
            new Completion(
                job,
                round % 2 == 0 || random.nextBoolean()
                    ? Outcome.succeeded(null)
                    : Outcome.failed("Boom", "failed on purpose")));
      }
      List<RunningJob> releasing = new ArrayList<>(all.subList(JOBS / 3, JOBS));
      Collections.shuffle(releasing, random);
      Heartbeat heartbeat = heartbeat(inFlight);
      LeaseRelease release = release(new InFlight());
      CyclicBarrier start = new CyclicBarrier(4);
      Future<?> beat =
          threads.submit(
              () -> {
                start.await();
                heartbeat.tick();
                return null;
              });
      Future<List<RecordedOutcome>> complete =
          threads.submit(
              () -> {
                start.await();
                return writer.write(completing);
              });
      Future<Integer> released =
          threads.submit(
              () -> {
                start.await();
                return release.release(releasing);
              });
      Future<Integer> reclaimed =
          threads.submit(
              () -> {
                start.await();
                return executor.runInOwnTransaction(
                    dataSource, sweep, 100, Duration.ofSeconds(10), BatchFence.NONE);
              });

      beat.get(30, TimeUnit.SECONDS);
      transitions += complete.get(30, TimeUnit.SECONDS).size();
      int releasedRows = released.get(30, TimeUnit.SECONDS);
      assertThat(release.failures()).as("release failures in round %d", round).isZero();
      transitions += releasedRows;
      transitions += reclaimed.get(30, TimeUnit.SECONDS);
    }

    // Each attempt transitioned at most once (fenced on status and token), and every transition
    // left its attempt row.
    assertThat(rows.one("SELECT count(*) FROM {schema}.job_attempt_history"))
        .isEqualTo(transitions);
    assertThat(
            rows.one(
                "SELECT count(*) FROM (SELECT job_id FROM {schema}.job_attempt_history"
                    + " GROUP BY job_id HAVING count(*) > 1) twice"))
        .isZero();
    assertThat(transitions).isPositive();
  }

  /**
   * Holds a lock on {@code middle}, starts {@code first} and waits until it blocks on that row,
   * starts {@code second} and waits until it blocks too, then lets the row go: both must finish.
   */
  private <T> T interleave(long middle, Callable<?> first, Callable<T> second) throws Exception {
    Future<?> one;
    Future<T> two;
    try (Connection blocker = dataSource.getConnection()) {
      blocker.setAutoCommit(false);
      int pid;
      try (PreparedStatement s = blocker.prepareStatement("SELECT pg_backend_pid()");
          ResultSet rs = s.executeQuery()) {
        rs.next();
        pid = rs.getInt(1);
      }
      try (PreparedStatement s =
          blocker.prepareStatement(
              rows.sql("SELECT 1 FROM {schema}.jobs WHERE id = ? FOR UPDATE"))) {
        s.setLong(1, middle);
        s.execute();
      }
      one = threads.submit(first);
      awaitLockWaiters(pid, 1);
      two = threads.submit(second);
      awaitLockWaiters(pid, 2);
      blocker.rollback();
    }
    one.get(30, TimeUnit.SECONDS);
    return two.get(30, TimeUnit.SECONDS);
  }

  /**
   * Waits until {@code n} backends wait, directly or through another waiter, on {@code blocker}.
   */
  private void awaitLockWaiters(int blocker, int n) {
    Awaitility.await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(10))
        .until(
            () ->
                rows.db()
                        .queryLong(
                            "WITH direct AS (SELECT pid FROM pg_stat_activity"
                                + " WHERE ?::int = ANY (pg_blocking_pids(pid)))"
                                + " SELECT count(*) FROM pg_stat_activity"
                                + " WHERE ?::int = ANY (pg_blocking_pids(pid))"
                                + " OR pg_blocking_pids(pid) && ARRAY(SELECT pid FROM direct)",
                            blocker,
                            blocker)
                    >= n);
  }

  /** The inserted running jobs as this worker's held attempts. */
  private InFlight held(SweepRows.Jobs jobs) throws SQLException {
    List<Long> ids = jobs.insert();
    InFlight inFlight = new InFlight();
    for (long id : ids) {
      long token = rows.one("SELECT lease_token FROM {schema}.jobs WHERE id = ?", id);
      inFlight.add(
          new RunningJob(
              new ClaimedJob(
                  id,
                  "mailer",
                  "default",
                  0,
                  Instant.now(),
                  "{}",
                  1,
                  3,
                  token,
                  null,
                  false,
                  Instant.now())));
    }
    return inFlight;
  }

  private Heartbeat heartbeat(InFlight inFlight) {
    return new Heartbeat(
        dataSource,
        leaseSql,
        new WorkerIdentity(WORKER, "test-host", 1, List.of("default"), 8),
        Duration.ofMinutes(5),
        inFlight,
        new FencedWrites(),
        new FaultSeam("heartbeat"));
  }

  private CompletionWriter completionWriter() {
    return new CompletionWriter(
        dataSource,
        completionSql,
        WORKER,
        Duration.ofHours(1),
        Duration.ofHours(1),
        new FaultSeam("completion"));
  }

  private LeaseRelease release(InFlight inFlight) {
    return new LeaseRelease(
        dataSource,
        leaseSql,
        WORKER,
        NotifyChannels.of(schema).wake().name(),
        inFlight,
        new FencedWrites());
  }
}
