package io.taskq.bulk;

import io.taskq.JobRequest;
import io.taskq.JobStatus;
import io.taskq.JobsClient;
import io.taskq.postgres.internal.CallerText;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Which jobs {@link JobsClient#cancelWhere(CancelFilter)} cancels (S13, F1).
 *
 * <p>A job matches when it is open (scheduled, pending, or running without a cancel already
 * requested), its status is among {@link Builder#statuses} (default: all three), and it meets every
 * criterion given: one of the actors, one of the queues, all of the labels (the job's labels
 * contain each key with that value), older than the age (created before now minus it, database
 * clock). Only jobs that existed when the call started are matched.
 *
 * <p>A filter must name at least one of actor, queue, label or age: an empty filter would cancel
 * every open job of the schema, so it is refused unless built from {@link #everything()}, which
 * says so explicitly. Every setter checks its argument at once and fails with an {@link
 * IllegalArgumentException} naming it.
 */
public final class CancelFilter {
  /** The statuses a bulk cancel acts on: a terminal job cannot be cancelled. */
  public static final Set<JobStatus> OPEN_STATUSES =
      Collections.unmodifiableSet(
          EnumSet.of(JobStatus.SCHEDULED, JobStatus.PENDING, JobStatus.RUNNING));

  private final List<String> actors;
  private final List<String> queues;
  private final Set<JobStatus> statuses;
  private final Map<String, String> labels;
  private final @Nullable Duration olderThan;
  private final boolean everything;

  private CancelFilter(Builder b) {
    this.actors = List.copyOf(b.actors);
    this.queues = List.copyOf(b.queues);
    this.statuses = Collections.unmodifiableSet(EnumSet.copyOf(b.statuses));
    this.labels = Collections.unmodifiableMap(new TreeMap<>(b.labels));
    this.olderThan = b.olderThan;
    this.everything = b.everything;
  }

  /** {@return a filter to narrow down by actor, queue, labels or age (at least one of them)} */
  public static Builder builder() {
    return new Builder(false);
  }

  /**
   * {@return a filter that matches every open job of the schema unless narrowed: the explicit way
   * to cancel everything (for a test environment, say)} It may still be narrowed by status or any
   * criterion.
   */
  public static Builder everything() {
    return new Builder(true);
  }

  /**
   * {@return a filter for the open jobs of {@code actor}}
   *
   * @param actor the actor's name
   */
  public static CancelFilter actor(String actor) {
    return builder().actors(actor).build();
  }

  /** {@return actors to match (any of them), or empty for any actor} */
  public List<String> actors() {
    return actors;
  }

  /** {@return queues to match (any of them), or empty for any queue} */
  public List<String> queues() {
    return queues;
  }

  /** {@return statuses to act on, a non-empty subset of {@link #OPEN_STATUSES}} */
  public Set<JobStatus> statuses() {
    return statuses;
  }

  /** {@return labels a job must carry, each with this value; empty for no label condition} */
  public Map<String, String> labels() {
    return labels;
  }

  /** {@return the age a job must exceed, or {@code null} for any age} */
  public @Nullable Duration olderThan() {
    return olderThan;
  }

  /** {@return whether the filter was built from {@link #everything()}} */
  public boolean isEverything() {
    return everything;
  }

  @Override
  public String toString() {
    return "CancelFilter{"
        + (everything ? "everything, " : "")
        + "actors="
        + actors
        + ", queues="
        + queues
        + ", statuses="
        + statuses
        + ", labels="
        + labels.keySet()
        + (olderThan == null ? "" : ", olderThan=" + olderThan)
        + "}";
  }

  /** Builds a {@link CancelFilter}. */
  public static final class Builder {
    private final boolean everything;
    private final Set<String> actors = new LinkedHashSet<>();
    private final Set<String> queues = new LinkedHashSet<>();
    private Set<JobStatus> statuses = EnumSet.copyOf(OPEN_STATUSES);
    private final Map<String, String> labels = new TreeMap<>();
    private @Nullable Duration olderThan;

    private Builder(boolean everything) {
      this.everything = everything;
    }

    /**
     * Adds actors to match (a job matches any of them); names as in {@link JobRequest}.
     *
     * @param names the actors' names
     * @return this builder
     */
    public Builder actors(String... names) {
      for (String name : Objects.requireNonNull(names, "actors")) {
        actors.add(
            CallerText.requireName(
                "actor", Objects.requireNonNull(name, "actor"), JobRequest.MAX_NAME_CHARS));
      }
      return this;
    }

    /**
     * Adds queues to match (a job matches any of them).
     *
     * @param names the queues' names
     * @return this builder
     */
    public Builder queues(String... names) {
      for (String name : Objects.requireNonNull(names, "queues")) {
        queues.add(
            CallerText.requireName(
                "queue", Objects.requireNonNull(name, "queue"), JobRequest.MAX_NAME_CHARS));
      }
      return this;
    }

    /**
     * The statuses to act on, replacing the default (scheduled, pending and running): scheduled and
     * pending jobs become {@code cancelled}; a running job gets a cancel request its handler
     * observes, and its worker ends it {@code cancelled}.
     *
     * @param wanted the statuses to act on
     * @return this builder
     * @throws IllegalArgumentException when none is given or one is terminal
     */
    public Builder statuses(JobStatus... wanted) {
      Objects.requireNonNull(wanted, "statuses");
      if (wanted.length == 0) {
        throw new IllegalArgumentException(
            "statuses must name at least one of " + OPEN_STATUSES + ", got none");
      }
      EnumSet<JobStatus> set = EnumSet.noneOf(JobStatus.class);
      for (JobStatus s : wanted) {
        Objects.requireNonNull(s, "status");
        if (!OPEN_STATUSES.contains(s)) {
          throw new IllegalArgumentException(
              "status "
                  + s
                  + " is terminal and cannot be cancelled; statuses must be among "
                  + OPEN_STATUSES);
        }
        set.add(s);
      }
      this.statuses = set;
      return this;
    }

    /**
     * Adds a label the job must carry with exactly this value.
     *
     * @param key the label's key
     * @param value the value it must have
     * @return this builder
     */
    public Builder label(String key, String value) {
      CallerText.requireName(
          "label key", Objects.requireNonNull(key, "label key"), JobRequest.MAX_LABEL_KEY_CHARS);
      Objects.requireNonNull(value, "value of label '" + key + "'");
      CallerText.requireNoNul("value of label '" + key + "'", value);
      if (value.length() > JobRequest.MAX_LABEL_VALUE_CHARS) {
        throw new IllegalArgumentException(
            "value of label '"
                + key
                + "' must be at most "
                + JobRequest.MAX_LABEL_VALUE_CHARS
                + " characters, was "
                + value.length());
      }
      labels.put(key, value);
      return this;
    }

    /**
     * Matches only jobs created more than {@code age} ago (database clock); 1 ms to 3650 days.
     *
     * @param age the least age of a matching job
     * @return this builder
     */
    public Builder olderThan(Duration age) {
      Objects.requireNonNull(age, "olderThan");
      if (age.compareTo(Duration.ofMillis(1)) < 0 || age.compareTo(JobRequest.MAX_DURATION) > 0) {
        throw new IllegalArgumentException(
            "olderThan must be in [PT0.001S, " + JobRequest.MAX_DURATION + "], was " + age);
      }
      this.olderThan = age;
      return this;
    }

    /**
     * {@return the filter}
     *
     * @throws IllegalArgumentException when it names no actor, queue, label or age and was not
     *     started from {@link CancelFilter#everything()}
     */
    public CancelFilter build() {
      if (!everything
          && actors.isEmpty()
          && queues.isEmpty()
          && labels.isEmpty()
          && olderThan == null) {
        throw new IllegalArgumentException(
            "an empty cancel filter would cancel every open job in the schema; name at least one"
                + " actor, queue, label or age, or start from CancelFilter.everything() to mean"
                + " all");
      }
      return new CancelFilter(this);
    }
  }
}
