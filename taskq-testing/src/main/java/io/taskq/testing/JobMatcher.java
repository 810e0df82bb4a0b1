package io.taskq.testing;

import io.taskq.JobStatus;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Which jobs an assertion of {@link TestJobs} is about: an actor (or any), and optionally a queue,
 * statuses, and a condition on the payload. Immutable; each method returns a narrower copy.
 *
 * <p>Payloads are compared as JSON values, never as text: PostgreSQL stores them as {@code jsonb}
 * and hands back its own rewrite (keys reordered, spaces normalised; {@code docs/jackson.md}), so
 * {@code {"b":1,"a":2}} equals {@code {"a": 2, "b": 1}} here.
 *
 * <pre>{@code
 * jobs.assertEnqueued(JobMatcher.actor("send-email").queue("mail").payloadContains("{\"to\": \"ada@example.com\"}"));
 * }</pre>
 */
public final class JobMatcher {
  private final @Nullable String actor;
  private final @Nullable String queue;
  private final Set<JobStatus> statuses;
  private final @Nullable String payloadEquals;
  private final @Nullable String payloadContains;
  private final @Nullable Predicate<String> payloadTest;
  private final @Nullable String payloadTestDescription;

  private JobMatcher(
      @Nullable String actor,
      @Nullable String queue,
      Set<JobStatus> statuses,
      @Nullable String payloadEquals,
      @Nullable String payloadContains,
      @Nullable Predicate<String> payloadTest,
      @Nullable String payloadTestDescription) {
    this.actor = actor;
    this.queue = queue;
    this.statuses = statuses;
    this.payloadEquals = payloadEquals;
    this.payloadContains = payloadContains;
    this.payloadTest = payloadTest;
    this.payloadTestDescription = payloadTestDescription;
  }

  /**
   * Jobs of the actor named {@code actor}, in any queue and status.
   *
   * @param actor the actor's name
   * @return a matcher of that actor's jobs
   */
  public static JobMatcher actor(String actor) {
    return new JobMatcher(
        Objects.requireNonNull(actor, "actor"), null, Set.of(), null, null, null, null);
  }

  /**
   * Every job, of any actor.
   *
   * @return a matcher of every job
   */
  public static JobMatcher anyJob() {
    return new JobMatcher(null, null, Set.of(), null, null, null, null);
  }

  /**
   * Only jobs on {@code queue}.
   *
   * @param queue the queue's name
   * @return a copy of this matcher restricted to {@code queue}
   */
  public JobMatcher queue(String queue) {
    return new JobMatcher(
        actor,
        Objects.requireNonNull(queue, "queue"),
        statuses,
        payloadEquals,
        payloadContains,
        payloadTest,
        payloadTestDescription);
  }

  /**
   * Only jobs in one of {@code statuses}; by default every status counts, since in inline mode (or
   * with a running worker) a job may have run before the assertion.
   *
   * @param first a status to accept
   * @param more further statuses to accept
   * @return a copy of this matcher that accepts only those statuses
   */
  public JobMatcher status(JobStatus first, JobStatus... more) {
    Set<JobStatus> wanted = EnumSet.of(first, more);
    return new JobMatcher(
        actor,
        queue,
        Set.copyOf(wanted),
        payloadEquals,
        payloadContains,
        payloadTest,
        payloadTestDescription);
  }

  /**
   * Only jobs whose payload equals {@code json} as a JSON value (key order and spaces ignored).
   *
   * @param json a JSON document
   * @return a copy of this matcher that also requires the payload to equal {@code json}
   */
  public JobMatcher payloadEquals(String json) {
    return new JobMatcher(
        actor,
        queue,
        statuses,
        Objects.requireNonNull(json, "json"),
        payloadContains,
        payloadTest,
        payloadTestDescription);
  }

  /**
   * Only jobs whose payload contains {@code json} (PostgreSQL's {@code @>}: every key and value of
   * {@code json} is in the payload, nested objects likewise, arrays as subsets).
   *
   * @param json a JSON document
   * @return a copy of this matcher that also requires the payload to contain {@code json}
   */
  public JobMatcher payloadContains(String json) {
    return new JobMatcher(
        actor,
        queue,
        statuses,
        payloadEquals,
        Objects.requireNonNull(json, "json"),
        payloadTest,
        payloadTestDescription);
  }

  /**
   * Only jobs whose payload passes {@code test}, given the stored JSON text (PostgreSQL's rewrite:
   * parse it, do not compare it as text); {@code description} names the condition in failures.
   *
   * @param description what {@code test} checks, shown in assertion failures
   * @param test the condition on the payload's JSON text
   * @return a copy of this matcher that also requires {@code test} to pass
   */
  public JobMatcher payload(String description, Predicate<String> test) {
    return new JobMatcher(
        actor,
        queue,
        statuses,
        payloadEquals,
        payloadContains,
        Objects.requireNonNull(test, "test"),
        Objects.requireNonNull(description, "description"));
  }

  @Nullable String actorName() {
    return actor;
  }

  @Nullable String queueName() {
    return queue;
  }

  String[] statusValues() {
    return statuses.stream().map(JobStatus::dbValue).sorted().toArray(String[]::new);
  }

  @Nullable String payloadEqualsJson() {
    return payloadEquals;
  }

  @Nullable String payloadContainsJson() {
    return payloadContains;
  }

  boolean passes(String payloadJson) {
    Predicate<String> test = payloadTest;
    return test == null || test.test(payloadJson);
  }

  /** For failure messages: "jobs of actor 'x' on queue 'q' with payload containing {...}". */
  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    parts.add(actor == null ? "jobs of any actor" : "jobs of actor '" + actor + "'");
    if (queue != null) {
      parts.add("on queue '" + queue + "'");
    }
    if (!statuses.isEmpty()) {
      parts.add("in status " + String.join("/", statusValues()));
    }
    if (payloadEquals != null) {
      parts.add("with payload equal to " + payloadEquals);
    }
    if (payloadContains != null) {
      parts.add("with payload containing " + payloadContains);
    }
    if (payloadTestDescription != null) {
      parts.add("with payload " + payloadTestDescription);
    }
    return String.join(" ", parts);
  }
}
