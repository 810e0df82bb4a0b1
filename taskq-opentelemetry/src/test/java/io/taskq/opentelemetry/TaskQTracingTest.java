package io.taskq.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.taskq.Actor;
import io.taskq.JobRequest;
import io.taskq.JobStatus;
import io.taskq.PayloadCodec;
import io.taskq.RetryPolicy;
import io.taskq.RetryPolicy.Backoff;
import io.taskq.SchemaName;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.bulk.BatchRequest;
import io.taskq.bulk.EnqueuedBatch;
import io.taskq.cron.Schedule;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Traces from enqueue to execution through a real worker on PostgreSQL (P6). */
@TaskQTest
@Tag("P6")
class TaskQTracingTest {
  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final SdkTracerProvider provider =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
  private final OpenTelemetrySdk otel =
      OpenTelemetrySdk.builder().setTracerProvider(provider).build();
  private final TaskQTracing tracing = TaskQTracing.create(otel);
  private final Map<Long, String> handlerThreads = new ConcurrentHashMap<>();
  private final Map<Long, String> handlerTraceIds = new ConcurrentHashMap<>();

  @AfterEach
  void closeSdk() {
    otel.close();
  }

  private TaskQ taskq(TestServices services) {
    TaskQConfig config =
        TaskQConfig.builder()
            .schemaName(services.schema())
            .pollInterval(Duration.ofMillis(100))
            .shutdownGrace(Duration.ofSeconds(5))
            .build();
    return TaskQ.builder(services.dataSource())
        .config(config)
        .maintenance(false)
        .interceptEnqueue(tracing.enqueueInterceptor())
        .intercept(tracing.jobInterceptor())
        .build();
  }

  private Actor<String> recording(String name) {
    return Actor.builder(
            name,
            PayloadCodec.rawJson(),
            (payload, ctx) -> {
              handlerThreads.put(ctx.jobId(), Thread.currentThread().getName());
              handlerTraceIds.put(ctx.jobId(), Span.current().getSpanContext().getTraceId());
              return null;
            })
        .build();
  }

