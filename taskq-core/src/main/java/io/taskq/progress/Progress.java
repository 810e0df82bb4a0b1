package io.taskq.progress;

import io.taskq.core.internal.JsonSyntax;
import io.taskq.core.internal.TextBoundary;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One progress report of one job, as stored: the latest report replaces the previous one.
 *
 * @param jobId the job reporting
 * @param fraction how far along, {@code 0.0..1.0}
 * @param message a short human-readable status, at most {@value #MAX_MESSAGE_CHARS} chars, no NUL
 * @param detailJson optional structured detail, one JSON value of at most {@value
 *     #MAX_DETAIL_CHARS} chars, no NUL and no {@code \u0000} escape; {@code null} when absent
 * @param reportedAt when the store accepted the report, on the store's clock
 */
public record Progress(
    long jobId, double fraction, String message, @Nullable String detailJson, Instant reportedAt) {
  /** Upper bound on {@link #message()}, in UTF-16 chars. */
  public static final int MAX_MESSAGE_CHARS = 512;

  /** Upper bound on {@link #detailJson()}, in UTF-16 chars (16 KiB). */
  public static final int MAX_DETAIL_CHARS = 16 * 1024;

  /**
   * Validates the components like {@link #validate(double, String, String)}.
   *
   * @param detailJson optional structured detail, one JSON value of at most {@value
   *     #MAX_DETAIL_CHARS} chars, no NUL and no {@code \u0000} escape; {@code null} when absent
   * @param fraction how far along, {@code 0.0..1.0}
   * @param jobId the job reporting
   * @param message a short human-readable status, at most {@value #MAX_MESSAGE_CHARS} chars, no NUL
   * @param reportedAt when the store accepted the report, on the store's clock
   */
  public Progress {
    validate(fraction, message, detailJson);
    Objects.requireNonNull(reportedAt, "reportedAt");
  }

  /** {@return the detail, when there is one} */
  public Optional<String> detail() {
    return Optional.ofNullable(detailJson);
  }

  /**
   * Refuses a report a store must not accept; every {@link ProgressReporter} calls it before
   * touching its store, so bad input fails the same way on every store (F6).
   *
   * @param fraction the share done, 0..1
   * @param message what is being done, at most {@link io.taskq.progress.Progress#MAX_MESSAGE_CHARS}
   *     characters
   * @param detailJson a JSON object with details, or {@code null}
   * @throws IllegalArgumentException naming the argument, the problem and the allowed range
   */
  public static void validate(double fraction, String message, @Nullable String detailJson) {
    if (!(fraction >= 0.0 && fraction <= 1.0)) {
      throw new IllegalArgumentException("progress fraction must be in 0.0..1.0, was " + fraction);
    }
    Objects.requireNonNull(message, "message");
    if (message.length() > MAX_MESSAGE_CHARS) {
      throw new IllegalArgumentException(
          "progress message must be at most "
              + MAX_MESSAGE_CHARS
              + " chars, was "
              + message.length());
    }
    TextBoundary.requireNoNul(message, "progress message");
    if (detailJson != null) {
      validateDetail(detailJson);
    }
  }

  private static void validateDetail(String detailJson) {
    if (detailJson.length() > MAX_DETAIL_CHARS) {
      throw new IllegalArgumentException(
          "progress detail must be at most "
              + MAX_DETAIL_CHARS
              + " chars of JSON, was "
              + detailJson.length());
    }
    TextBoundary.requireNoNulInJson(detailJson, "progress detail");
    String problem = JsonSyntax.problem(detailJson);
    if (problem != null) {
      throw new IllegalArgumentException("progress detail is not valid JSON: " + problem);
    }
  }
}
