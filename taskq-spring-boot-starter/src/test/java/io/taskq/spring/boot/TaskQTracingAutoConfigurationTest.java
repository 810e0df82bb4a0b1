package io.taskq.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.taskq.Actor;
import io.taskq.JobRequest;
import io.taskq.JobStatus;
import io.taskq.TaskQ;
import io.taskq.opentelemetry.TaskQTracing;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * SB1, P6: the starter traces jobs with the application's OpenTelemetry when taskq-opentelemetry is
 * on the class path and an OpenTelemetry bean exists, and backs off on each missing condition, on
 * the property, and for the application's own TaskQTracing bean.
 */
@TaskQTest(poolSize = 8)
@Tag("SB1")
@Tag("P6")
class TaskQTracingAutoConfigurationTest {
  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final Map<Long, String> handlerTraceIds = new ConcurrentHashMap<>();

  private OpenTelemetrySdk sdk() {
    return OpenTelemetrySdk.builder()
        .setTracerProvider(
            SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(exporter))
                .build())
        .build();
  }

  private ApplicationContextRunner runner(TestServices services) {
    return Contexts.on(services)
        .withConfiguration(AutoConfigurations.of(TaskQTracingAutoConfiguration.class))
        .withBean(
            "traced",
            Actor.class,
            () ->
                Actor.rawJson(
                    "traced",
                    (json, ctx) -> {
                      handlerTraceIds.put(
                          ctx.jobId(), Span.current().getSpanContext().getTraceId());
                      return null;
                    }));
  }

  private ApplicationContextRunner withOpenTelemetry(TestServices services) {
    return runner(services).withBean(OpenTelemetry.class, this::sdk);
  }

  private static Map<String, String> labelsOfAJobEnqueued(TaskQ taskq) {
    long id = taskq.jobs().enqueue(JobRequest.of("traced", "{}"));
    return taskq.jobs().find(id).orElseThrow().labels();
  }

  private List<SpanData> spans(String name) {
    return exporter.getFinishedSpanItems().stream().filter(s -> s.getName().equals(name)).toList();
  }

  @Test
  @SuppressWarnings("try") // the scope is closed by the try, not referenced in it
  void withTheModuleAndAnOpenTelemetryBean_jobsAreTracedFromEnqueueToExecution(
      TestServices services) {
    withOpenTelemetry(services)
        .run(
            context -> {
              assertThat(context).hasSingleBean(TaskQTracing.class);
              TaskQ taskq = context.getBean(TaskQ.class);
              Span request =
                  context
                      .getBean(OpenTelemetry.class)
                      .getTracer("test")
                      .spanBuilder("request")
                      .startSpan();
              long id;
              try (Scope unused = request.makeCurrent()) {
                id = taskq.jobs().enqueue(JobRequest.of("traced", "{}"));
              } finally {
                request.end();
              }
              await()
                  .atMost(Duration.ofSeconds(20))
                  .until(() -> taskq.jobs().find(id).orElseThrow().status() == JobStatus.SUCCEEDED);
              assertThat(taskq.jobs().find(id).orElseThrow().labels())
                  .containsKey(TaskQTracing.TRACEPARENT_LABEL);
              await()
                  .atMost(Duration.ofSeconds(10))
                  .until(() -> !spans("process traced").isEmpty());
              SpanData enqueue = spans("enqueue traced").get(0);
              SpanData process = spans("process traced").get(0);
              assertThat(enqueue.getParentSpanId()).isEqualTo(request.getSpanContext().getSpanId());
              assertThat(process.getParentSpanId()).isEqualTo(enqueue.getSpanId());
              assertThat(handlerTraceIds.get(id)).isEqualTo(request.getSpanContext().getTraceId());
            });
  }

  @Test
  void withoutAnOpenTelemetryBean_nothingIsTraced(TestServices services) {
    runner(services)
        .run(
            context -> {
              assertThat(context).hasNotFailed().doesNotHaveBean(TaskQTracing.class);
              assertThat(labelsOfAJobEnqueued(context.getBean(TaskQ.class))).isEmpty();
            });
  }

  @Test
  void withoutTheModule_theContextStartsUntraced(TestServices services) {
    withOpenTelemetry(services)
        .withClassLoader(new FilteredClassLoader(TaskQTracing.class))
        .run(
            context -> {
              assertThat(context).hasNotFailed().hasSingleBean(TaskQ.class);
              assertThat(context).doesNotHaveBean(TaskQTracingAutoConfiguration.class);
              assertThat(labelsOfAJobEnqueued(context.getBean(TaskQ.class))).isEmpty();
            });
  }

  @Test
  @Tag("SB2")
  void thePropertyTurnsItOff(TestServices services) {
    withOpenTelemetry(services)
        .withPropertyValues("taskq.tracing.enabled=false")
        .run(
            context -> {
              assertThat(context).hasNotFailed().doesNotHaveBean(TaskQTracing.class);
              assertThat(labelsOfAJobEnqueued(context.getBean(TaskQ.class))).isEmpty();
              assertThat(exporter.getFinishedSpanItems()).isEmpty();
            });
  }

  @Test
  void taskqOff_meansNoTracingEither(TestServices services) {
    withOpenTelemetry(services)
        .withPropertyValues("taskq.enabled=false")
        .run(
            context -> {
              assertThat(context).hasNotFailed().doesNotHaveBean(TaskQ.class);
              assertThat(context).doesNotHaveBean(TaskQTracing.class);
            });
  }

  @Test
  void theApplicationsOwnTaskQTracing_isTheOneRegistered(TestServices services) {
    InMemorySpanExporter own = InMemorySpanExporter.create();
    OpenTelemetrySdk ownSdk =
        OpenTelemetrySdk.builder()
            .setTracerProvider(
                SdkTracerProvider.builder()
                    .addSpanProcessor(SimpleSpanProcessor.create(own))
                    .build())
            .build();
    TaskQTracing mine = TaskQTracing.create(ownSdk);
    withOpenTelemetry(services)
        .withBean(TaskQTracing.class, () -> mine)
        .run(
            context -> {
              assertThat(context.getBean(TaskQTracing.class)).isSameAs(mine);
              assertThat(labelsOfAJobEnqueued(context.getBean(TaskQ.class)))
                  .containsKey(TaskQTracing.TRACEPARENT_LABEL);
              assertThat(own.getFinishedSpanItems())
                  .extracting(SpanData::getName)
                  .contains("enqueue traced");
              assertThat(spans("enqueue traced")).isEmpty();
            });
    ownSdk.close();
  }
}
