package io.taskq.dashboard.internal;

import io.taskq.core.JobStatus;
import io.taskq.dashboard.DashboardRequest;
import io.taskq.postgres.operations.JobFilter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * The jobs page's filter as it travels in the URL ({@code ?status=failed&queue=emails&actor=...
 * &error=...&before=123}): read from the query, turned into a typed {@link JobFilter} (never SQL),
 * and written back into links, each value URL-encoded. Bad values are reported, not guessed at.
 */
record JobSearch(
    Optional<JobStatus> status,
    Optional<String> queue,
    Optional<String> actor,
    Optional<String> errorClass,
    Optional<Long> before) {

  /** The filter in {@code request}'s query, or the problem with it. */
  static JobSearch from(DashboardRequest request) {
    Optional<JobStatus> status = request.query("status").map(JobSearch::status);
    Optional<Long> before = request.query("before").map(JobSearch::cursor);
    return new JobSearch(
        status, request.query("queue"), request.query("actor"), request.query("error"), before);
  }

  private static JobStatus status(String text) {
    try {
      return JobStatus.valueOf(text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new BadQuery(
          "status must be one of scheduled, pending, running, succeeded, failed,"
              + " crashed, cancelled");
    }
  }

  private static long cursor(String text) {
    return Ids.parse(text).orElseThrow(() -> new BadQuery("before must be a job id"));
  }

  /** The typed filter; everything when nothing narrows it. */
  JobFilter filter() {
    boolean narrowed = queue.isPresent() || actor.isPresent() || errorClass.isPresent();
    JobFilter.Builder b = narrowed ? JobFilter.builder() : JobFilter.everything();
    status.ifPresent(b::statuses);
    queue.ifPresent(b::queues);
    actor.ifPresent(b::actors);
    errorClass.ifPresent(b::errorClasses);
    return b.build();
  }

  /** The current values for the form fields. */
  Map<String, Object> fields() {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("status", status.map(s -> s.dbValue()).orElse(""));
    f.put("queue", queue.orElse(""));
    f.put("actor", actor.orElse(""));
    f.put("error", errorClass.orElse(""));
    status.ifPresent(s -> f.put("is_" + s.dbValue(), true));
    return f;
  }

  /** The query string of this filter (without a cursor), URL-encoded, without the {@code ?}. */
  String query() {
    StringJoiner q = new StringJoiner("&");
    status.ifPresent(s -> q.add("status=" + s.dbValue()));
    queue.ifPresent(v -> q.add("queue=" + Format.queryValue(v)));
    actor.ifPresent(v -> q.add("actor=" + Format.queryValue(v)));
    errorClass.ifPresent(v -> q.add("error=" + Format.queryValue(v)));
    return q.toString();
  }

  /** A query value the page cannot use; answered 400 naming it. */
  static final class BadQuery extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadQuery(String message) {
      super(message, null, false, false);
    }
  }
}
