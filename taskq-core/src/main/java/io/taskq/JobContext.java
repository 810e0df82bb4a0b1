package io.taskq;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What a running handler may know about its job.
 *
 * <p>The values are fixed when the job is claimed, except {@link #isCancelRequested()}, which turns
 * true (and stays true) when someone cancels the job (L8) or when the worker learns that its lease
 * on the job was lost. Either way the attempt's outcome will not count the way a normal return
 * would: a cancelled job ends {@code cancelled}, and a job whose lease was lost is being run by
 * another worker, so this attempt's completion is discarded (D9). A handler that polls the flag can
 * stop early and save the work.
 */
public interface JobContext {
  /** {@return the job's id} */
  long jobId();

  /** {@return the name of the actor the job was enqueued for} */
  String actor();

  /** {@return the queue the job was claimed from} */
  String queue();

  /** {@return this attempt's number, starting at 1} */
  int attempt();

  /** {@return the attempt bound stamped on the job at enqueue; the job fails for good after it} */
  int maxAttempts();

  /**
   * {@return true once a cancel was requested for this job, or the worker lost its lease on it;
   * stays true}
   */
  boolean isCancelRequested();

  /**
   * {@return the job's {@code schedule_to_close} deadline, if it has one} The instant is the
   * database clock's; a later sweep fails jobs that run past it.
   */
  Optional<Instant> deadline();

  /**
   * {@return the labels the job was enqueued with ({@code JobRequest.Builder.labels}), by key;
   * empty when it has none} Read-only. Carries what an enqueue interceptor added, such as the W3C
   * trace context ({@code traceparent}, {@code tracestate}) the OpenTelemetry integration writes
   * ({@code docs/opentelemetry.md}). The default is empty, for contexts that do not know them.
   */
  default Map<String, String> labels() {
    return Map.of();
  }

  /**
   * Reports this job's progress (M5): a fraction of the work done and a short message, with
   * optional structured detail, readable by clients as the job's latest progress and pushed to its
   * subscribers. Goes to the worker's progress store: Redis when configured, else PostgreSQL (a
   * write fenced on this attempt's lease, D9).
   *
   * <p>Progress is advisory: a report never fails the job (when the store cannot take it, it is
   * dropped and logged), and a report made after the lease was lost is discarded.
   *
   * @param fraction how far along, {@code 0.0..1.0}
   * @param message a short status, at most {@value io.taskq.progress.Progress#MAX_MESSAGE_CHARS}
   *     chars, no NUL
   * @param detailJson one JSON value of at most 16 KiB, or null
   * @throws IllegalArgumentException when the report is invalid
   */
  void reportProgress(double fraction, String message, @Nullable String detailJson);

  /**
   * {@link #reportProgress(double, String, String)} without detail.
   *
   * @param fraction the share done, 0..1
   * @param message what is being done, at most {@link io.taskq.progress.Progress#MAX_MESSAGE_CHARS}
   *     characters
   */
  default void reportProgress(double fraction, String message) {
    reportProgress(fraction, message, null);
  }
}
