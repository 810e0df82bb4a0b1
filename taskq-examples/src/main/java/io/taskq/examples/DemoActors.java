package io.taskq.examples;

import io.taskq.Actor;
import io.taskq.RetryPolicy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The demo's three actors: a quick one, a slow one, and one that fails now and then and retries.
 *
 * <p>The flaky actor fails its first attempts deterministically for about a third of its jobs (the
 * job id decides), so every run shows retries going through the job's own stamped retry policy.
 */
final class DemoActors {
  static final String SEND_EMAIL = "demo.send_email";
  static final String RENDER_REPORT = "demo.render_report";
  static final String SYNC_PAYMENT = "demo.sync_payment";

  private DemoActors() {}

  /** The three actors, their handlers timed into {@code stats}. */
  static List<Actor<?>> all(DemoStats stats) {
    return List.of(sendEmail(stats), renderReport(stats), syncPayment(stats));
  }

  /** The retry policy stamped on the flaky actor's jobs: quick, so the demo stays short. */
  static RetryPolicy flakyRetryPolicy() {
    return RetryPolicy.of(
        RetryPolicy.Backoff.EXPONENTIAL, Duration.ofMillis(50), Duration.ofMillis(400), 0.2, 5);
  }

  private static Actor<String> sendEmail(DemoStats stats) {
    return Actor.rawJson(
        SEND_EMAIL,
        (payload, ctx) -> {
          long started = stats.started(ctx.jobId());
          try {
            pause(1, 3);
            return "{\"sent\":true}";
          } finally {
            stats.finished(started);
          }
        });
  }

  private static Actor<String> renderReport(DemoStats stats) {
    return Actor.rawJson(
        RENDER_REPORT,
        (payload, ctx) -> {
          long started = stats.started(ctx.jobId());
          try {
            for (int step = 0; step < 10 && !ctx.isCancelRequested(); step++) {
              pause(10, 30);
            }
            return "{\"pages\":12}";
          } finally {
            stats.finished(started);
          }
        });
  }

  private static Actor<String> syncPayment(DemoStats stats) {
    return Actor.rawJson(
        SYNC_PAYMENT,
        (payload, ctx) -> {
          long started = stats.started(ctx.jobId());
          try {
            pause(1, 5);
            long failingAttempts = Math.floorMod(ctx.jobId() * 7919, 9);
            if (failingAttempts < 3 && ctx.attempt() <= failingAttempts + 1) {
              throw new IllegalStateException(
                  "payment provider timed out (attempt " + ctx.attempt() + ")");
            }
            return null;
          } finally {
            stats.finished(started);
          }
        });
  }

  private static void pause(int minMillis, int maxMillis) throws InterruptedException {
    Thread.sleep(ThreadLocalRandom.current().nextInt(minMillis, maxMillis + 1));
  }
}
