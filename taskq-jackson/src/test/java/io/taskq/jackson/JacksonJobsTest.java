package io.taskq.jackson;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.taskq.Actor;
import io.taskq.JobInfo;
import io.taskq.JobRequest;
import io.taskq.JobStatus;
import io.taskq.PayloadCodec;
import io.taskq.RetryPolicy;
import io.taskq.RetryPolicy.Backoff;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Typed payloads and results through a real worker on PostgreSQL. */
@TaskQTest
@Tag("P6")
class JacksonJobsTest {
  record OrderPlaced(long orderId, String customer) {}

  record Confirmation(long orderId, String message) {}

  private final ObjectMapper mapper = new ObjectMapper();
  private final JacksonCodec<OrderPlaced> orders = JacksonCodec.of(mapper, OrderPlaced.class);

  private static TaskQ taskq(TestServices services) {
    TaskQConfig config =
        TaskQConfig.builder()
            .schemaName(services.schema())
            .pollInterval(Duration.ofMillis(200))
            .shutdownGrace(Duration.ofSeconds(5))
            .build();
    return TaskQ.builder(services.dataSource()).config(config).maintenance(false).build();
  }

  private static JobInfo awaitFinished(TaskQ taskq, long id) {
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> taskq.jobs().find(id).orElseThrow().status().isTerminal());
    return taskq.jobs().find(id).orElseThrow();
  }

  @Test
  void aTypedHandler_receivesItsPayloadAndStoresATypedResult(TestServices services)
      throws Exception {
    try (TaskQ taskq = taskq(services)) {
      taskq.register(
          Actor.builder(
                  "confirm-order",
                  orders,
                  (order, ctx) -> new Confirmation(order.orderId(), "thanks, " + order.customer()))
              .build());
      taskq.start();
      long id =
          taskq
              .jobs()
              .enqueue(JobRequest.of("confirm-order", orders.toJson(new OrderPlaced(42, "ada"))));
      JobInfo job = awaitFinished(taskq, id);
      assertThat(job.status()).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(orders.readResult(String.valueOf(job.resultJson()), Confirmation.class))
          .isEqualTo(new Confirmation(42, "thanks, ada"));
    }
  }

  @Test
  void aPayloadThatDoesNotMap_failsTheJobForGoodOnItsFirstAttempt(TestServices services)
      throws Exception {
    RetryPolicy fiveAttempts =
        RetryPolicy.of(Backoff.CONSTANT, Duration.ofMillis(50), Duration.ofMillis(50), 0, 5);
    CopyOnWriteArrayList<OrderPlaced> handled = new CopyOnWriteArrayList<>();
    try (TaskQ taskq = taskq(services)) {
      taskq.register(
          Actor.builder(
                  "ship-order",
                  orders,
                  (order, ctx) -> {
                    handled.add(order);
                    return null;
                  })
              .retryPolicy(fiveAttempts)
              .build());
      taskq.start();
      long id =
          taskq
              .jobs()
              .enqueue(JobRequest.of("ship-order", "{\"orderId\": 1, \"warehouse\": \"north\"}"));
      JobInfo job = awaitFinished(taskq, id);
      assertThat(job.status()).isEqualTo(JobStatus.FAILED);
      assertThat(job.attempt()).isEqualTo(1);
      assertThat(job.errorClass()).isEqualTo("io.taskq.jackson.PayloadMappingException");
      assertThat(job.errorMessage())
          .startsWith("the payload does not map to io.taskq.jackson.JacksonJobsTest$OrderPlaced")
          .contains("\"warehouse\"");
      assertThat(handled).isEmpty();
    }
  }

  /**
   * The decision recorded in docs/jackson.md: payloads are jsonb, so a handler that takes the raw
   * text sees PostgreSQL's rewrite of it, not the enqueued bytes; a typed codec does not notice.
   */
  @Test
  void aRawJsonHandler_seesPostgresRewriteOfThePayload_aTypedOneDoesNotCare(TestServices services)
      throws Exception {
    CopyOnWriteArrayList<Object> seen = new CopyOnWriteArrayList<>();
    try (TaskQ taskq = taskq(services)) {
      taskq.register(
          Actor.builder(
                  "raw",
                  PayloadCodec.rawJson(),
                  (json, ctx) -> {
                    seen.add(json);
                    return null;
                  })
              .build());
      taskq.register(
          Actor.builder(
                  "typed",
                  orders,
                  (order, ctx) -> {
                    seen.add(order);
                    return null;
                  })
              .build());
      taskq.start();
      String enqueued = "{\"orderId\":7,\"customer\":\"ada\",   \"customer\":\"grace\"}";
      awaitFinished(taskq, taskq.jobs().enqueue(JobRequest.of("raw", enqueued)));
      awaitFinished(taskq, taskq.jobs().enqueue(JobRequest.of("typed", enqueued)));
    }
    assertThat(seen)
        .containsExactly("{\"orderId\": 7, \"customer\": \"grace\"}", new OrderPlaced(7, "grace"));
  }
}
