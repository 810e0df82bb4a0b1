package io.taskq.examples.shop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.taskq.JobStatus;
import io.taskq.RanAttempt;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.testing.EnqueuedJob;
import io.taskq.testing.JobMatcher;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestJobs;
import io.taskq.testing.TestServices;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An integration test of the service (P5): its own schema from {@code @TaskQTest}, the enqueued job
 * asserted with {@link TestJobs}, then run by a drain, or by a real worker and awaited.
 */
@TaskQTest(schemaPrefix = "shop")
@Tag("P5")
class OrderServiceIntegrationTest {
  private final ObjectMapper mapper = new ObjectMapper();

  private static TaskQ.Builder taskq(TestServices services) {
    TaskQConfig config =
        TaskQConfig.builder()
            .schemaName(services.schema())
            .pollInterval(Duration.ofMillis(200))
            .shutdownGrace(Duration.ofSeconds(5))
            .build();
    return TaskQ.builder(services.dataSource()).config(config).maintenance(false);
  }

  @Test
  void placingAnOrder_enqueuesItsConfirmation_andADrainSendsIt(TestServices services)
      throws Exception {
    RecordingMailer mailer = new RecordingMailer(1);
    try (TaskQ taskq = taskq(services).drainOnly().build()) {
      taskq.register(OrderService.confirmationSender(mapper, mailer));
      taskq.start();
      TestJobs jobs = TestJobs.of(services).onlyNew();

      long id = new OrderService(taskq.jobs(), mapper).place(42, "ada@example.com");

      jobs.assertEnqueued(
          JobMatcher.actor(OrderService.SEND_CONFIRMATION)
              .queue("mail")
              .payloadEquals("{\"email\": \"ada@example.com\", \"orderId\": 42}"),
          1);
      jobs.assertNoneEnqueued(JobMatcher.actor("refund"));
      assertThat(taskq.drain())
          .containsExactly(
              new RanAttempt(id, OrderService.SEND_CONFIRMATION, "mail", 1, JobStatus.PENDING));
      List<RanAttempt> retried = taskq.drainIncludingScheduled();
      assertThat(retried).extracting(RanAttempt::status).containsExactly(JobStatus.SUCCEEDED);
      assertThat(mailer.sent()).containsExactly("ada@example.com: Your order 42 is confirmed.");
    }
  }

  @Test
  void aRunningWorker_sendsTheConfirmation(TestServices services) throws Exception {
    RecordingMailer mailer = new RecordingMailer(0);
    try (TaskQ taskq = taskq(services).build()) {
      taskq.register(OrderService.confirmationSender(mapper, mailer));
      taskq.start();
      long id = new OrderService(taskq.jobs(), mapper).place(9, "grace@example.com");
      EnqueuedJob done = TestJobs.of(services).awaitTerminal(id, Duration.ofSeconds(30));
      assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(mailer.sent()).containsExactly("grace@example.com: Your order 9 is confirmed.");
      assertThat(mailer.threads()).doesNotContain(Thread.currentThread().getName());
    }
  }
}
