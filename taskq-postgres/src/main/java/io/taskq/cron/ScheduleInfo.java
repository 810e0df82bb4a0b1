package io.taskq.cron;

import java.time.Instant;
import java.time.ZoneId;
import org.jspecify.annotations.Nullable;

/**
 * A stored cron schedule and its firing state.
 *
 * @param name the schedule's name
 * @param actor the actor its jobs are for
 * @param cronExpression the cron expression as stored
 * @param timeZone the time zone whose wall clock it reads
 * @param payloadJson the fixed payload, or {@code null} with a payload factory
 * @param payloadFactory the payload factory's name, or {@code null} with a fixed payload
 * @param queue the jobs' queue, or {@code null} for the actor's own
 * @param priority the jobs' priority
 * @param misfirePolicy what it does about missed fire times
 * @param enabled whether the cron loop fires it
 * @param nextFireAt when it is due next
 * @param consecutiveFailures failed fires since the last successful one (auto-disable counts these)
 * @param lastFireError the last failed fire's error (NULs escaped), or {@code null}
 * @param lastFiredAt when it last enqueued a job, or {@code null}
 * @param lastJobId the job it last enqueued, or {@code null}
 * @param createdAt when it was created
 * @param updatedAt when it was last changed (by the API or a tick)
 */
public record ScheduleInfo(
    String name,
    String actor,
    String cronExpression,
    ZoneId timeZone,
    @Nullable String payloadJson,
    @Nullable String payloadFactory,
    @Nullable String queue,
    int priority,
    MisfirePolicy misfirePolicy,
    boolean enabled,
    Instant nextFireAt,
    int consecutiveFailures,
    @Nullable String lastFireError,
    @Nullable Instant lastFiredAt,
    @Nullable Long lastJobId,
    Instant createdAt,
    Instant updatedAt) {}
