package io.taskq.postgres.internal.cron;

import io.taskq.JobRequest;
import io.taskq.PayloadFactory;
import io.taskq.RetryPolicy;
import io.taskq.core.internal.TextBoundary;
import io.taskq.cron.CronExpression;
import io.taskq.cron.MisfirePolicy;
import io.taskq.cron.ScheduledFire;
import io.taskq.postgres.internal.client.JobInserter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Plans the fires of one cron tick (S12, F5), each schedule alone: a bad expression or zone, a
 * missing {@code actor_config} row, a payload-factory exception or a job the enqueue limits refuse
 * fails that schedule only, with a sanitised error; it never fails the tick.
 */
final class FirePlanner {
  private final PayloadFactories factories;
  private final CronFaults faults;
  private final JobInserter inserter;

  FirePlanner(PayloadFactories factories, CronFaults faults, JobInserter inserter) {
    this.factories = factories;
    this.faults = faults;
    this.inserter = inserter;
  }

  /** Plans every schedule of {@code due}, in order. */
  FirePlan.Tick planAll(List<DueSchedule> due) {
    List<FirePlan.Fired> fired = new ArrayList<>();
    List<FirePlan.Failed> failed = new ArrayList<>();
    for (DueSchedule d : due) {
      FirePlan plan = plan(d);
      if (plan instanceof FirePlan.Fired f) {
        fired.add(f);
      } else if (plan instanceof FirePlan.Failed f) {
        failed.add(f);
      }
    }
    return new FirePlan.Tick(fired, failed);
  }

  /** Plans one schedule; never throws for it. */
  FirePlan plan(DueSchedule d) {
    FireTimes times;
    try {
      times = FireTimes.of(d);
    } catch (RuntimeException e) {
      return new FirePlan.Failed(d.name(), null, text("no next fire time: " + describe(e)));
    }
    String actorQueue = d.actorQueue();
    if (actorQueue == null) {
      return new FirePlan.Failed(d.name(), times.nextAfterNow(), text(noActorRow(d)));
    }
    ScheduledFire fire = new ScheduledFire(d.name(), d.actor(), d.nextFireAt(), times.zone());
    String payload;
    try {
      payload = payload(d, fire);
    } catch (Exception e) {
      return payloadFailed(d, times, e);
    }
    return fire(d, times, d.queue() != null ? d.queue() : actorQueue, payload);
  }

  /**
   * A schedule's zone, its next fire time by its misfire policy, and its next fire time after now
   * (where a failed schedule moves on to).
   */
  private record FireTimes(ZoneId zone, Instant next, Instant nextAfterNow) {
    static FireTimes of(DueSchedule d) {
      ZoneId zone = ZoneId.of(d.timeZone());
      CronExpression cron = CronExpression.parse(d.cron());
      Instant late = d.nextFireAt().isAfter(d.now()) ? d.nextFireAt() : d.now();
      Instant nextAfterNow = cron.nextAfter(late, zone);
      Instant next =
          MisfirePolicy.fromDbValue(d.misfirePolicy()) == MisfirePolicy.FIRE_ALL
              ? cron.nextAfter(d.nextFireAt(), zone)
              : nextAfterNow;
      return new FireTimes(zone, next, nextAfterNow);
    }
  }

  private static String noActorRow(DueSchedule d) {
    return "no actor_config row for actor '"
        + d.actor()
        + "': no worker has registered it (or it was deregistered)";
  }

  private static FirePlan payloadFailed(DueSchedule d, FireTimes times, Exception e) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    return new FirePlan.Failed(d.name(), times.nextAfterNow(), text(describe(e)));
  }

  private FirePlan fire(DueSchedule d, FireTimes times, String queue, String payload) {
    try {
      JobRequest request = request(d, queue, payload);
      inserter.validate(List.of(request));
      return new FirePlan.Fired(d.name(), times.next(), request);
    } catch (IllegalArgumentException e) {
      return new FirePlan.Failed(d.name(), times.nextAfterNow(), text("bad job: " + describe(e)));
    }
  }

  /**
   * The job of one fire: the schedule's actor, queue, priority and retry policy, and its labels.
   */
  private static JobRequest request(DueSchedule d, String queue, String payload) {
    return JobRequest.builder(d.actor())
        .payloadJson(payload)
        .queue(queue)
        .priority(d.priority())
        .retryPolicy(
            RetryPolicy.of(
                RetryPolicy.Backoff.valueOf(d.retryBackoff().toUpperCase(Locale.ROOT)),
                Duration.ofMillis(d.retryBaseMs()),
                Duration.ofMillis(d.retryCapMs()),
                d.retryJitter(),
                d.maxAttempts()))
        .labels(
            Map.of(
                CronTick.SCHEDULE_LABEL,
                d.name(),
                CronTick.FIRE_AT_LABEL,
                d.nextFireAt().toString()))
        .build();
  }

  private String payload(DueSchedule d, ScheduledFire fire) throws Exception {
    faults.plan().check();
    String factoryName = d.payloadFactory();
    if (factoryName == null) {
      return d.payload() != null ? d.payload() : "{}";
    }
    PayloadFactory factory = factories.get(factoryName);
    if (factory == null) {
      throw new IllegalStateException(
          "no payload factory named '"
              + factoryName
              + "' is registered in this process (registered: "
              + factories.names()
              + ")");
    }
    return factoryPayload(factoryName, factory, fire);
  }

  private static String factoryPayload(
      String factoryName, PayloadFactory factory, ScheduledFire fire) throws FactoryException {
    String json;
    try {
      json = factory.payloadJson(fire);
    } catch (Exception e) {
      throw new FactoryException(factoryName, e);
    }
    if (json == null) {
      throw new IllegalStateException("payload factory '" + factoryName + "' returned null");
    }
    return json;
  }

  /** Wraps a factory's exception so the stored error names the factory. */
  private static final class FactoryException extends Exception {
    private static final long serialVersionUID = 1L;

    FactoryException(String factory, Exception cause) {
      super("payload factory '" + factory + "' threw " + describe(cause), cause);
    }
  }

  private static String describe(Exception e) {
    if (e instanceof FactoryException) {
      return String.valueOf(TextBoundary.errorMessage(e));
    }
    String message = TextBoundary.errorMessage(e);
    return e.getClass().getName() + (message == null ? "" : ": " + message);
  }

  /** Derived text, sanitised (NULs escaped) and bounded before it reaches the batched UPDATE. */
  private static String text(String error) {
    return TextBoundary.bounded(TextBoundary.escapeNul(error), TextBoundary.MAX_MESSAGE_CHARS);
  }
}
