package io.taskq.postgres.internal.completion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.SchemaName;
import io.taskq.postgres.internal.FaultSeam;
import io.taskq.postgres.internal.FencedWrites;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.TestHooks;
import io.taskq.postgres.internal.dispatch.ClaimedJob;
import io.taskq.postgres.internal.execution.Completion;
import io.taskq.postgres.internal.execution.InFlight;
import io.taskq.postgres.internal.execution.Outcome;
import io.taskq.postgres.internal.execution.RunningJob;
import io.taskq.postgres.testing.SweepRows;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Claim back-pressure through the completer (L4): while {@link Completer#QUEUED_BATCHES} batches of
 * outcomes wait because the database does not take them (transient failures through the writer's
 * fault seam, retried with backoff), a handler submitting one more waits, so its slot stays taken
 * and the worker claims nothing more; once the writes go through, every outcome is recorded.
 */
@TaskQTest
@Tag("L4")
@Tag("L1")
class CompleterBackPressureTest {
  private static final String WORKER = "w-live";
  private static final int BATCH = 2;

  @Test
  void fullQueue_makesTheSubmittingHandlerWait_untilTheDatabaseTakesABatch(TestServices services)
      throws Exception {
    SweepRows rows = SweepRows.migrated(services);
    rows.clear();
    rows.worker(WORKER, Duration.ZERO);
    int jobs = BATCH * (Completer.QUEUED_BATCHES + 1) + 1;
    InFlight inFlight = new InFlight();
    List<Completion> outcomes = new ArrayList<>();
    for (long id : rows.jobs(jobs).owner(WORKER).leaseIn(Duration.ofMinutes(5)).insert()) {
      long token = rows.one("SELECT lease_token FROM {schema}.jobs WHERE id = ?", id);
      RunningJob job =
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
                  Instant.now()));
      inFlight.add(job);
      outcomes.add(new Completion(job, Outcome.succeeded(null)));
    }
    FaultSeam seam = new FaultSeam("complete");
    // The writes keep failing until the test has seen the handler wait, however slow the machine:
    // a fixed number of faults ran out before a loaded CI host got there.
    TestHooks.arm(seam, 1_000_000);
    SchemaName schema = SchemaName.of(services.schema());
    Completer completer =
        new Completer(
            new CompletionWriter(
                services.dataSource(),
                NamedStatements.load("io/taskq/postgres/sql/completion.sql", schema),
                WORKER,
                Duration.ofHours(1),
                Duration.ofHours(1),
                seam),
            inFlight,
            new FencedWrites(),
            ms -> {},
            BATCH,
            BATCH,
            Duration.ZERO);
    Thread loop = new Thread(completer, "completer");
    AtomicInteger submitted = new AtomicInteger();
    Thread handler =
        new Thread(
            () -> {
              for (Completion c : outcomes) {
                completer.submit(c);
                submitted.incrementAndGet();
              }
            },
            "handler");
    handler.start();
    // The queue fills before the loop runs, so the loop's first batch is a full one (started
    // together, the loop could take a first batch of one, and the counts below would be off by
    // one).
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                submitted.get() == Completer.QUEUED_BATCHES * BATCH
                    && handler.getState() == Thread.State.WAITING);
    loop.start();

    // One batch is being written (and retried), QUEUED_BATCHES wait: the last one cannot go in.
    await().atMost(Duration.ofSeconds(10)).until(() -> submitted.get() >= jobs - 1);
    Thread.sleep(300);
    assertThat(submitted.get()).isEqualTo(jobs - 1);
    assertThat(handler.isAlive()).isTrue();
    assertThat(seam.fired()).isPositive();

    assertThat(seam.disarm()).isPositive();
    await().atMost(Duration.ofSeconds(20)).until(() -> submitted.get() == jobs);
    await().atMost(Duration.ofSeconds(20)).until(() -> completer.recorded() == jobs);
    assertThat(rows.count("status = 'succeeded'")).isEqualTo(jobs);
    completer.finish(Duration.ofSeconds(5));
    loop.join(10_000);
    handler.join(10_000);
  }
}
