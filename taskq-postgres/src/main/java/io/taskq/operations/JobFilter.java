package io.taskq.operations;

import io.taskq.JobRequest;
import io.taskq.JobStatus;
import io.taskq.postgres.internal.CallerText;
import java.time.Instant;
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
 * Which jobs a search, a count or a bulk retry looks at (A1, A3): a typed filter, never SQL.
 *
 * <p>A job matches when it meets every criterion given: one of the statuses, one of the actors, one
 * of the queues, all of the labels (each key with that value), one of the error classes (the last
 * error's), created and finished within the ranges (from inclusive, to exclusive; database clock).
 * A criterion not given matches every job. The search looks at the hot table, and at the archive
 * too when {@link Builder#includeArchived()} says so.
 *
 * <p>A bulk retry refuses a filter that names no actor, queue, label, error class or time range
 * (statuses alone do not narrow it enough) unless it was built from {@link #everything()}. Every
 * setter checks its argument at once and fails with an {@link IllegalArgumentException} naming it.
 *
 * <pre>{@code
 * JobFilter failedEmails =
 *     JobFilter.builder().statuses(JobStatus.FAILED).actors("send-email").build();
 * }</pre>
 */
public final class JobFilter {
  /** At most this many values per list criterion (statuses aside). */
  public static final int MAX_VALUES = 100;

  private final Set<JobStatus> statuses;
  private final List<String> actors;
  private final List<String> queues;
  private final Map<String, String> labels;
  private final List<String> errorClasses;
  private final @Nullable Instant createdFrom;
  private final @Nullable Instant createdTo;
  private final @Nullable Instant finishedFrom;
  private final @Nullable Instant finishedTo;
  private final boolean includeArchived;
  private final boolean everything;

  private JobFilter(Builder b) {
    this.statuses =
        b.statuses.isEmpty()
            ? Collections.emptySet()
            : Collections.unmodifiableSet(EnumSet.copyOf(b.statuses));
    this.actors = List.copyOf(b.actors);
    this.queues = List.copyOf(b.queues);
    this.labels = Collections.unmodifiableMap(new TreeMap<>(b.labels));
    this.errorClasses = List.copyOf(b.errorClasses);
    this.createdFrom = b.createdFrom;
    this.createdTo = b.createdTo;
    this.finishedFrom = b.finishedFrom;
    this.finishedTo = b.finishedTo;
    this.includeArchived = b.includeArchived;
    this.everything = b.everything;
  }

  /** {@return a filter to narrow down; with nothing set it matches every job of the hot table} */
  public static Builder builder() {
    return new Builder(false);
  }

  /** {@return a filter that a bulk retry accepts without any narrowing criterion: "all of them"} */
  public static Builder everything() {
    return new Builder(true);
  }

  /** {@return a filter matching every job of the hot table} */
  public static JobFilter all() {
    return builder().build();
  }

  /** {@return the statuses to match (any of them); empty for every status} */
  public Set<JobStatus> statuses() {
    return statuses;
  }

  /** {@return the actors to match (any of them); empty for every actor} */
  public List<String> actors() {
    return actors;
  }

  /** {@return the queues to match (any of them); empty for every queue} */
  public List<String> queues() {
    return queues;
  }

  /** {@return labels a job must carry, each with this value; empty for no label condition} */
  public Map<String, String> labels() {
    return labels;
  }

  /** {@return the last error's classes to match (any of them); empty for no error condition} */
  public List<String> errorClasses() {
    return errorClasses;
  }

  /** {@return the instant a matching job was created at or after, or {@code null}} */
  public @Nullable Instant createdFrom() {
    return createdFrom;
  }

  /** {@return the instant a matching job was created before, or {@code null}} */
  public @Nullable Instant createdTo() {
    return createdTo;
  }

  /** {@return the instant a matching job finished at or after, or {@code null}} */
  public @Nullable Instant finishedFrom() {
    return finishedFrom;
  }

  /** {@return the instant a matching job finished before, or {@code null}} */
  public @Nullable Instant finishedTo() {
    return finishedTo;
  }

  /** {@return whether the search looks at the archive (pruned jobs) too} */
  public boolean includeArchived() {
    return includeArchived;
  }

  /** {@return whether the filter was built from {@link #everything()}} */
  public boolean isEverything() {
    return everything;
  }

  /** {@return whether a criterion other than the statuses narrows the filter} */
  public boolean narrows() {
    return !actors.isEmpty()
        || !queues.isEmpty()
        || !labels.isEmpty()
        || !errorClasses.isEmpty()
        || createdFrom != null
        || createdTo != null
        || finishedFrom != null
        || finishedTo != null;
  }

  @Override
  public String toString() {
    return "JobFilter{"
        + (everything ? "everything, " : "")
        + "statuses="
        + statuses
        + ", actors="
        + actors
        + ", queues="
        + queues
        + ", labels="
        + labels.keySet()
        + ", errorClasses="
        + errorClasses
        + range("created", createdFrom, createdTo)
        + range("finished", finishedFrom, finishedTo)
        + (includeArchived ? ", includeArchived" : "")
        + "}";
  }

  private static String range(String name, @Nullable Instant from, @Nullable Instant to) {
    return from == null && to == null ? "" : ", " + name + "=[" + from + ", " + to + ")";
  }

  /** Builds a {@link JobFilter}. */
  public static final class Builder {
    private final boolean everything;
    private final Set<JobStatus> statuses = EnumSet.noneOf(JobStatus.class);
    private final Set<String> actors = new LinkedHashSet<>();
    private final Set<String> queues = new LinkedHashSet<>();
    private final Map<String, String> labels = new TreeMap<>();
    private final Set<String> errorClasses = new LinkedHashSet<>();
    private @Nullable Instant createdFrom;
    private @Nullable Instant createdTo;
    private @Nullable Instant finishedFrom;
    private @Nullable Instant finishedTo;
    private boolean includeArchived;

    private Builder(boolean everything) {
      this.everything = everything;
    }

    /**
     * Adds statuses to match (a job matches any of them).
     *
     * @param wanted the statuses to match
     * @return this builder
     */
    public Builder statuses(JobStatus... wanted) {
      for (JobStatus s : Objects.requireNonNull(wanted, "statuses")) {
        statuses.add(Objects.requireNonNull(s, "status"));
      }
      return this;
    }

    /**
     * Adds actors to match (a job matches any of them); names as in {@link JobRequest}.
     *
     * @param names the actors' names
     * @return this builder
     */
    public Builder actors(String... names) {
      addNames("actor", names, actors);
      return this;
    }

    /**
     * Adds queues to match (a job matches any of them).
     *
     * @param names the queues' names
     * @return this builder
     */
    public Builder queues(String... names) {
      addNames("queue", names, queues);
      return this;
    }

    /**
     * Adds error classes to match against the last error (a job matches any of them).
     *
     * @param names the error classes, as stored
     * @return this builder
     */
    public Builder errorClasses(String... names) {
      addNames("error class", names, errorClasses);
      return this;
    }

    private static void addNames(String field, String[] names, Set<String> into) {
      for (String name : Objects.requireNonNull(names, field + "s")) {
        into.add(
            CallerText.requireName(
                field, Objects.requireNonNull(name, field), JobRequest.MAX_NAME_CHARS));
      }
      if (into.size() > MAX_VALUES) {
        throw new IllegalArgumentException(
            "at most " + MAX_VALUES + " " + field + "s per filter, got " + into.size());
      }
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
     * Jobs created in {@code [from, to)}; either end may be {@code null} (open).
     *
     * @param from the earliest creation time, inclusive, or {@code null}
     * @param to the latest creation time, exclusive, or {@code null}
     * @return this builder
     * @throws IllegalArgumentException when {@code from} is not before {@code to}
     */
    public Builder createdBetween(@Nullable Instant from, @Nullable Instant to) {
      checkRange("created", from, to);
      this.createdFrom = from;
      this.createdTo = to;
      return this;
    }

    /**
     * Jobs finished in {@code [from, to)}; either end may be {@code null} (open).
     *
     * @param from the earliest finish time, inclusive, or {@code null}
     * @param to the latest finish time, exclusive, or {@code null}
     * @return this builder
     * @throws IllegalArgumentException when {@code from} is not before {@code to}
     */
    public Builder finishedBetween(@Nullable Instant from, @Nullable Instant to) {
      checkRange("finished", from, to);
      this.finishedFrom = from;
      this.finishedTo = to;
      return this;
    }

    private static void checkRange(String name, @Nullable Instant from, @Nullable Instant to) {
      if (from != null && to != null && !from.isBefore(to)) {
        throw new IllegalArgumentException(
            name + " range is empty: from " + from + " is not before to " + to);
      }
    }

    /**
     * The search looks at the archive (pruned terminal jobs) too; default: the hot table only.
     *
     * @return this builder
     */
    public Builder includeArchived() {
      this.includeArchived = true;
      return this;
    }

    /** {@return the filter} */
    public JobFilter build() {
      return new JobFilter(this);
    }
  }
}
