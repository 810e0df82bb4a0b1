package io.taskq.dashboard.internal;

import io.taskq.JobInfo;
import io.taskq.JobStatus;
import io.taskq.dashboard.DashboardResponse;
import io.taskq.operations.AttemptRecord;
import io.taskq.operations.EventRecord;
import io.taskq.operations.JobDetail;
import io.taskq.progress.Progress;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@code /jobs/{id}}: one job (W1, A2): its fields, the payload pretty-printed, labels, the last
 * error with its stack, the result, and the actions its status allows. Everything shown is text the
 * template escapes: payloads, labels and errors are hostile input (W5).
 */
final class JobPage {
  private static final Set<JobStatus> RETRYABLE =
      EnumSet.of(JobStatus.FAILED, JobStatus.CRASHED, JobStatus.CANCELLED);

  private static final Set<JobStatus> DISCARDABLE =
      EnumSet.of(JobStatus.SCHEDULED, JobStatus.PENDING);

  private final Context ctx;

  JobPage(Context ctx) {
    this.ctx = ctx;
  }

  DashboardResponse get(Visit visit, long id) {
    Optional<JobDetail> found = ctx.taskq().operations().detail(id);
    if (found.isEmpty()) {
      return ctx.notice(visit, 404, "Job " + id, "No job " + id + " in this schema.");
    }
    JobInfo job = found.get().job();
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
    scope.put("canRetry", RETRYABLE.contains(job.status()) && !job.archived());
    scope.put("canDiscard", DISCARDABLE.contains(job.status()) && !job.archived());
    scope.put("attempts", attempts(found.get().attempts()));
    scope.put("events", events(found.get().events()));
    found.get().progress().ifPresent(p -> scope.put("progress", progress(p)));
    return ctx.page("job", scope);
  }

  private static List<Map<String, Object>> attempts(List<AttemptRecord> attempts) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (AttemptRecord a : attempts) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("attempt", a.attempt());
      r.put("outcome", a.outcome());
      r.put("worker", a.workerId() == null ? "" : a.workerId());
      r.put("startedAt", Format.instant(a.startedAt()));
      r.put("finishedAt", Format.instant(a.finishedAt()));
      r.put("error", a.errorClass() == null ? "" : a.errorClass());
      r.put("message", a.errorMessage() == null ? "" : a.errorMessage());
      put(r, "stack", a.errorStack());
      out.add(r);
    }
    return out;
  }

  private static List<Map<String, Object>> events(List<EventRecord> events) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (EventRecord e : events) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("at", Format.instant(e.occurredAt()));
      r.put("kind", e.kind());
      r.put("attempt", e.attempt());
      StringBuilder detail = new StringBuilder();
      append(detail, e.disposition());
      append(detail, e.errorClass());
      append(detail, e.errorMessage());
      append(detail, e.note());
      r.put("detail", detail.toString());
      out.add(r);
    }
    return out;
  }

  private static Map<String, Object> progress(Progress p) {
    return Map.of(
        "percent", (int) Math.round(p.fraction() * 100),
        "message", p.message(),
        "at", Format.instant(p.reportedAt()));
  }

  private static void append(StringBuilder out, @Nullable String part) {
    if (part != null && !part.isEmpty()) {
      out.append(out.length() == 0 ? "" : " · ").append(part);
    }
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
    f.put("snoozes", job.snoozes());
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
