package io.taskq.faults;

import io.taskq.Actor;
import io.taskq.JobHandler;
import io.taskq.JobRequest;
import io.taskq.RetryPolicy;
import io.taskq.limits.Gcra;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The actors of the fault suite, shared by the worker JVMs (which run them) and the producer (which
 * enqueues for them, so both stamp the same retry policy).
 *
 * <p>{@value #WORK}: payload {@code {"sleepMs": n}}, optionally {@code "retrySleepMs": m} (the
 * sleep of every attempt after the first; {@code n} when absent). Its handler records the execution
 * (job id, attempt, worker JVM pid, lease token) in {@code faults.executions} before it sleeps, and
 * stamps the record's end when it returns. The retry policy is constant 200 ms with no jitter and
 * {@value #MAX_ATTEMPTS} attempts, so a reclaimed or failed attempt runs again quickly and the
 * checker knows the bound.
 */
final class FaultActors {
  /** The one actor the scenarios enqueue for. */
  static final String WORK = "fault-work";

  /** The bound on attempts the checker holds every job to. */
  static final int MAX_ATTEMPTS = 10;

  static final RetryPolicy POLICY =
      RetryPolicy.of(
          RetryPolicy.Backoff.CONSTANT,
          Duration.ofMillis(200),
          Duration.ofMillis(200),
          0.0,
          MAX_ATTEMPTS);

  private static final Pattern SLEEP = Pattern.compile("\"sleepMs\"\\s*:\\s*(\\d+)");
  private static final Pattern RETRY_SLEEP = Pattern.compile("\"retrySleepMs\"\\s*:\\s*(\\d+)");
  private static final Pattern IDLE_TX = Pattern.compile("\"idleTxMs\"\\s*:\\s*(\\d+)");

  /** The Redis limit of {@link #limitedWork}: generous, so it never refuses while Redis is up. */
  static final String RATE_LIMIT = "fault-rate";

  private FaultActors() {}

  static Actor<String> work(JobHandler<String> handler) {
    return Actor.builder(WORK, io.taskq.PayloadCodec.rawJson(), handler)
        .retryPolicy(POLICY)
        .build();
  }

  /**
   * {@link #work} rate-limited in {@value #RATE_LIMIT} (GCRA, 10 000 a second): each job takes a
   * permit before it runs, from Redis or, while Redis is away, from the PostgreSQL fallback.
   */
  static Actor<String> limitedWork(JobHandler<String> handler) {
    return Actor.builder(WORK, io.taskq.PayloadCodec.rawJson(), handler)
        .retryPolicy(POLICY)
        .rateLimit(RATE_LIMIT, Gcra.of(10_000, Duration.ofSeconds(1), 10_000))
        .build();
  }

  /** The actor's definition for a producer (its handler never runs there). */
  static Actor<String> work() {
    return work(
        (json, ctx) -> {
          throw new IllegalStateException("the producer runs no job");
        });
  }

  static JobRequest job(long sleepMs) {
    return JobRequest.of(WORK, "{\"sleepMs\": " + sleepMs + "}");
  }

  /** A job whose first attempt sleeps {@code sleepMs} and every later one {@code retrySleepMs}. */
  static JobRequest job(long sleepMs, long retrySleepMs) {
    return JobRequest.of(
        WORK, "{\"sleepMs\": " + sleepMs + ", \"retrySleepMs\": " + retrySleepMs + "}");
  }

  /**
   * A job whose first attempt leaves a transaction idle for {@code idleTxMs} (then commits): past
   * the server's idle-in-transaction timeout its session is ended and the attempt fails.
   */
  static JobRequest idleInTransaction(long idleTxMs) {
    return JobRequest.of(WORK, "{\"sleepMs\": 0, \"idleTxMs\": " + idleTxMs + "}");
  }

  static long idleTxMs(String payload) {
    Matcher m = IDLE_TX.matcher(payload);
    return m.find() ? Long.parseLong(m.group(1)) : 0;
  }

  static long sleepMs(String payload) {
    Matcher m = SLEEP.matcher(payload);
    return m.find() ? Long.parseLong(m.group(1)) : 0;
  }

  /** What attempt {@code attempt} of a job with {@code payload} sleeps. */
  static long sleepMs(String payload, int attempt) {
    Matcher m = RETRY_SLEEP.matcher(payload);
    return attempt > 1 && m.find() ? Long.parseLong(m.group(1)) : sleepMs(payload);
  }
}
