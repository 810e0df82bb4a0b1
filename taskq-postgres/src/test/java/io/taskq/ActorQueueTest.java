package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.bulk.BatchRequest;
import io.taskq.bulk.EnqueuedBatch;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R5: a job whose request names no queue goes on the queue its actor declares, on every enqueue
 * path (single, many, inside the caller's transaction, batch members and the batch hook), so a
 * worker serving only that queue runs it; a request that names a queue keeps it.
 */
@TaskQTest
@Tag("R5")
class ActorQueueTest {
  private TestDb db;
  private final Actor<String> mail =
      Actor.builder("send-mail", PayloadCodec.rawJson(), (json, ctx) -> null).queue("mail").build();

  @BeforeEach
  void setUp(TestServices services) throws SQLException {
    db = TestDb.of(services).migrate();
    db.truncate();
  }

  private String queueOf(long id) throws SQLException {
    return String.valueOf(db.job(id).get("queue"));
  }

  @Test
  void everyEnqueuePathOfARegisteredActor_usesItsDeclaredQueue() throws SQLException {
    try (TaskQ taskq = db.taskq(db.config().workerQueues(List.of("mail")))) {
      taskq.register(mail);
      JobsClient jobs = taskq.jobs();

      long single = jobs.enqueue(JobRequest.of("send-mail", "{}"));
      List<Long> many = jobs.enqueueAll(List.of(JobRequest.of("send-mail", "{}")));
      long inTx;
      try (Connection c = db.dataSource.getConnection()) {
        inTx = jobs.enqueue(c, JobRequest.of("send-mail", "{}"));
      }
      EnqueuedBatch batch =
          jobs.enqueueBatch(
              BatchRequest.of(List.of(JobRequest.of("send-mail", "{}")))
                  .onComplete(JobRequest.of("send-mail", "{}")));
      long named = jobs.enqueue(JobRequest.builder("send-mail").queue("other").build());

      assertThat(queueOf(single)).isEqualTo("mail");
      assertThat(queueOf(many.get(0))).isEqualTo("mail");
      assertThat(queueOf(inTx)).isEqualTo("mail");
      assertThat(queueOf(batch.jobIds().get(0))).isEqualTo("mail");
      assertThat(queueOf(named)).isEqualTo("other");

      // A worker that serves only the actor's queue runs the job.
      taskq.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> db.status(single).equals("succeeded"));
    }
  }

  @Test
  void aStandaloneClientToldTheActors_usesTheirQueuesToo() throws SQLException {
    JobsClient jobs = JobsClient.builder(db.dataSource, db.schema).actors(List.of(mail)).build();

    assertThat(queueOf(jobs.enqueue(JobRequest.of("send-mail", "{}")))).isEqualTo("mail");
    assertThat(queueOf(jobs.enqueue(JobRequest.of("unknown-actor", "{}"))))
        .isEqualTo(JobRequest.DEFAULT_QUEUE);
  }
}
