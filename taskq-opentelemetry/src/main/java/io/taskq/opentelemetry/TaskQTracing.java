package io.taskq.opentelemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.taskq.DiscardException;
import io.taskq.EnqueueInterceptor;
import io.taskq.JobContext;
import io.taskq.JobInterceptor;
import io.taskq.JobRequest;
import io.taskq.NonRetryableException;
import io.taskq.SnoozeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Traces TaskQ jobs with OpenTelemetry (P6): a {@link SpanKind#PRODUCER} span for each job
 * enqueued, and a {@link SpanKind#CONSUMER} span for each attempt, a child of the enqueue span.
 *
 * <pre>{@code
 * TaskQTracing tracing = TaskQTracing.create(openTelemetry);
 * TaskQ taskq =
 *     TaskQ.builder(dataSource)
 *         .interceptEnqueue(tracing.enqueueInterceptor())
 *         .intercept(tracing.jobInterceptor())
 *         .build();
 * }</pre>
 *
 * <p>The enqueue span's context travels with the job as W3C trace context in two reserved labels,
 * {@value #TRACEPARENT_LABEL} and {@value #TRACESTATE_LABEL}, written in the enqueueing transaction
 * and read back when a worker claims the job; the enqueue interceptor overwrites labels of those
 * names the caller set. A job enqueued without the interceptor, or with no valid span, has no trace
 * context: its attempts start new traces (or join the span current on the handler's thread, in
 * inline mode).
 *
 * <p>Thread-safe; one instance serves every TaskQ that uses it.
 */
public final class TaskQTracing {
  /** The instrumentation scope's name of the tracer this uses. */
  public static final String INSTRUMENTATION_NAME = "io.taskq.opentelemetry";

  /** The label carrying the W3C {@code traceparent} of the enqueue span. */
  public static final String TRACEPARENT_LABEL = "traceparent";

  /** The label carrying the W3C {@code tracestate} of the enqueue span, when it has one. */
  public static final String TRACESTATE_LABEL = "tracestate";

  /** {@code messaging.system}: always {@code taskq}. */
  public static final AttributeKey<String> MESSAGING_SYSTEM =
      AttributeKey.stringKey("messaging.system");

  /** {@code messaging.destination.name}: the job's queue. */
  public static final AttributeKey<String> QUEUE =
      AttributeKey.stringKey("messaging.destination.name");

  /** {@code messaging.message.id}: the job's id, as text. */
  public static final AttributeKey<String> MESSAGE_ID =
      AttributeKey.stringKey("messaging.message.id");

  /** {@code taskq.actor}: the job's actor. */
  public static final AttributeKey<String> ACTOR = AttributeKey.stringKey("taskq.actor");

  /** {@code taskq.job.id}: the job's id. */
  public static final AttributeKey<Long> JOB_ID = AttributeKey.longKey("taskq.job.id");

  /** {@code taskq.attempt}: the attempt's number, from 1 (execution spans). */
  public static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("taskq.attempt");

  /** {@code taskq.max_attempts}: the job's attempt bound (execution spans). */
  public static final AttributeKey<Long> MAX_ATTEMPTS = AttributeKey.longKey("taskq.max_attempts");

  /**
   * {@code taskq.outcome} of an execution span: {@code succeeded}, {@code failed} (the job may be
   * retried), {@code failed_for_good} (a {@link NonRetryableException}, or the last attempt),
   * {@code snoozed} (a {@link SnoozeException}: the job comes back after the delay) or {@code
   * discarded} (a {@link DiscardException}: the handler ended the job for good on purpose). Only
   * {@code failed} and {@code failed_for_good} spans have error status.
   */
  public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("taskq.outcome");

  /** {@code taskq.snooze.delay_ms}: a snoozed attempt's delay, in milliseconds. */
  public static final AttributeKey<Long> SNOOZE_DELAY_MS =
      AttributeKey.longKey("taskq.snooze.delay_ms");

  /** {@code error.type}: the class of the exception that failed the attempt or the enqueue. */
  public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

  private static final TextMapPropagator W3C = W3CTraceContextPropagator.getInstance();

  private static final TextMapSetter<Map<String, String>> SETTER =
      (carrier, key, value) -> {
        if (carrier != null) {
          carrier.put(key, value);
        }
      };

  private static final TextMapGetter<Map<String, String>> GETTER =
      new TextMapGetter<>() {
        @Override
        @SuppressWarnings(
            "deprecation") // still abstract in the API; the propagator does not call it
        public Iterable<String> keys(Map<String, String> carrier) {
          return carrier.keySet();
        }

        @Override
        public @Nullable String get(@Nullable Map<String, String> carrier, String key) {
          return carrier == null ? null : carrier.get(key);
        }
      };

  private final Tracer tracer;

  private TaskQTracing(Tracer tracer) {
    this.tracer = tracer;
  }

  /**
   * {@return tracing through {@code openTelemetry}'s tracer provider} The trace context in the
   * labels is always W3C, whatever propagators {@code openTelemetry} is configured with.
   *
   * @param openTelemetry the OpenTelemetry instance to take the tracer from
   */
  public static TaskQTracing create(OpenTelemetry openTelemetry) {
    Objects.requireNonNull(openTelemetry, "openTelemetry");
    return new TaskQTracing(openTelemetry.getTracer(INSTRUMENTATION_NAME));
  }

  /**
   * {@return the interceptor to register with {@code TaskQ.Builder.interceptEnqueue} or {@code
   * JobsClient.Builder.interceptEnqueue}} For each job enqueued it starts a {@code PRODUCER} span
   * named {@code enqueue <actor>} as a child of the current span (or a new trace), writes its
   * context into the job's labels, and ends it when the insert returned (before the caller's
   * commit, on the caller's connection). A failed enqueue ends its spans with error status.
   */
  public EnqueueInterceptor enqueueInterceptor() {
    return this::traceEnqueue;
  }

  /**
   * {@return the interceptor to register with {@code TaskQ.Builder.intercept} (outermost, so that
   * its span covers the other interceptors and the decoding)} For each attempt it starts a {@code
   * CONSUMER} span named {@code process <actor>}, a child of the enqueue span whose context the job
   * carries (else of the span current on the thread, else a new trace), makes it current while the
   * handler runs, and ends it with the attempt's outcome; a failed attempt's span has error status,
   * the exception recorded and {@code error.type}. A snooze and a handler's discard are outcomes,
   * not errors: their spans keep an unset status, with {@code taskq.outcome} {@code snoozed} (and
   * {@code taskq.snooze.delay_ms}) or {@code discarded}.
   */
  public JobInterceptor jobInterceptor() {
    return this::traceExecution;
  }

  private List<Long> traceEnqueue(EnqueueInterceptor.Enqueue enqueue) {
    List<JobRequest> requests = enqueue.requests();
    Context parent = Context.current();
    List<Span> spans = new ArrayList<>(requests.size());
    List<JobRequest> stamped = new ArrayList<>(requests.size());
    for (JobRequest r : requests) {
      Span span =
          tracer
              .spanBuilder("enqueue " + r.actor())
              .setParent(parent)
              .setSpanKind(SpanKind.PRODUCER)
              .setAttribute(MESSAGING_SYSTEM, "taskq")
              .setAttribute(ACTOR, r.actor())
              .startSpan();
      String queue = r.queue();
      if (queue != null) {
        span.setAttribute(QUEUE, queue);
      }
      spans.add(span);
      if (span.getSpanContext().isValid()) {
        Map<String, String> labels = new HashMap<>(r.labels());
        labels.remove(TRACEPARENT_LABEL);
        labels.remove(TRACESTATE_LABEL);
        W3C.inject(parent.with(span), labels, SETTER);
        stamped.add(r.toBuilder().labels(labels).build());
      } else {
        stamped.add(r);
      }
    }
    List<Long> ids;
    try {
      ids = enqueue.proceed(stamped);
    } catch (RuntimeException | Error e) {
      for (Span span : spans) {
        span.recordException(e);
        span.setAttribute(ERROR_TYPE, e.getClass().getName());
        span.setStatus(StatusCode.ERROR, String.valueOf(e.getMessage()));
        span.end();
      }
      throw e;
    }
    for (int i = 0; i < spans.size(); i++) {
      Span span = spans.get(i);
      if (i < ids.size()) {
        long id = ids.get(i);
        span.setAttribute(JOB_ID, id);
        span.setAttribute(MESSAGE_ID, Long.toString(id));
      }
      span.end();
    }
    return ids;
  }

  @SuppressWarnings("try") // the scope is closed by the try, not referenced in it
  private @Nullable Object traceExecution(JobInterceptor.Execution execution) throws Exception {
    JobContext job = execution.context();
    Map<String, String> labels = job.labels();
    Context parent =
        labels.containsKey(TRACEPARENT_LABEL)
            ? W3C.extract(Context.current(), labels, GETTER)
            : Context.current();
    Span span =
        tracer
            .spanBuilder("process " + job.actor())
            .setParent(parent)
            .setSpanKind(SpanKind.CONSUMER)
            .setAttribute(MESSAGING_SYSTEM, "taskq")
            .setAttribute(ACTOR, job.actor())
            .setAttribute(QUEUE, job.queue())
            .setAttribute(JOB_ID, job.jobId())
            .setAttribute(MESSAGE_ID, Long.toString(job.jobId()))
            .setAttribute(ATTEMPT, (long) job.attempt())
            .setAttribute(MAX_ATTEMPTS, (long) job.maxAttempts())
            .startSpan();
    try (Scope unused = span.makeCurrent()) {
      Object result = execution.proceed();
      span.setAttribute(OUTCOME, "succeeded");
      return result;
    } catch (SnoozeException snooze) {
      // Not an error: "not now, ask me again later" (A5); the status stays unset.
      span.setAttribute(OUTCOME, "snoozed");
      span.setAttribute(SNOOZE_DELAY_MS, snooze.delay().toMillis());
      throw snooze;
    } catch (DiscardException discard) {
      // Not an error of the handler: it decided the work is not to be done (docs/opentelemetry.md).
      span.setAttribute(OUTCOME, "discarded");
      throw discard;
    } catch (Exception | Error e) {
      boolean forGood = e instanceof NonRetryableException || job.attempt() >= job.maxAttempts();
      span.setAttribute(OUTCOME, forGood ? "failed_for_good" : "failed");
      span.setAttribute(ERROR_TYPE, e.getClass().getName());
      span.recordException(e);
      span.setStatus(StatusCode.ERROR, String.valueOf(e.getMessage()));
      throw e;
    } finally {
      span.end();
    }
  }
}
