package io.taskq.examples.shop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.taskq.JobInfo;
import io.taskq.JobStatus;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A unit test of the service in inline mode (P5): placing an order sends its confirmation before
 * {@code place} returns, in this thread, with the job's own retries; no worker, no waiting.
 */
@TaskQTest(schemaPrefix = "shop")
@Tag("P5")
class OrderServiceInlineTest {
  private final ObjectMapper mapper = new ObjectMapper();

  private TaskQ inlineTaskQ(TestServices services, Mailer mailer) throws Exception {
    TaskQConfig config = TaskQConfig.builder().schemaName(services.schema()).build();
    TaskQ taskq = TaskQ.builder(services.dataSource()).config(config).inline().build();
    taskq.register(OrderService.confirmationSender(mapper, mailer));
    taskq.start();
    return taskq;
  }

  @Test
  void placingAnOrder_sendsItsConfirmationBeforePlaceReturns(TestServices services)
      throws Exception {
    RecordingMailer mailer = new RecordingMailer(0);
    try (TaskQ taskq = inlineTaskQ(services, mailer)) {
      new OrderService(taskq.jobs(), mapper).place(42, "ada@example.com");
      assertThat(mailer.sent()).containsExactly("ada@example.com: Your order 42 is confirmed.");
      assertThat(mailer.threads()).containsOnly(Thread.currentThread().getName());
    }
  }

  @Test
  void aBusyMailServer_isRetriedThroughTheActorsPolicy(TestServices services) throws Exception {
    RecordingMailer mailer = new RecordingMailer(2);
    try (TaskQ taskq = inlineTaskQ(services, mailer)) {
      long id = new OrderService(taskq.jobs(), mapper).place(7, "grace@example.com");
      JobInfo job = taskq.jobs().find(id).orElseThrow();
      assertThat(job.status()).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(job.attempt()).isEqualTo(3);
      assertThat(mailer.sent()).containsExactly("grace@example.com: Your order 7 is confirmed.");
    }
  }

  @Test
  void aMailServerThatNeverAnswers_failsTheJobAfterItsFiveAttempts(TestServices services)
      throws Exception {
    RecordingMailer mailer = new RecordingMailer(Integer.MAX_VALUE);
    try (TaskQ taskq = inlineTaskQ(services, mailer)) {
      long id = new OrderService(taskq.jobs(), mapper).place(8, "linus@example.com");
      JobInfo job = taskq.jobs().find(id).orElseThrow();
      assertThat(job.status()).isEqualTo(JobStatus.FAILED);
      assertThat(job.attempt()).isEqualTo(5);
      assertThat(job.errorClass()).isEqualTo("java.io.IOException");
      assertThat(mailer.sent()).isEmpty();
    }
  }
}