  private List<SpanData> awaitSpans(String name, int count) {
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                exporter.getFinishedSpanItems().stream()
                        .filter(s -> s.getName().equals(name))
                        .count()
                    >= count);
    return exporter.getFinishedSpanItems().stream().filter(s -> s.getName().equals(name)).toList();
  }

  private static JobStatus awaitTerminal(TaskQ taskq, long id) {
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> taskq.jobs().find(id).orElseThrow().status().isTerminal());
    return taskq.jobs().find(id).orElseThrow().status();
  }

  @Test
  @SuppressWarnings("try") // the scope is closed by the try, not referenced in it
  void theExecutionSpan_isAChildOfTheEnqueueSpan_acrossTheWorkersThread(TestServices services)
      throws Exception {
    Span request = otel.getTracer("test").spanBuilder("http request").startSpan();
    long id;
    try (TaskQ taskq = taskq(services)) {
      taskq.register(recording("send-email"));
      taskq.start();
      try (Scope unused = request.makeCurrent()) {
        id =
            taskq
                .jobs()
                .enqueue(
                    JobRequest.builder("send-email")
                        .payloadJson("{\"to\": \"a@example.com\"}")
                        .labels(Map.of("tenant", "acme"))
                        .build());
      } finally {
        request.end();
      }
      assertThat(awaitTerminal(taskq, id)).isEqualTo(JobStatus.SUCCEEDED);
      SpanData enqueue = awaitSpans("enqueue send-email", 1).get(0);
      SpanData process = awaitSpans("process send-email", 1).get(0);

      assertThat(enqueue.getKind()).isEqualTo(SpanKind.PRODUCER);
      assertThat(enqueue.getParentSpanId()).isEqualTo(request.getSpanContext().getSpanId());
      assertThat(enqueue.getAttributes().get(TaskQTracing.JOB_ID)).isEqualTo(id);
      assertThat(enqueue.getAttributes().get(TaskQTracing.ACTOR)).isEqualTo("send-email");

      assertThat(process.getKind()).isEqualTo(SpanKind.CONSUMER);
      assertThat(process.getTraceId()).isEqualTo(request.getSpanContext().getTraceId());
      assertThat(process.getParentSpanId()).isEqualTo(enqueue.getSpanId());
      assertThat(process.getAttributes().get(TaskQTracing.JOB_ID)).isEqualTo(id);
      assertThat(process.getAttributes().get(TaskQTracing.ACTOR)).isEqualTo("send-email");
      assertThat(process.getAttributes().get(TaskQTracing.QUEUE)).isEqualTo("default");
      assertThat(process.getAttributes().get(TaskQTracing.ATTEMPT)).isEqualTo(1L);
      assertThat(process.getAttributes().get(TaskQTracing.OUTCOME)).isEqualTo("succeeded");
      assertThat(process.getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR);

      // The handler ran on a worker thread, not the test's, inside the execution span.
      assertThat(handlerThreads.get(id)).isNotEqualTo(Thread.currentThread().getName());
      assertThat(handlerTraceIds.get(id)).isEqualTo(request.getSpanContext().getTraceId());
      // The caller's labels survive beside the trace context.
      assertThat(taskq.jobs().find(id).orElseThrow().labels())
          .containsEntry("tenant", "acme")
          .containsKey(TaskQTracing.TRACEPARENT_LABEL);
    }
  }

  @Test
  void aFailedAttempt_hasErrorStatusAndTheErrorClass(TestServices services) throws Exception {
    RetryPolicy twoAttempts =
        RetryPolicy.of(Backoff.CONSTANT, Duration.ofMillis(50), Duration.ofMillis(50), 0, 2);
    try (TaskQ taskq = taskq(services)) {
      taskq.register(
          Actor.builder(
                  "charge",
                  PayloadCodec.rawJson(),
                  (payload, ctx) -> {
                    throw new IllegalStateException("card declined");
                  })
              .retryPolicy(twoAttempts)
              .build());
      taskq.start();
      long id = taskq.jobs().enqueue(JobRequest.of("charge", "{}"));
      assertThat(awaitTerminal(taskq, id)).isEqualTo(JobStatus.FAILED);
      SpanData enqueue = awaitSpans("enqueue charge", 1).get(0);
      List<SpanData> attempts = awaitSpans("process charge", 2);
      assertThat(attempts).hasSize(2);
      for (SpanData attempt : attempts) {
        assertThat(attempt.getParentSpanId()).isEqualTo(enqueue.getSpanId());
        assertThat(attempt.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(attempt.getStatus().getDescription()).isEqualTo("card declined");
        assertThat(attempt.getAttributes().get(TaskQTracing.ERROR_TYPE))
            .isEqualTo(IllegalStateException.class.getName());
        assertThat(attempt.getEvents()).anyMatch(e -> e.getName().equals("exception"));
      }
      assertThat(attempts)
          .extracting(s -> s.getAttributes().get(TaskQTracing.ATTEMPT))
          .containsExactlyInAnyOrder(1L, 2L);
      assertThat(attempts)
          .extracting(s -> s.getAttributes().get(TaskQTracing.OUTCOME))
          .containsExactlyInAnyOrder("failed", "failed_for_good");
    }
  }

  @Test
  @Tag("A5")
  void aSnooze_isAnOutcomeNotAnError(TestServices services) throws Exception {
    try (TaskQ taskq = taskq(services)) {
      Map<Long, Boolean> snoozedOnce = new ConcurrentHashMap<>();
      taskq.register(
          Actor.builder(
                  "wait-for-stock",
                  PayloadCodec.rawJson(),
                  (payload, ctx) -> {
                    if (snoozedOnce.putIfAbsent(ctx.jobId(), true) == null) {
                      throw new io.taskq.SnoozeException(Duration.ofMillis(250));
                    }
                    return null;
                  })
              .build());
      taskq.start();
      long snoozer = taskq.jobs().enqueue(JobRequest.of("wait-for-stock", "{}"));
      assertThat(awaitTerminal(taskq, snoozer)).isEqualTo(JobStatus.SUCCEEDED);

      List<SpanData> waits = awaitSpans("process wait-for-stock", 2);
      assertThat(waits)
          .extracting(s -> s.getAttributes().get(TaskQTracing.OUTCOME))
          .containsExactlyInAnyOrder("snoozed", "succeeded");
      SpanData snoozed =
          waits.stream()
              .filter(s -> "snoozed".equals(s.getAttributes().get(TaskQTracing.OUTCOME)))
              .findFirst()
              .orElseThrow();
      assertThat(snoozed.getStatus().getStatusCode())
          .as("a snooze is not an error")
          .isEqualTo(StatusCode.UNSET);
      assertThat(snoozed.getAttributes().get(TaskQTracing.ERROR_TYPE)).isNull();
      assertThat(snoozed.getEvents()).noneMatch(e -> e.getName().equals("exception"));
      assertThat(snoozed.getAttributes().get(TaskQTracing.SNOOZE_DELAY_MS)).isEqualTo(250L);
    }
  }

  @Test
  @Tag("A5")
  void aHandlersDiscard_isAnOutcomeNotAnError(TestServices services) throws Exception {
    try (TaskQ taskq = taskq(services)) {
      taskq.register(
          Actor.builder(
                  "ship",
                  PayloadCodec.rawJson(),
                  (payload, ctx) -> {
                    throw new io.taskq.DiscardException("order withdrawn");
                  })
              .build());
      taskq.start();
      long discarded = taskq.jobs().enqueue(JobRequest.of("ship", "{}"));
      assertThat(awaitTerminal(taskq, discarded)).isEqualTo(JobStatus.FAILED);
      assertThat(taskq.jobs().find(discarded).orElseThrow().errorClass()).isEqualTo("Discarded");

      SpanData discard = awaitSpans("process ship", 1).get(0);
      assertThat(discard.getAttributes().get(TaskQTracing.OUTCOME)).isEqualTo("discarded");
      assertThat(discard.getStatus().getStatusCode())
          .as("a discard is the handler's decision, not its error")
          .isEqualTo(StatusCode.UNSET);
      assertThat(discard.getAttributes().get(TaskQTracing.ERROR_TYPE)).isNull();
      assertThat(discard.getEvents()).noneMatch(e -> e.getName().equals("exception"));
    }
  }

  @Test
  void aJobEnqueuedWithNoCurrentSpan_stillGetsAnExecutionSpan(TestServices services)
      throws Exception {
    try (TaskQ taskq = taskq(services)) {
      taskq.register(recording("report"));
      taskq.start();
      assertThat(Span.current().getSpanContext().isValid()).isFalse();
      // Traced enqueue, no current span: the enqueue span starts a trace, the attempt joins it.
      long traced = taskq.jobs().enqueue(JobRequest.of("report", "{}"));
      // No enqueue interceptor at all: the job carries no trace context.
      long untraced;
      try (TaskQ producer =
          TaskQ.producer(services.dataSource())
              .config(TaskQConfig.builder().schemaName(SchemaName.of(services.schema())).build())
              .build()) {
        untraced = producer.jobs().enqueue(JobRequest.of("report", "{}"));
      }
      assertThat(taskq.jobs().find(untraced).orElseThrow().labels()).isEmpty();
      assertThat(awaitTerminal(taskq, traced)).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(awaitTerminal(taskq, untraced)).isEqualTo(JobStatus.SUCCEEDED);

      SpanData enqueue = awaitSpans("enqueue report", 1).get(0);
      assertThat(enqueue.getParentSpanContext().isValid()).isFalse();
      List<SpanData> processed = awaitSpans("process report", 2);
      SpanData tracedSpan = byJob(processed, traced);
      SpanData untracedSpan = byJob(processed, untraced);
      assertThat(tracedSpan.getParentSpanId()).isEqualTo(enqueue.getSpanId());
      assertThat(tracedSpan.getTraceId()).isEqualTo(enqueue.getTraceId());
      assertThat(untracedSpan.getParentSpanContext().isValid()).isFalse();
      assertThat(untracedSpan.getTraceId()).isNotEqualTo(enqueue.getTraceId());
      assertThat(untracedSpan.getKind()).isEqualTo(SpanKind.CONSUMER);
      assertThat(untracedSpan.getAttributes().get(TaskQTracing.OUTCOME)).isEqualTo("succeeded");
      assertThat(handlerTraceIds.get(untraced)).isEqualTo(untracedSpan.getTraceId());
    }
  }

  @Test
  @SuppressWarnings("try") // the scope is closed by the try, not referenced in it
  void aBatchsMembersAndItsCompletionHook_carryTraceContext_toTheirExecutionSpans(
      TestServices services) throws Exception {
    Span request = otel.getTracer("test").spanBuilder("import request").startSpan();
    EnqueuedBatch batch;
    try (TaskQ taskq = taskq(services)) {
      taskq.register(recording("import-row"));
      taskq.register(recording("import-done"));
      taskq.start();
      try (Scope unused = request.makeCurrent()) {
        batch =
            taskq
                .jobs()
                .enqueueBatch(
                    BatchRequest.of(
                            List.of(
                                JobRequest.of("import-row", "{}"),
                                JobRequest.of("import-row", "{}")))
                        .onComplete(JobRequest.of("import-done", "{}")));
      } finally {
        request.end();
      }
      for (long member : batch.jobIds()) {
        assertThat(awaitTerminal(taskq, member)).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(taskq.jobs().find(member).orElseThrow().labels())
            .containsKey(TaskQTracing.TRACEPARENT_LABEL);
      }
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> taskq.jobs().findBatch(batch.batchId()).orElseThrow().hookJobId() != null);
      long hook =
          Objects.requireNonNull(taskq.jobs().findBatch(batch.batchId()).orElseThrow().hookJobId());
      assertThat(awaitTerminal(taskq, hook)).isEqualTo(JobStatus.SUCCEEDED);
      // The hook's job was inserted by the completing member's transaction, from the template
      // the enqueue interceptor stamped.
      assertThat(taskq.jobs().find(hook).orElseThrow().labels())
          .containsKey(TaskQTracing.TRACEPARENT_LABEL);

      List<SpanData> rowEnqueues = awaitSpans("enqueue import-row", 2);
      SpanData hookEnqueue = awaitSpans("enqueue import-done", 1).get(0);
      List<SpanData> rows = awaitSpans("process import-row", 2);
      SpanData done = awaitSpans("process import-done", 1).get(0);
      for (SpanData enqueue : rowEnqueues) {
        assertThat(enqueue.getParentSpanId()).isEqualTo(request.getSpanContext().getSpanId());
      }
      assertThat(hookEnqueue.getParentSpanId()).isEqualTo(request.getSpanContext().getSpanId());
      for (SpanData row : rows) {
        assertThat(row.getTraceId()).isEqualTo(request.getSpanContext().getTraceId());
        assertThat(rowEnqueues).extracting(SpanData::getSpanId).contains(row.getParentSpanId());
      }
      assertThat(done.getTraceId()).isEqualTo(request.getSpanContext().getTraceId());
      assertThat(done.getParentSpanId()).isEqualTo(hookEnqueue.getSpanId());
      assertThat(handlerTraceIds.get(hook)).isEqualTo(request.getSpanContext().getTraceId());
    }
  }

  @Test
  void aCronFire_carriesTraceContext_fromTheTicksEnqueueSpanToItsExecutionSpan(
      TestServices services) throws Exception {
    TaskQConfig config =
        TaskQConfig.builder()
            .schemaName(services.schema())
            .pollInterval(Duration.ofMillis(100))
            .shutdownGrace(Duration.ofSeconds(5))
            .build();
    try (TaskQ taskq =
        TaskQ.builder(services.dataSource())
            .config(config)
            .interceptEnqueue(tracing.enqueueInterceptor())
            .intercept(tracing.jobInterceptor())
            .build()) {
      taskq.register(recording("heartbeat"));
      taskq.start();
      taskq.schedules().put(Schedule.builder("every-second", "heartbeat", "* * * * * *").build());
      SpanData process = awaitSpans("process heartbeat", 1).get(0);
      long id = process.getAttributes().get(TaskQTracing.JOB_ID);
      assertThat(taskq.jobs().find(id).orElseThrow().labels())
          .containsKey(TaskQTracing.TRACEPARENT_LABEL)
          .containsEntry("taskq.cron.schedule", "every-second");
      SpanData enqueue =
          awaitSpans("enqueue heartbeat", 1).stream()
              .filter(s -> Long.valueOf(id).equals(s.getAttributes().get(TaskQTracing.JOB_ID)))
              .findFirst()
              .orElseThrow();
      assertThat(enqueue.getKind()).isEqualTo(SpanKind.PRODUCER);
      assertThat(process.getParentSpanId()).isEqualTo(enqueue.getSpanId());
      assertThat(process.getTraceId()).isEqualTo(enqueue.getTraceId());
      assertThat(handlerTraceIds.get(id)).isEqualTo(enqueue.getTraceId());
    }
  }

  private static SpanData byJob(List<SpanData> spans, long id) {
    return spans.stream()
        .filter(s -> Long.valueOf(id).equals(s.getAttributes().get(TaskQTracing.JOB_ID)))
        .findFirst()
        .orElseThrow();
  }
}
