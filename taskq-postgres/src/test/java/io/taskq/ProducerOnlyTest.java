package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** K1: one root; a producer-only process enqueues, looks up and operates with no actor. */
@TaskQTest
@Tag("K1")
class ProducerOnlyTest {
  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  private static TaskQ producer(TestDb db) {
    return TaskQ.producer(db.dataSource).config(db.config().build()).build();
  }

  @Test
  void producer_enqueuesAndLooksUp_withNoActorRegisteredAndNoWorker(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ producer = producer(db)) {
      producer.start(); // no actor registered: a producer starts all the same
      long id = producer.jobs().enqueue(JobRequest.of("send-email", "{\"to\": \"a@example.com\"}"));

      JobInfo job = producer.jobs().find(id).orElseThrow();
      assertThat(job.actor()).isEqualTo("send-email");
      assertThat(job.queue()).isEqualTo("default");
      assertThat(job.status()).isEqualTo(JobStatus.PENDING);
      assertThat(producer.operations().detail(id)).isPresent();
      assertThat(producer.isRunning()).isTrue();
      assertThat(producer.isLeader()).isFalse();
      assertThat(db.rows(db.sql("SELECT id FROM {schema}.workers"))).isEmpty();
      Thread.sleep(500); // nothing claims it: no worker in this process
      assertThat(db.status(id)).isEqualTo("pending");
    }
  }

  @Test
  void producer_withoutStart_enqueuesAndLooksUpToo(TestServices services) {
    TestDb db = TestDb.of(services);
    try (TaskQ producer = producer(db)) {
      long id = producer.jobs().enqueue(JobRequest.of("send-email", "{}"));
      assertThat(producer.jobs().find(id)).map(JobInfo::status).contains(JobStatus.PENDING);
      assertThat(producer.isRunning()).isFalse();
    }
  }

  @Test
  void producer_refusesToRegisterAnActor(TestServices services) {
    TestDb db = TestDb.of(services);
    try (TaskQ producer = producer(db)) {
      assertThatThrownBy(() -> producer.register(Actor.rawJson("send-email", (json, ctx) -> null)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("producer-only")
          .hasMessageContaining("send-email");
    }
  }

  @Test
  void producer_stampsTheQueueAndPolicyOfTheActorsItKnowsButDoesNotRun(TestServices services) {
    TestDb db = TestDb.of(services);
    Actor<String> mailer =
        Actor.builder("mailer", PayloadCodec.rawJson(), (p, c) -> null)
            .queue("mail")
            .retryPolicy(RetryPolicy.defaults().withMaxAttempts(2))
            .build();
    try (TaskQ producer =
        TaskQ.producer(db.dataSource)
            .config(db.config().build())
            .knownActors(List.of(mailer))
            .build()) {
      long id = producer.jobs().enqueue(JobRequest.of("mailer", "{}"));
      JobInfo job = producer.jobs().find(id).orElseThrow();
      assertThat(job.queue()).isEqualTo("mail");
      assertThat(job.maxAttempts()).isEqualTo(2);
    }
  }

  @Test
  void everyComponent_isOneHandleOfTheRoot_onTheRootsSchema(TestServices services) {
    TestDb db = TestDb.of(services);
    try (TaskQ producer = producer(db)) {
      assertThat(producer.jobs()).isSameAs(producer.jobs());
      assertThat(producer.schedules()).isSameAs(producer.schedules());
      assertThat(producer.reclaimEvents()).isSameAs(producer.reclaimEvents());
      assertThat(producer.progress()).isSameAs(producer.progress());
      assertThat(producer.operations()).isSameAs(producer.operations());
      assertThat(producer.jobs().schema()).isEqualTo(db.schema);
      assertThat(producer.reclaimEvents().schema()).isEqualTo(db.schema);
      assertThat(producer.schedules().list()).isEmpty();
    }
  }

  @Test
  void producer_withMaintenanceOn_leadsTheSchema_stillWithNoActor(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ producer =
        TaskQ.producer(db.dataSource)
            .config(db.config().build())
            .migrate(false)
            .maintenance(true)
            .build()) {
      producer.start();
      await().atMost(Duration.ofSeconds(20)).until(producer::isLeader);
      assertThat(db.rows(db.sql("SELECT id FROM {schema}.workers"))).isEmpty();
    }
  }
}
