package io.taskq.postgres.internal.cron;

import io.taskq.JobRequest;
import java.util.List;

/**
 * What one {@link CronTick} did.
 *
 * @param ran false when another transaction held the cron lock
 * @param due the due schedules it selected
 * @param fired the schedules it fired (one job each)
 * @param failed the schedules whose fire failed
 * @param disabled the schedules it disabled (auto-disable)
 * @param enqueued the jobs it enqueued, committed once {@link CronTick#run} returned
 */
public record CronTickResult(
    boolean ran, int due, int fired, int failed, List<String> disabled, List<JobRequest> enqueued) {
  static final CronTickResult SKIPPED = new CronTickResult(false, 0, 0, 0, List.of(), List.of());
}
