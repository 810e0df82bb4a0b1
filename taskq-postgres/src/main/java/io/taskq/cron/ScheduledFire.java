package io.taskq.cron;

import io.taskq.PayloadFactory;
import java.time.Instant;
import java.time.ZoneId;

/**
 * One fire of a cron schedule, as a {@link PayloadFactory} sees it.
 *
 * @param scheduleName the schedule's name
 * @param actor the actor the job is for
 * @param fireAt the fire time this job stands for (the schedule's {@code next_fire_at}); never
 *     later than the tick that fires it
 * @param timeZone the schedule's time zone (to render {@code fireAt} on its wall clock)
 */
public record ScheduledFire(String scheduleName, String actor, Instant fireAt, ZoneId timeZone) {}
