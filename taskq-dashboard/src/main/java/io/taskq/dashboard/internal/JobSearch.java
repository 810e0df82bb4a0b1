package io.taskq.dashboard.internal;

import io.taskq.JobStatus;
import io.taskq.bulk.CancelFilter;
import io.taskq.dashboard.DashboardRequest;
import io.taskq.operations.JobFilter;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.Function;

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
    return from(request::query);
  }

  /** The filter in {@code request}'s form (a bulk action's confirmation), without a cursor. */
  static JobSearch fromForm(DashboardRequest request) {
    JobSearch search = from(request::form);
    return new JobSearch(
        search.status, search.queue, search.actor, search.errorClass, Optional.empty());
  }

  private static JobSearch from(Function<String, Optional<String>> values) {
    Optional<JobStatus> status = values.apply("status").map(JobSearch::status);
    Optional<Long> before = values.apply("before").map(JobSearch::cursor);
    return new JobSearch(
        status, values.apply("queue"), values.apply("actor"), values.apply("error"), before);
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

  /** Whether a criterion other than the status narrows the search. */
  boolean narrowed() {
    return queue.isPresent() || actor.isPresent() || errorClass.isPresent();
  }

  /**
   * The filter a bulk retry acts on: this one, of the failed, crashed and cancelled jobs (the one
   * asked for, when it is one of them); empty when the status asked for cannot be retried.
   */
  Optional<JobFilter> retryFilter() {
    Set<JobStatus> wanted = EnumSet.of(JobStatus.FAILED, JobStatus.CRASHED, JobStatus.CANCELLED);
    status.ifPresent(s -> wanted.retainAll(Set.of(s)));
    if (wanted.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(narrowedTo(wanted));
  }

  /**
   * The filter a bulk cancel acts on (open jobs: scheduled, pending, running), with the same jobs
   * as {@link #cancelFilter()}; empty when the status asked for has ended, or when an error class
   * narrows the search (a cancel by filter takes status, queue and actor only).
   */
  Optional<JobFilter> cancelCountFilter() {
    Set<JobStatus> wanted = EnumSet.copyOf(CancelFilter.OPEN_STATUSES);
    status.ifPresent(s -> wanted.retainAll(Set.of(s)));
    if (wanted.isEmpty() || errorClass.isPresent()) {
      return Optional.empty();
    }
    return Optional.of(narrowedTo(wanted));
  }

  /** The bulk cancel's own filter; present exactly when {@link #cancelCountFilter()} is. */
  Optional<CancelFilter> cancelFilter() {
    if (cancelCountFilter().isEmpty()) {
      return Optional.empty();
    }
    CancelFilter.Builder b = narrowed() ? CancelFilter.builder() : CancelFilter.everything();
    queue.ifPresent(b::queues);
    actor.ifPresent(b::actors);
    status.ifPresent(b::statuses);
    return Optional.of(b.build());
  }

  private JobFilter narrowedTo(Set<JobStatus> statuses) {
    JobFilter.Builder b = narrowed() ? JobFilter.builder() : JobFilter.everything();
    b.statuses(statuses.toArray(new JobStatus[0]));
    queue.ifPresent(b::queues);
    actor.ifPresent(b::actors);
    errorClass.ifPresent(b::errorClasses);
    return b.build();
  }

  /** The filter as an operator reads it: {@code status failed, queue emails}, or {@code none}. */
  String describe() {
    StringJoiner d = new StringJoiner(", ");
    status.ifPresent(s -> d.add("status " + s.dbValue()));
    queue.ifPresent(v -> d.add("queue " + v));
    actor.ifPresent(v -> d.add("actor " + v));
    errorClass.ifPresent(v -> d.add("error class " + v));
    return d.length() == 0 ? "none (every job)" : d.toString();
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
