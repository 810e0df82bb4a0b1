package io.taskq.cli;

import io.taskq.JobStatus;
import io.taskq.operations.JobSummary;
import java.util.LinkedHashMap;
import java.util.Map;

/** The JSON shapes of the CLI's rows (docs/cli.md). */
final class Rendering {
  private Rendering() {}

  static Map<String, Object> job(JobSummary j) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", j.id());
    m.put("actor", j.actor());
    m.put("queue", j.queue());
    m.put("status", j.status().dbValue());
    m.put("priority", j.priority());
    m.put("attempt", j.attempt());
    m.put("max_attempts", j.maxAttempts());
    m.put("run_at", j.runAt());
    m.put("created_at", j.createdAt());
    m.put("started_at", j.startedAt());
    m.put("finished_at", j.finishedAt());
    m.put("error_class", j.errorClass());
    m.put("error_message", j.errorMessage());
    m.put("labels", j.labels());
    m.put("archived", j.archived());
    return m;
  }

  static Map<String, Long> counts(Map<JobStatus, Long> counts) {
    Map<String, Long> m = new LinkedHashMap<>();
    for (JobStatus s : JobStatus.values()) {
      m.put(s.dbValue(), counts.getOrDefault(s, 0L));
    }
    return m;
  }
}
