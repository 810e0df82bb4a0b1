package io.taskq.bulk;

import io.taskq.JobRequest;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A group of jobs enqueued together as one batch, with an optional completion hook (L9).
 *
 * <p>When every member has reached a terminal status (succeeded, failed, crashed or cancelled) the
 * batch completes and its hook, when it has one, is enqueued exactly once: a job of the hook's
 * actor whose payload is
 *
 * <pre>{@code
 * {"batch_id": 7, "total": 3, "succeeded": 2, "failed": 1, "cancelled": 0, "payload": <hook payload>}
 * }</pre>
 *
 * where {@code failed} counts failed and crashed members. The hook is a template stamped into the
 * batch row when it is created (actor, queue, priority, payload, retry policy and labels), so the
 * job it becomes does not depend on code running at completion time.
 *
 * <p>Rules, checked when the request is built: at least one member, at most {@value #MAX_MEMBERS};
 * no member may be {@code unique_for} (a unique enqueue may return an existing job, which cannot
 * join a new batch); the hook runs as soon as the batch completes, so it may not set a run time,
 * delay, deadline or uniqueness.
 */
public final class BatchRequest {
  /** The most members one batch may have. */
  public static final int MAX_MEMBERS = 1_000_000;

  private final List<JobRequest> members;
  private final @Nullable JobRequest hook;

  private BatchRequest(List<JobRequest> members, @Nullable JobRequest hook) {
    this.members = members;
    this.hook = hook;
  }

  /**
   * {@return a batch of {@code members} without a hook}
   *
   * @param members the batch's jobs, at least one
   * @throws IllegalArgumentException when there is no member, too many, or a member is unique
   */
  public static BatchRequest of(List<JobRequest> members) {
    Objects.requireNonNull(members, "members");
    if (members.isEmpty()) {
      throw new IllegalArgumentException("a batch needs at least one member job, got none");
    }
    if (members.size() > MAX_MEMBERS) {
      throw new IllegalArgumentException(
          "a batch may have at most " + MAX_MEMBERS + " members, got " + members.size());
    }
    List<JobRequest> copy = List.copyOf(members);
    for (int i = 0; i < copy.size(); i++) {
      if (copy.get(i).uniqueKey() != null) {
        throw new IllegalArgumentException(
            "member "
                + i
                + " of the batch (actor '"
                + copy.get(i).actor()
                + "') is unique_for; a batch member cannot be, since a unique enqueue may return"
                + " an existing job instead of a new one");
      }
    }
    return new BatchRequest(copy, null);
  }

  /**
   * {@return this batch with {@code hook} as its completion hook: the hook's actor, queue,
   * priority, payload, retry policy and labels make the job enqueued when the batch completes}
   *
   * @param hook the job to enqueue when the batch completes
   * @throws IllegalArgumentException when the hook sets a run time, delay, deadline or uniqueness
   */
  public BatchRequest onComplete(JobRequest hook) {
    Objects.requireNonNull(hook, "hook");
    String option = null;
    if (hook.runAt() != null) {
      option = "runAt";
    } else if (hook.delay() != null) {
      option = "delay";
    } else if (hook.scheduleToClose() != null) {
      option = "scheduleToClose";
    } else if (hook.uniqueKey() != null) {
      option = "uniqueFor";
    }
    if (option != null) {
      throw new IllegalArgumentException(
          "the completion hook (actor '"
              + hook.actor()
              + "') sets "
              + option
              + "; a hook takes only actor, queue, priority, payload, retry policy and labels");
    }
    return new BatchRequest(members, hook);
  }

  /** {@return the member jobs, in the order their ids are returned} */
  public List<JobRequest> members() {
    return members;
  }

  /** {@return the completion hook's template, or {@code null} for a batch without a hook} */
  public @Nullable JobRequest hook() {
    return hook;
  }

  @Override
  public String toString() {
    return "BatchRequest{members=" + members.size() + ", hook=" + hook + "}";
  }
}
