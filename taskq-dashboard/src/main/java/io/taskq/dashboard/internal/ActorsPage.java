package io.taskq.dashboard.internal;

import io.taskq.JobStatus;
import io.taskq.dashboard.DashboardResponse;
import io.taskq.operations.ActorInfo;
import io.taskq.operations.Operations;
import io.taskq.operations.PauseTarget;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /actors}: every registered actor and every actor with jobs (W1, A4): its queue, jobs
 * running and pending (and scheduled), jobs that failed or crashed in the last hour, whether it is
 * paused (itself, or through its queue), with pause / resume of the actor. Three index-backed reads
 * of the operations API: the counts (an index-only scan, through the {@link Inventory}: off the
 * request path, at most a few seconds old), the failures of the last hour (the finished-jobs index)
 * and the pauses (a handful of rows, on each request).
 */
final class ActorsPage {
  private final Context ctx;
  private final InstantSource clock;

  ActorsPage(Context ctx, InstantSource clock) {
    this.ctx = ctx;
    this.clock = clock;
  }

  DashboardResponse get(Visit visit) {
    Operations ops = ctx.taskq().operations();
    Snapshot<List<ActorInfo>> actors = ctx.inventory().actors();
    Instant hourAgo = clock.instant().minus(Duration.ofHours(1));
    Map<String, Long> failures = ops.actorFailuresSince(hourAgo);
    Paused paused = ctx.inventory().paused();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (ActorInfo a : actors.value()) {
      rows.add(row(a, failures.getOrDefault(a.name(), 0L), paused));
    }
    Map<String, Object> scope = ctx.scope(visit, "actors", "Actors");
    scope.put("actors", rows);
    scope.put("countsAt", Format.instant(actors.readAt()));
    scope.put("none", rows.isEmpty());
    return ctx.page("actors", scope);
  }

  /** One actor's row; {@code failed}: its jobs that failed or crashed in the last hour. */
  private static Map<String, Object> row(ActorInfo a, long failed, Paused paused) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("name", a.name());
    r.put("param", Format.queryValue(a.name()));
    r.put("queue", a.queue());
    r.put("queueParam", Format.queryValue(a.queue()));
    r.put("hasQueue", !a.queue().isEmpty());
    r.put("registered", a.registered());
    r.put("running", Format.count(a.count(JobStatus.RUNNING)));
    r.put("pending", Format.count(a.count(JobStatus.PENDING)));
    r.put("scheduled", Format.count(a.count(JobStatus.SCHEDULED)));
    r.put("failures", Format.count(failed));
    r.put("failing", failed > 0);
    boolean actorPaused = paused.actor(a.name());
    r.put("paused", actorPaused);
    boolean queuePaused =
        a.queue().isEmpty() ? paused.queues().contains(PauseTarget.ALL) : paused.queue(a.queue());
    r.put("queuePaused", !actorPaused && queuePaused);
    return r;
  }
}
