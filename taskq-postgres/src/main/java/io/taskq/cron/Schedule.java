package io.taskq.cron;

import io.taskq.JobRequest;
import io.taskq.PayloadFactory;
import io.taskq.RetryPolicy;
import io.taskq.core.internal.JsonSyntax;
import io.taskq.core.internal.TextBoundary;
import io.taskq.postgres.internal.CallerText;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The definition of a cron schedule (S12): its name, the actor its jobs are for, a cron expression
 * on the wall clock of a time zone, and the job's payload (fixed, or built at fire time by a named
 * {@link PayloadFactory}), queue, priority and retry policy. Stored with {@link Schedules#put}.
 *
 * <p>Immutable; every builder setter checks its argument at once and fails with an {@link
 * IllegalArgumentException} naming the problem (a bad cron expression, an unknown time zone, a NUL
 * in a name or payload).
 */
public final class Schedule {
  /** Longest schedule name, in characters. */
  public static final int MAX_NAME_CHARS = 128;

  private final String name;
  private final String actor;
  private final CronExpression cron;
  private final ZoneId timeZone;
  private final @Nullable String payloadJson;
  private final @Nullable String payloadFactory;
  private final @Nullable String queue;
  private final short priority;
  private final RetryPolicy retryPolicy;
  private final MisfirePolicy misfirePolicy;
  private final boolean enabled;

  private Schedule(Builder b) {
    this.name = b.name;
    this.actor = b.actor;
    this.cron = Objects.requireNonNull(b.cron, "cron");
    this.timeZone = b.timeZone;
    this.payloadFactory = b.payloadFactory;
    this.payloadJson = b.payloadFactory == null ? b.payloadJson : null;
    this.queue = b.queue;
    this.priority = b.priority;
    this.retryPolicy = b.retryPolicy;
    this.misfirePolicy = b.misfirePolicy;
    this.enabled = b.enabled;
  }

  /**
   * {@return a builder for a schedule named {@code name} that enqueues jobs of {@code actor} at the
   * times of {@code cron} (5 fields, or 6 with seconds; see {@link CronExpression}), in UTC unless
   * a time zone is set}
   *
   * @param name the schedule's name
   * @param actor the actor whose jobs it enqueues
   * @param cron the cron expression
   * @throws IllegalArgumentException when a name is empty, too long or contains NUL, or the cron
   *     expression is malformed
   */
  public static Builder builder(String name, String actor, String cron) {
    return new Builder(name, actor, cron);
  }

  /** {@return the schedule's name} */
  public String name() {
    return name;
  }

  /** {@return the actor whose jobs it enqueues} */
  public String actor() {
    return actor;
  }

  /** {@return when it fires} */
  public CronExpression cron() {
    return cron;
  }

  /** {@return the time zone its cron expression is read in} */
  public ZoneId timeZone() {
    return timeZone;
  }

  /** {@return the fixed payload, or {@code null} when a payload factory builds it} */
  public @Nullable String payloadJson() {
    return payloadJson;
  }

  /** {@return the payload factory's name, or {@code null} for a fixed payload} */
  public @Nullable String payloadFactory() {
    return payloadFactory;
  }

  /**
   * {@return the queue, or {@code null} for the actor's own queue (its {@code actor_config} row)}
   */
  public @Nullable String queue() {
    return queue;
  }

  /** {@return the jobs' priority; lower runs first} */
  public short priority() {
    return priority;
  }

  /** {@return the jobs' retry policy} */
  public RetryPolicy retryPolicy() {
    return retryPolicy;
  }

  /** {@return what a tick does with fires it missed} */
  public MisfirePolicy misfirePolicy() {
    return misfirePolicy;
  }

  /**
   * {@return whether a newly created schedule starts enabled; an existing schedule keeps its state}
   */
  public boolean enabled() {
    return enabled;
  }

  @Override
  public String toString() {
    return "Schedule[" + name + ": " + actor + " at '" + cron + "' " + timeZone + "]";
  }

  /** Builds a {@link Schedule}. */
  public static final class Builder {
    private final String name;
    private final String actor;
    private final @Nullable CronExpression cron;
    private ZoneId timeZone = ZoneId.of("UTC");
    private String payloadJson = "{}";
    private @Nullable String payloadFactory;
    private @Nullable String queue;
    private short priority;
    private RetryPolicy retryPolicy = RetryPolicy.defaults();
    private MisfirePolicy misfirePolicy = MisfirePolicy.FIRE_ONCE;
    private boolean enabled = true;

    private Builder(String name, String actor, String cron) {
      this.name =
          CallerText.requireName(
              "schedule name", Objects.requireNonNull(name, "name"), MAX_NAME_CHARS);
      this.actor =
          CallerText.requireName(
              "actor", Objects.requireNonNull(actor, "actor"), JobRequest.MAX_NAME_CHARS);
      this.cron = CronExpression.parse(Objects.requireNonNull(cron, "cron"));
    }

    /**
     * The time zone whose wall clock the expression reads, e.g. {@code Europe/Berlin}.
     *
     * @param zone the time zone whose wall clock the expression reads, e.g. {@code Europe/Berlin}
     * @return this builder
     */
    public Builder timeZone(ZoneId zone) {
      this.timeZone = Objects.requireNonNull(zone, "timeZone");
      return this;
    }

    /**
     * The time zone by its ID, e.g. {@code Europe/Berlin}, {@code UTC} or {@code +02:00}.
     *
     * @param zoneId the time zone by its ID, e.g. {@code Europe/Berlin}, {@code UTC} or {@code
     *     +02:00}
     * @return this builder
     * @throws IllegalArgumentException naming the ID when it is not a known time zone
     */
    public Builder timeZone(String zoneId) {
      Objects.requireNonNull(zoneId, "timeZone");
      CallerText.requireNoNul("time zone", zoneId);
      try {
        this.timeZone = ZoneId.of(zoneId);
      } catch (DateTimeException e) {
        throw new IllegalArgumentException(
            "unknown time zone '" + zoneId + "' (use a region ID such as Europe/Berlin, or UTC)",
            e);
      }
      return this;
    }

    /**
     * A fixed payload: one JSON value, no NUL (raw or as {@code \u0000}). Replaces a payload
     * factory. Default {@code {}}.
     *
     * @param json the payload's JSON text
     * @return this builder
     */
    public Builder payloadJson(String json) {
      Objects.requireNonNull(json, "payloadJson");
      CallerText.requireNoNul("payload", json);
      if (json.isBlank()) {
        throw new IllegalArgumentException("payload must be a JSON value, was blank");
      }
      String problem = JsonSyntax.problem(json);
      if (problem != null) {
        throw new IllegalArgumentException("payload is not valid JSON: " + problem);
      }
      TextBoundary.requireNoNulInJson(json, "payload");
      this.payloadJson = json;
      this.payloadFactory = null;
      return this;
    }

    /**
     * Builds each job's payload at fire time with the {@link PayloadFactory} registered under
     * {@code factoryName} (in every process that runs a cron loop). Replaces a fixed payload.
     *
     * @param factoryName the name the factory was registered under
     * @return this builder
     */
    public Builder payloadFactory(String factoryName) {
      this.payloadFactory =
          CallerText.requireName(
              "payload factory name",
              Objects.requireNonNull(factoryName, "payloadFactory"),
              MAX_NAME_CHARS);
      return this;
    }

    /**
     * The queue of the jobs; default the actor's queue (its {@code actor_config} row).
     *
     * @param queue the queue of the jobs; default the actor's queue (its {@code actor_config} row)
     * @return this builder
     */
    public Builder queue(String queue) {
      this.queue =
          CallerText.requireName(
              "queue", Objects.requireNonNull(queue, "queue"), JobRequest.MAX_NAME_CHARS);
      return this;
    }

    /**
     * Lower runs first; -32768 to 32767. Default 0.
     *
     * @param priority the lower runs first; -32768 to 32767
     * @return this builder
     */
    public Builder priority(int priority) {
      this.priority = JobRequest.checkPriority(priority);
      return this;
    }

    /**
     * The jobs' retry policy (L3). Default {@link RetryPolicy#defaults()}.
     *
     * @param policy the jobs' retry policy (L3)
     * @return this builder
     */
    public Builder retryPolicy(RetryPolicy policy) {
      this.retryPolicy = Objects.requireNonNull(policy, "retryPolicy");
      return this;
    }

    /**
     * What to do about missed fire times. Default {@link MisfirePolicy#FIRE_ONCE}.
     *
     * @param policy what to do about missed fire times
     * @return this builder
     */
    public Builder misfirePolicy(MisfirePolicy policy) {
      this.misfirePolicy = Objects.requireNonNull(policy, "misfirePolicy");
      return this;
    }

    /**
     * Whether the schedule starts enabled when {@link Schedules#put} creates it; default true. An
     * existing schedule keeps its enabled state (use {@link Schedules#enable}/{@link
     * Schedules#disable}).
     *
     * @param enabled whether the schedule starts enabled when {@link Schedules#put} creates it;
     *     default true
     * @return this builder
     */
    public Builder enabled(boolean enabled) {
      this.enabled = enabled;
      return this;
    }

    /** {@return the schedule} */
    public Schedule build() {
      return new Schedule(this);
    }
  }
}
