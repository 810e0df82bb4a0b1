package io.taskq;

import io.taskq.core.internal.JsonSyntax;
import io.taskq.postgres.internal.CallerText;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * One job to enqueue: the actor that runs it, its JSON payload and its options (L2).
 *
 * <p>Immutable; built by {@link #of} or {@link #builder}, whose every setter checks its argument at
 * once and fails with an {@link IllegalArgumentException} naming it, the bad value and the allowed
 * range. Caller-supplied text (actor, queue, payload, label keys and values, the unique identity
 * key) must not contain NUL (F6). The payload's size is checked against the client's limit at
 * enqueue, before anything reaches the database.
 *
 * <p>Times are relative to the database clock: {@link Builder#delay} and {@link
 * Builder#scheduleToClose} count from the moment the enqueue statement runs on the server; {@link
 * Builder#runAt} is an absolute instant. A job whose run time is not in the future is {@code
 * pending} at once; otherwise it is {@code scheduled}.
 */
public final class JobRequest {
  /** Longest actor or queue name, in characters. */
  public static final int MAX_NAME_CHARS = 128;

  /**
   * {@return {@code priority} as the {@code smallint} column stores it; a clear error when out of
   * range}
   *
   * @param priority the priority to check
   */
  public static short checkPriority(int priority) {
    if (priority < Short.MIN_VALUE || priority > Short.MAX_VALUE) {
      throw new IllegalArgumentException("priority must be in [-32768, 32767], was " + priority);
    }
    return (short) priority;
  }

  /** Longest unique identity key, in characters (it is indexed). */
  public static final int MAX_IDENTITY_KEY_CHARS = 256;

  /** Longest concurrency key, in characters. */
  public static final int MAX_CONCURRENCY_KEY_CHARS = 256;

  /** Longest label key, in characters. */
  public static final int MAX_LABEL_KEY_CHARS = 128;

  /** Longest label value, in characters. */
  public static final int MAX_LABEL_VALUE_CHARS = 1024;

  /** Longest delay, deadline or uniqueness window. */
  public static final Duration MAX_DURATION = Duration.ofDays(3650);

  /** The queue of a request that names none. */
  public static final String DEFAULT_QUEUE = "default";

  private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
  private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

  private final String actor;
  private final String queue;
  private final String payloadJson;
  private final long payloadBytes;
  private final short priority;
  private final @Nullable Instant runAt;
  private final @Nullable Duration delay;
  private final @Nullable Duration scheduleToClose;
  private final @Nullable Duration attemptTimeout;
  private final RetryPolicy retryPolicy;
  private final boolean retryPolicyNamed;
  private final boolean queueNamed;
  private final @Nullable Integer maxAttempts;
  private final Map<String, String> labels;
  private final @Nullable Duration uniqueWindow;
  private final @Nullable String uniqueKey;
  private final @Nullable String concurrencyKey;

  private JobRequest(Builder b) {
    this.actor = b.actor;
    this.queue = b.queue;
    this.payloadJson = b.payloadJson;
    this.payloadBytes = CallerText.utf8Length(b.payloadJson);
    this.priority = b.priority;
    this.runAt = b.runAt;
    this.delay = b.delay;
    this.scheduleToClose = b.scheduleToClose;
    this.attemptTimeout = b.attemptTimeout;
    this.retryPolicy =
        b.maxAttempts == null ? b.retryPolicy : b.retryPolicy.withMaxAttempts(b.maxAttempts);
    this.retryPolicyNamed = b.retryPolicyNamed;
    this.queueNamed = b.queueNamed;
    this.maxAttempts = b.maxAttempts;
    this.labels =
        b.labels.isEmpty() ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(b.labels));
    this.uniqueWindow = b.uniqueWindow;
    this.uniqueKey = b.uniqueKey;
    this.concurrencyKey = b.concurrencyKey;
  }

  /**
   * {@return a request for {@code actor} with {@code payloadJson} and every other option at its
   * default}
   *
   * @param actor the actor's name
   * @param payloadJson the payload, one JSON value
   */
  public static JobRequest of(String actor, String payloadJson) {
    return builder(actor).payloadJson(payloadJson).build();
  }

  /**
   * {@return a builder for a job of {@code actor}; the payload defaults to {@code {}}}
   *
   * @param actor the actor's name
   */
  public static Builder builder(String actor) {
    return new Builder(actor);
  }

  /** {@return a builder holding this request's values} */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** {@return the actor's name} */
  public String actor() {
    return actor;
  }

  /** {@return the queue, or {@code null} for the actor's own queue} */
  public String queue() {
    return queue;
  }

  /** {@return the payload's JSON text} */
  public String payloadJson() {
    return payloadJson;
  }

  /** {@return the payload's size in UTF-8 bytes, compared with the client's limit at enqueue} */
  public long payloadBytes() {
    return payloadBytes;
  }

  /** {@return the priority; lower runs first} */
  public short priority() {
    return priority;
  }

  /**
   * {@return the absolute run time, or {@code null} when the job runs after {@link #delay()} (or
   * now)}
   */
  public @Nullable Instant runAt() {
    return runAt;
  }

  /** {@return the delay after the enqueue on the database clock, or {@code null}} */
  public @Nullable Duration delay() {
    return delay;
  }

  /** {@return the schedule-to-close budget (sets {@code deadline_at}), or {@code null} for none} */
  public @Nullable Duration scheduleToClose() {
    return scheduleToClose;
  }

  /**
   * {@return the job's own per-attempt timeout (A6, {@code attempt_timeout_ms}), or {@code null}
   * for the actor's ({@code Actor.attemptTimeout()})}
   */
  public @Nullable Duration attemptTimeout() {
    return attemptTimeout;
  }

  /**
   * {@return the retry policy stamped into the job (L3), max attempts included} When the request
   * names none, this is {@link RetryPolicy#defaults()}, and {@link JobsClient} stamps the actor's
   * own policy instead if the actor has one ({@code Actor.retryPolicy()}).
   */
  public RetryPolicy retryPolicy() {
    return retryPolicy;
  }

  /** {@return whether the request names its retry policy ({@link Builder#retryPolicy})} */
  public boolean namesRetryPolicy() {
    return retryPolicyNamed;
  }

  /**
   * {@return whether the request names its queue ({@link Builder#queue}); else its actor's is used
   * (R5)}
   */
  public boolean namesQueue() {
    return queueNamed;
  }

  /**
   * This request on {@code actorQueue} when it names no queue (R5: the actor's declared queue);
   * else this request.
   */
  JobRequest withDefaultQueue(String actorQueue) {
    if (queueNamed || actorQueue.equals(queue)) {
      return this;
    }
    Builder b = new Builder(this);
    b.queue = actorQueue;
    return new JobRequest(b);
  }

  /**
   * This request with {@code policy} as its retry policy when it names none (the actor's policy), a
   * max attempts set on the request still applying; else this request.
   */
  JobRequest withDefaultRetryPolicy(RetryPolicy policy) {
    if (retryPolicyNamed) {
      return this;
    }
    Builder b = new Builder(this);
    b.retryPolicy = policy;
    return new JobRequest(b);
  }

  /** {@return the labels, sorted by key; stored as a JSON object of strings} */
  public Map<String, String> labels() {
    return labels;
  }

  /** {@return the {@code unique_for} window (L6), or {@code null} when the job is not unique} */
  public @Nullable Duration uniqueWindow() {
    return uniqueWindow;
  }

  /** {@return the {@code unique_for} identity key, or {@code null} when the job is not unique} */
  public @Nullable String uniqueKey() {
    return uniqueKey;
  }

  /**
   * {@return the key a keyed concurrency cap counts this job under (L7), or {@code null} for none;
   * see {@link Builder#concurrencyKey(String)}}
   */
  public @Nullable String concurrencyKey() {
    return concurrencyKey;
  }

  /** Says who and where, never the payload (it may hold personal data). */
  @Override
  public String toString() {
    return "JobRequest{actor="
        + actor
        + ", queue="
        + queue
        + ", payloadBytes="
        + payloadBytes
        + (uniqueKey == null ? "" : ", uniqueFor=" + uniqueWindow)
        + "}";
  }

  /** Builds a {@link JobRequest}; each setter validates its argument at once. */
  public static final class Builder {
    private final String actor;
    private String queue = DEFAULT_QUEUE;
    private String payloadJson = "{}";
    private short priority;
    private @Nullable Instant runAt;
    private @Nullable Duration delay;
    private @Nullable Duration scheduleToClose;
    private @Nullable Duration attemptTimeout;
    private RetryPolicy retryPolicy = RetryPolicy.defaults();
    private boolean retryPolicyNamed;
    private boolean queueNamed;
    private @Nullable Integer maxAttempts;
    private Map<String, String> labels = Map.of();
    private @Nullable Duration uniqueWindow;
    private @Nullable String uniqueKey;
    private @Nullable String concurrencyKey;

    private Builder(String actor) {
      this.actor =
          CallerText.requireName("actor", Objects.requireNonNull(actor, "actor"), MAX_NAME_CHARS);
    }

    private Builder(JobRequest r) {
      this.actor = r.actor;
      this.queue = r.queue;
      this.payloadJson = r.payloadJson;
      this.priority = r.priority;
      this.runAt = r.runAt;
      this.delay = r.delay;
      this.scheduleToClose = r.scheduleToClose;
      this.attemptTimeout = r.attemptTimeout;
      this.retryPolicy = r.retryPolicy;
      this.retryPolicyNamed = r.retryPolicyNamed;
      this.queueNamed = r.queueNamed;
      this.maxAttempts = r.maxAttempts;
      this.labels = r.labels;
      this.uniqueWindow = r.uniqueWindow;
      this.uniqueKey = r.uniqueKey;
      this.concurrencyKey = r.concurrencyKey;
    }

    /**
     * The payload, one JSON value; it must not be blank, contain NUL (raw or as {@code \u0000}) or
     * be invalid JSON. Its size is checked at enqueue against the client's limit. Default {@code
     * {}}.
     *
     * @param json the payload, one JSON value; it must not be blank, contain NUL (raw or as {@code
     *     \u0000}) or be invalid JSON
     * @return this builder
     */
    public Builder payloadJson(String json) {
      Objects.requireNonNull(json, "payloadJson");
      CallerText.requireNoNul("payload", json);
      if (json.isBlank()) {
        throw new IllegalArgumentException("payload must be a JSON value, was blank");
      }
      String problem = JsonSyntax.problem(json);
      if (problem != null) {
        throw new IllegalArgumentException("payload is not valid JSON: " + problem);
      }
      this.payloadJson = json;
      return this;
    }

    /**
     * The queue, 1 to 128 characters without NUL. Default: the queue the actor declares ({@code
     * Actor.queue()}) when the client knows the actor, else {@code default}.
     *
     * @param queue the queue, 1 to 128 characters without NUL
     * @return this builder
     */
    public Builder queue(String queue) {
      this.queue =
          CallerText.requireName("queue", Objects.requireNonNull(queue, "queue"), MAX_NAME_CHARS);
      this.queueNamed = true;
      return this;
    }

    /**
     * Lower runs first; -32768 to 32767. Default 0.
     *
     * @param priority the lower runs first; -32768 to 32767
     * @return this builder
     */
    public Builder priority(int priority) {
      this.priority = checkPriority(priority);
      return this;
    }

    /**
     * Runs the job at {@code instant} (years 1 to 9999); a past instant means now. Replaces any
     * {@link #delay}. Default: now.
     *
     * @param instant when the job runs
     * @return this builder
     */
    public Builder runAt(Instant instant) {
      Objects.requireNonNull(instant, "runAt");
      if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
        throw new IllegalArgumentException(
            "runAt must be between " + EARLIEST + " and " + LATEST + ", was " + instant);
      }
      this.runAt = instant;
      this.delay = null;
      return this;
    }

    /**
     * Runs the job {@code delay} after the enqueue, on the database clock; 0 to 3650 days. Replaces
     * any {@link #runAt}. Default: no delay.
     *
     * @param delay the delay after the enqueue
     * @return this builder
     */
    public Builder delay(Duration delay) {
      this.delay = checkDuration("delay", delay, Duration.ZERO);
      this.runAt = null;
      return this;
    }

    /**
     * The schedule-to-close budget from enqueue: past it the job fails with {@code
     * DeadlineExceeded} (S2); 1 ms to 3650 days. Default: none.
     *
     * @param budget the schedule-to-close budget from enqueue: past it the job fails with {@code
     *     DeadlineExceeded} (S2); 1 ms to 3650 days
     * @return this builder
     */
    public Builder scheduleToClose(Duration budget) {
      this.scheduleToClose = checkDuration("scheduleToClose", budget, Duration.ofMillis(1));
      return this;
    }

    /**
     * The job's own per-attempt timeout (A6), instead of its actor's ({@code
     * Actor.Builder.attemptTimeout}): an attempt still running after it has its handler interrupted
     * and fails with error class {@code AttemptTimeout}, its lease released at once, and the job
     * retries through its stamped policy. Default: the actor's (none unless the actor sets one).
     *
     * @param timeout from 1 ms to 365 days; kept to the millisecond
     * @return this builder
     * @throws IllegalArgumentException when {@code timeout} is out of range
     */
    public Builder attemptTimeout(Duration timeout) {
      this.attemptTimeout = Actor.checkAttemptTimeout("attemptTimeout", timeout);
      return this;
    }

    /**
     * The retry policy stamped into the job (L3). Default: the actor's policy when it has one
     * ({@code Actor.retryPolicy()}, applied by {@link JobsClient} for the actors it knows), else
     * {@link RetryPolicy#defaults()}.
     *
     * @param policy the retry policy stamped into the job (L3)
     * @return this builder
     */
    public Builder retryPolicy(RetryPolicy policy) {
      this.retryPolicy = Objects.requireNonNull(policy, "retryPolicy");
      this.retryPolicyNamed = true;
      return this;
    }

    /**
     * Attempts in all, the first run included, 1 to 1 000 000; overrides the retry policy's bound
     * whichever is set first. Default: the policy's.
     *
     * @param attempts the attempts in all, the first run included, 1 to 1 000 000; overrides the
     *     retry policy's bound whichever is set first
     * @return this builder
     */
    public Builder maxAttempts(int attempts) {
      if (attempts < 1 || attempts > 1_000_000) {
        throw new IllegalArgumentException("maxAttempts must be in [1, 1000000], was " + attempts);
      }
      this.maxAttempts = attempts;
      return this;
    }

    /**
     * Labels stored with the job as a JSON object of strings: keys 1 to 128 characters, values up
     * to 1024, no NUL in either. Replaces earlier labels. Default: none.
     *
     * @param labels the labels, by key
     * @return this builder
     */
    public Builder labels(Map<String, String> labels) {
      Objects.requireNonNull(labels, "labels");
      Map<String, String> copy = new TreeMap<>();
      for (Map.Entry<String, String> e : labels.entrySet()) {
        String key = Objects.requireNonNull(e.getKey(), "label key");
        String value = Objects.requireNonNull(e.getValue(), "value of label '" + key + "'");
        CallerText.requireName("label key", key, MAX_LABEL_KEY_CHARS);
        CallerText.requireNoNul("value of label '" + key + "'", value);
        if (value.length() > MAX_LABEL_VALUE_CHARS) {
          throw new IllegalArgumentException(
              "value of label '"
                  + key
                  + "' must be at most "
                  + MAX_LABEL_VALUE_CHARS
                  + " characters, was "
                  + value.length());
        }
        copy.put(key, value);
      }
      this.labels = copy;
      return this;
    }

    /**
     * Makes the enqueue single-flight (L6): while a job of this actor with {@code identityKey} was
     * enqueued less than {@code window} ago and is not cancelled, enqueueing again returns that
     * job's id instead of a new job. Window 1 ms to 3650 days; key 1 to 256 characters, no NUL.
     *
     * @param window how long the identity holds after an enqueue
     * @param identityKey the identity that makes two enqueues the same job
     * @return this builder
     */
    public Builder uniqueFor(Duration window, String identityKey) {
      Duration checked = checkDuration("uniqueFor window", window, Duration.ofMillis(1));
      this.uniqueKey =
          CallerText.requireName(
              "unique identity key",
              Objects.requireNonNull(identityKey, "identityKey"),
              MAX_IDENTITY_KEY_CHARS);
      this.uniqueWindow = checked;
      return this;
    }

    /**
     * Counts the job under {@code key} for its actor's keyed concurrency cap (L7): while the actor
     * declares {@code maxConcurrencyPerKey(n)}, at most n of its jobs with the same key run at once
     * across the cluster, e.g. {@code concurrencyKey("customer-42")}. Jobs of an actor without a
     * keyed cap ignore the key. Key 1 to 256 characters without NUL. Default: none.
     *
     * @param key the counts the job under {@code key} for its actor's keyed concurrency cap (L7):
     *     while the actor declares {@code maxConcurrencyPerKey(n)}, at most n of its jobs with the
     *     same key run at once across the cluster, e.g. {@code concurrencyKey("customer-42")}
     * @return this builder
     */
    public Builder concurrencyKey(String key) {
      this.concurrencyKey =
          CallerText.requireName(
              "concurrency key", Objects.requireNonNull(key, "key"), MAX_CONCURRENCY_KEY_CHARS);
      return this;
    }

    /** {@return the request} */
    public JobRequest build() {
      return new JobRequest(this);
    }

    private static Duration checkDuration(String name, Duration value, Duration min) {
      Objects.requireNonNull(value, name);
      if (value.compareTo(min) < 0 || value.compareTo(MAX_DURATION) > 0) {
        throw new IllegalArgumentException(
            name + " must be in [" + min + ", " + MAX_DURATION + "], was " + value);
      }
      return value;
    }
  }
}
