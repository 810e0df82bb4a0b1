package io.taskq.dashboard.internal;

import io.taskq.core.JobStatus;
import io.taskq.dashboard.DashboardResponse;
import io.taskq.postgres.JobInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * {@code /jobs/{id}}: one job (W1, A2): its fields, the payload pretty-printed, labels, the last
 * error with its stack, the result, and the actions its status allows. Everything shown is text the
 * template escapes: payloads, labels and errors are hostile input (W5).
 */
final class JobPage {
  private final Context ctx;

  JobPage(Context ctx) {
    this.ctx = ctx;
  }

  DashboardResponse get(Visit visit, long id) {
    Optional<JobInfo> found = ctx.taskq().jobs().find(id);
    if (found.isEmpty()) {
      return ctx.notice(visit, 404, "Job " + id, "No job " + id + " in this schema.");
    }
    JobInfo job = found.get();
    Map<String, Object> scope = ctx.scope(visit, "jobs", "Job " + id);
    scope.put("job", fields(job));
    scope.put("payload", PrettyJson.indent(job.payloadJson()));
    scope.put("labels", labels(job));
    put(scope, "errorClass", job.errorClass());
    put(scope, "errorMessage", job.errorMessage());
    put(scope, "errorStack", job.errorStack());
    String result = job.resultJson();
    if (result != null) {
      scope.put("result", PrettyJson.indent(result));
    }
    scope.put("canCancel", !job.status().isTerminal() && !job.archived());
    return ctx.page("job", scope);
  }

  private static Map<String, Object> fields(JobInfo job) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("id", job.id());
    f.put("actor", job.actor());
    f.put("queue", job.queue());
    f.put("status", job.status().dbValue());
    f.put("failed", job.status() == JobStatus.FAILED || job.status() == JobStatus.CRASHED);
    f.put("priority", job.priority());
    f.put("attempts", job.attempt() + " of " + job.maxAttempts());
    f.put("runAt", Format.instant(job.runAt()));
    f.put("createdAt", Format.instant(job.createdAt()));
    f.put("startedAt", Format.instant(job.startedAt()));
    f.put("finishedAt", Format.instant(job.finishedAt()));
    f.put("deadlineAt", Format.instant(job.deadlineAt()));
    f.put("lockedBy", job.lockedBy() == null ? "" : job.lockedBy());
    f.put("lockExpiresAt", Format.instant(job.lockExpiresAt()));
    f.put("cancelRequestedAt", Format.instant(job.cancelRequestedAt()));
    f.put("uniqueKey", job.uniqueKey() == null ? "" : job.uniqueKey());
    f.put("concurrencyKey", job.concurrencyKey() == null ? "" : job.concurrencyKey());
    f.put("archived", job.archived());
    return f;
  }

  private static List<Map<String, String>> labels(JobInfo job) {
    List<Map<String, String>> out = new ArrayList<>();
    job.labels().forEach((k, v) -> out.add(Map.of("key", k, "value", v)));
    return out;
  }

  private static void put(Map<String, Object> scope, String key, @Nullable String value) {
    if (value != null) {
      scope.put(key, value);
    }
  }
}
