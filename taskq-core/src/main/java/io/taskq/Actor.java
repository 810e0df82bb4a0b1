package io.taskq;

import io.taskq.core.internal.RedisKeys;
import io.taskq.core.internal.TextBoundary;
import io.taskq.limits.RateLimit;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A named kind of job and the handler that runs it: what an application registers with a worker.
 *
 * <p>Jobs are enqueued for an actor by name; a worker claims only jobs of the actors registered
 * with it, on the queues it serves. The actor's queue is where its jobs go unless an enqueue names
 * another; its retry policy, when set, is the default an enqueue stamps on the job when the request
 * names none (the job then keeps that policy for life, L3).
 *
 * <pre>{@code
 * Actor<String> sendEmail = Actor.builder("send-email", PayloadCodec.rawJson(), (json, ctx) -> {
 *       mailer.send(json);
 *       return null;
 *     })
 *     .queue("mail")
 *     .build();
 * }</pre>
 *
 * <p><b>Concurrency caps (L7).</b> {@link Builder#maxConcurrency(int)} caps the actor's running
 * jobs across the whole cluster; {@link Builder#maxConcurrencyPerKey(int)} caps the running jobs
 * that share a concurrency key (given at enqueue, e.g. a customer id). Both are enforced in
 * PostgreSQL when a worker claims a job: a job that would exceed a cap stays pending, without using
 * up an attempt, until a slot frees ({@code docs/concurrency-limits.md}).
 *
 * @param <T> the payload type the handler receives
 */
public final class Actor<T> {
  /** Longest actor or queue name, in characters. */
  public static final int MAX_NAME_LENGTH = 128;

  /** The queue an actor's jobs go to unless configured otherwise. */
  public static final String DEFAULT_QUEUE = "default";

  /** Largest concurrency cap: a cap is enforced by as many slot rows in the database. */
  public static final int MAX_CONCURRENCY_CAP = 10_000;

  /** Longest per-attempt timeout ({@link Builder#attemptTimeout(Duration)}). */
  public static final Duration MAX_ATTEMPT_TIMEOUT = Duration.ofDays(365);

  /**
   * The snoozes a job of an actor may take without using up an attempt unless {@link
   * Builder#maxSnoozes(int)} says otherwise (A5): the next snooze counts as an attempt.
   */
  public static final int DEFAULT_MAX_SNOOZES = 25;

  /** Largest {@link Builder#maxSnoozes(int)}. */
  public static final int MAX_SNOOZES = 100_000;

  private final String name;
  private final String queue;
  private final PayloadCodec<T> codec;
  private final JobHandler<T> handler;
  private final @Nullable RetryPolicy retryPolicy;
  private final @Nullable ActorRateLimit rateLimit;
  private final @Nullable Function<T, String> rateLimitKey;
  private final int maxConcurrency;
  private final int maxConcurrencyPerKey;
  private final List<JobInterceptor> interceptors;
  private final @Nullable Duration attemptTimeout;
  private final int maxSnoozes;

  private Actor(Builder<T> builder) {
    this.name = builder.name;
    this.queue = builder.queue;
    this.codec = builder.codec;
    this.handler = builder.handler;
    this.retryPolicy = builder.retryPolicy;
    this.rateLimit = builder.rateLimit;
    this.rateLimitKey = builder.rateLimitKey;
    this.maxConcurrency = builder.maxConcurrency;
    this.maxConcurrencyPerKey = builder.maxConcurrencyPerKey;
    this.interceptors = List.copyOf(builder.interceptors);
    this.attemptTimeout = builder.attemptTimeout;
    this.maxSnoozes = builder.maxSnoozes;
  }

  /** A copy of {@code actor} whose interceptors are {@code outer}, then the actor's own. */
  private Actor(Actor<T> actor, List<JobInterceptor> outer) {
    this.name = actor.name;
    this.queue = actor.queue;
    this.codec = actor.codec;
    this.handler = actor.handler;
    this.retryPolicy = actor.retryPolicy;
    this.rateLimit = actor.rateLimit;
    this.rateLimitKey = actor.rateLimitKey;
    this.maxConcurrency = actor.maxConcurrency;
    this.maxConcurrencyPerKey = actor.maxConcurrencyPerKey;
    this.attemptTimeout = actor.attemptTimeout;
    this.maxSnoozes = actor.maxSnoozes;
    List<JobInterceptor> all = new ArrayList<>(outer);
    all.addAll(actor.interceptors);
    this.interceptors = List.copyOf(all);
  }

  /**
   * Starts an actor.
   *
   * @param <T> the payload type
   * @param codec decodes the payload and encodes the result
   * @param handler runs one attempt of a job
   * @return a builder of the actor
   * @param name the actor's name: 1 to 128 characters, no control characters, no surrounding spaces
   * @throws IllegalArgumentException naming the problem with {@code name}
   */
  public static <T> Builder<T> builder(String name, PayloadCodec<T> codec, JobHandler<T> handler) {
    return new Builder<>(name, codec, handler);
  }

  /**
   * {@return an actor on the default queue whose handler receives the payload's JSON text}
   *
   * @param name the actor's name
   * @param handler the handler, given the payload's JSON text
   */
  public static Actor<String> rawJson(String name, JobHandler<String> handler) {
    return builder(name, PayloadCodec.rawJson(), handler).build();
  }

  /**
   * Checks an actor or queue name.
   *
   * @param value the name to check
   * @return {@code value}, when valid
   * @param what what the name names, for the message ("actor name", "queue")
   * @throws IllegalArgumentException naming {@code what}, the value and the rule it breaks
   */
  public static String checkName(String what, String value) {
    Objects.requireNonNull(value, what);
    String problem = nameProblem(value);
    if (problem != null) {
      throw new IllegalArgumentException(what + " '" + printable(value) + "' " + problem);
    }
    return value;
  }

  private static @Nullable String nameProblem(String value) {
    if (value.isEmpty() || value.length() > MAX_NAME_LENGTH) {
      return "must be 1 to " + MAX_NAME_LENGTH + " characters long, was " + value.length();
    }
    if (!value.strip().equals(value)) {
      return "must not start or end with white space";
    }
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i))) {
        return String.format(
            Locale.ROOT,
            "must not contain control character U+%04X (at index %d)",
            (int) value.charAt(i),
            i);
      }
    }
    return null;
  }

  private static String printable(String value) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < value.length() && i < 80; i++) {
      char c = value.charAt(i);
      out.append(Character.isISOControl(c) ? String.format(Locale.ROOT, "\\u%04x", (int) c) : c);
    }
    return value.length() > 80 ? out + "..." : out.toString();
  }

  /** {@return the actor's name, as jobs name it} */
  public String name() {
    return name;
  }

  /** {@return the queue the actor's jobs go to unless an enqueue names another} */
  public String queue() {
    return queue;
  }

  /**
   * Decodes payloads and encodes results.
   *
   * @return the actor's codec
   */
  public PayloadCodec<T> codec() {
    return codec;
  }

  /**
   * Runs one attempt of a job.
   *
   * @return the actor's handler
   */
  public JobHandler<T> handler() {
    return handler;
  }

  /**
   * {@return the interceptors around each attempt of this actor's jobs, outermost first (see {@link
   * JobInterceptor} for the contract); empty for none}
   */
  public List<JobInterceptor> interceptors() {
    return interceptors;
  }

  /**
   * {@return this actor with {@code outer} around its own interceptors: how a TaskQ applies the
   * interceptors registered for all its actors} Returns this actor when {@code outer} is empty.
   *
   * @param outer the interceptors to put around this actor's own, outermost first
   */
  public Actor<T> withOuterInterceptors(List<JobInterceptor> outer) {
    return outer.isEmpty() ? this : new Actor<>(this, outer);
  }

  /**
   * {@return the retry policy an enqueue stamps when it names none; empty for the deployment
   * default}
   */
  public Optional<RetryPolicy> retryPolicy() {
    return Optional.ofNullable(retryPolicy);
  }

  /**
   * {@return how long one attempt of this actor's jobs may run before the worker interrupts its
   * handler and fails the attempt with error class {@code AttemptTimeout} (A6); empty for no
   * timeout} A job enqueued with its own attempt timeout uses that one instead.
   */
  public Optional<Duration> attemptTimeout() {
    return Optional.ofNullable(attemptTimeout);
  }

  /**
   * {@return how many times a job of this actor may snooze ({@link SnoozeException}) without using
   * up an attempt (A5); each snooze past it counts as an attempt}
   */
  public int maxSnoozes() {
    return maxSnoozes;
  }

  /**
   * Checks a per-attempt timeout.
   *
   * @param timeout the timeout to check
   * @return {@code timeout}, when in range
   * @param what what the timeout is of, for the message
   * @throws IllegalArgumentException naming {@code what} and the allowed range
   */
  public static Duration checkAttemptTimeout(String what, Duration timeout) {
    Objects.requireNonNull(timeout, what);
    if (timeout.compareTo(Duration.ofMillis(1)) < 0 || timeout.compareTo(MAX_ATTEMPT_TIMEOUT) > 0) {
      throw new IllegalArgumentException(
          what + " must be from 1 ms to " + MAX_ATTEMPT_TIMEOUT.toDays() + " days, was " + timeout);
    }
    return timeout.truncatedTo(ChronoUnit.MILLIS);
  }

  /** {@return the cluster-wide cap on this actor's running jobs; empty when uncapped} */
  public OptionalInt maxConcurrency() {
    return maxConcurrency == 0 ? OptionalInt.empty() : OptionalInt.of(maxConcurrency);
  }

  /**
   * {@return the cluster-wide cap on this actor's running jobs that share one concurrency key;
   * empty when keys cap nothing for this actor}
   */
  public OptionalInt maxConcurrencyPerKey() {
    return maxConcurrencyPerKey == 0 ? OptionalInt.empty() : OptionalInt.of(maxConcurrencyPerKey);
  }

  /**
   * Checks a concurrency cap.
   *
   * @param cap the cap to check
   * @return {@code cap}, when in range
   * @param what what the cap caps, for the message
   * @throws IllegalArgumentException naming {@code what} and the allowed range
   */
  public static int checkCap(String what, int cap) {
    if (cap < 1 || cap > MAX_CONCURRENCY_CAP) {
      throw new IllegalArgumentException(
          what + " must be in [1, " + MAX_CONCURRENCY_CAP + "], was " + cap);
    }
    return cap;
  }

  /**
   * {@return the rate limit the worker applies before running each of the actor's jobs; empty for
   * none} See {@link Builder#rateLimit(String, RateLimit)}.
   */
  public Optional<ActorRateLimit> rateLimit() {
    return Optional.ofNullable(rateLimit);
  }

  /**
   * {@return the name of the limit a job with {@code payload} takes its permit from: the limit's
   * name, or for a keyed limit {@code {name}:{key}} with the key the actor derives from the
   * payload}
   *
   * @param payload the job's decoded payload
   * @throws IllegalStateException when the actor declares no rate limit
   * @throws IllegalArgumentException when the derived key is empty or carries a NUL
   */
  public String rateLimitName(T payload) {
    ActorRateLimit limit = rateLimit;
    if (limit == null) {
      throw new IllegalStateException("actor '" + name + "' declares no rate limit");
    }
    Function<T, String> key = rateLimitKey;
    if (key == null) {
      return limit.name();
    }
    String derived = Objects.requireNonNull(key.apply(payload), "rate limit key");
    if (derived.isEmpty()) {
      throw new IllegalArgumentException(
          "actor '" + name + "' derived an empty rate limit key from a payload");
    }
    return TextBoundary.requireNoNul(limit.name() + ":" + derived, "rate limit key");
  }

  @Override
  public String toString() {
    return "Actor{" + name + ", queue=" + queue + ", codec=" + codec + "}";
  }

  /**
   * An actor's rate limit: the limit named {@code name} (shared by every actor and process that
   * names it, within one schema), of shape {@code limit}.
   *
   * @param name the limit's name in its store, e.g. {@code partner-api}
   * @param limit the algorithm and its budget
   * @param keyed whether each job takes its permit from {@code {name}:{key}}, a limit of its own
   *     per key derived from the payload (one per customer, say), rather than from {@code name}
   */
  public record ActorRateLimit(String name, RateLimit limit, boolean keyed) {
    /**
     * Validates the name (F6, M7).
     *
     * @param keyed whether each job takes its permit from {@code {name}:{key}}, a limit of its own
     *     per key derived from the payload (one per customer, say), rather than from {@code name}
     * @param limit the algorithm and its budget
     * @param name the limit's name in its store, e.g. {@code partner-api}
     */
    public ActorRateLimit {
      Objects.requireNonNull(name, "rate limit name");
      Objects.requireNonNull(limit, "rate limit");
      if (name.isEmpty()) {
        throw new IllegalArgumentException("rate limit name must not be empty");
      }
      TextBoundary.requireNoNul(name, "rate limit name");
      RedisKeys.requireStoreBound(name);
    }
  }

  /**
   * Builds an {@link Actor}; each setter checks its argument at once.
   *
   * @param <T> the payload type
   */
  public static final class Builder<T> {
    private final String name;
    private final PayloadCodec<T> codec;
    private final JobHandler<T> handler;
    private String queue = DEFAULT_QUEUE;
    private @Nullable RetryPolicy retryPolicy;
    private @Nullable ActorRateLimit rateLimit;
    private @Nullable Function<T, String> rateLimitKey;
    private int maxConcurrency;
    private int maxConcurrencyPerKey;
    private final List<JobInterceptor> interceptors = new ArrayList<>();
    private @Nullable Duration attemptTimeout;
    private int maxSnoozes = DEFAULT_MAX_SNOOZES;

    private Builder(String name, PayloadCodec<T> codec, JobHandler<T> handler) {
      this.name = checkName("actor name", name);
      this.codec = Objects.requireNonNull(codec, "codec");
      this.handler = Objects.requireNonNull(handler, "handler");
    }

    /**
     * The queue the actor's jobs go to; default {@code default}.
     *
     * @param queue the queue the actor's jobs go to; default {@code default}
     * @return this builder
     * @throws IllegalArgumentException for an empty or over-long name, or one with control
     *     characters or surrounding spaces
     */
    public Builder<T> queue(String queue) {
      this.queue = checkName("queue", queue);
      return this;
    }

    /**
     * The retry policy stamped on the actor's jobs when an enqueue names none.
     *
     * @param policy the retry policy stamped on the actor's jobs when an enqueue names none
     * @return this builder
     */
    public Builder<T> retryPolicy(RetryPolicy policy) {
      this.retryPolicy = Objects.requireNonNull(policy, "retryPolicy");
      return this;
    }

    /**
     * Limits how often the actor's jobs run (M5): before running a claimed job the worker takes one
     * permit of the limit named {@code name}; when refused, the job goes back to the queue due
     * after the limiter's retry-after, without using up an attempt. Every process whose actors name
     * the same limit shares its budget. The worker's rate-limit store decides (Redis when
     * configured, else the PostgreSQL sliding window; see {@code docs/rate-limits.md}).
     *
     * @param name the limit's name, shared by every actor and process that names it
     * @param limit the limit; every actor naming {@code name} must give an equal one
     * @return this builder
     * @throws IllegalArgumentException when {@code name} is empty, carries a NUL, or is
     *     process-local ({@code taskq:global:queue:})
     */
    public Builder<T> rateLimit(String name, RateLimit limit) {
      this.rateLimit = new ActorRateLimit(name, limit, false);
      this.rateLimitKey = null;
      return this;
    }

    /**
     * A keyed rate limit: like {@link #rateLimit(String, RateLimit)}, but each job takes its permit
     * from the limit {@code {name}:{key}}, {@code key} derived from its payload ("at most 10 calls
     * a minute per customer"). Each key has its own budget of {@code limit}; the worker keeps the
     * keys it used in a registry capped by {@code max_keyed_rate_limits} (S10) and the PostgreSQL
     * rows of idle keys are reclaimed (S9).
     *
     * @param name the limit's name; each key's limit is {@code {name}:{key}}
     * @param limit each key's limit
     * @return this builder
     * @param key derives the key from a payload; must return a non-empty string without NUL
     */
    public Builder<T> rateLimit(String name, RateLimit limit, Function<T, String> key) {
      this.rateLimit = new ActorRateLimit(name, limit, true);
      this.rateLimitKey = Objects.requireNonNull(key, "key");
      return this;
    }

    /**
     * At most {@code cap} jobs of this actor run at once across every worker of the schema (L7).
     * Default: uncapped.
     *
     * @param cap at most {@code cap} jobs of this actor run at once across every worker of the
     *     schema (L7)
     * @return this builder
     * @throws IllegalArgumentException unless {@code cap} is in 1..10 000
     */
    public Builder<T> maxConcurrency(int cap) {
      this.maxConcurrency = checkCap("maxConcurrency of actor '" + name + "'", cap);
      return this;
    }

    /**
     * At most {@code cap} jobs of this actor that share a concurrency key run at once across every
     * worker of the schema (L7); the key is given at enqueue. Jobs enqueued without a key are not
     * counted. Default: keys cap nothing.
     *
     * @param cap at most {@code cap} jobs of this actor that share a concurrency key run at once
     *     across every worker of the schema (L7); the key is given at enqueue
     * @return this builder
     * @throws IllegalArgumentException unless {@code cap} is in 1..10 000
     */
    public Builder<T> maxConcurrencyPerKey(int cap) {
      this.maxConcurrencyPerKey = checkCap("maxConcurrencyPerKey of actor '" + name + "'", cap);
      return this;
    }

    /**
     * Bounds each attempt of the actor's jobs (A6): an attempt still running after {@code timeout}
     * has its handler's thread interrupted and fails at once with error class {@code
     * AttemptTimeout}; its lease is released with the failure, and the job retries through its
     * stamped retry policy like after any failure (or fails for good when no attempt is left). A
     * job enqueued with its own attempt timeout ({@code JobRequest.Builder.attemptTimeout}) uses
     * that one instead. Default: no timeout. See {@code docs/workers.md} for a handler that ignores
     * the interrupt.
     *
     * @param timeout from 1 ms to 365 days; kept to the millisecond
     * @return this builder
     * @throws IllegalArgumentException when {@code timeout} is out of range
     */
    public Builder<T> attemptTimeout(Duration timeout) {
      this.attemptTimeout = checkAttemptTimeout("attemptTimeout of actor '" + name + "'", timeout);
      return this;
    }

    /**
     * How many times one job of this actor may snooze ({@link SnoozeException}) without using up an
     * attempt (A5); every later snooze of the job counts as an attempt, as a failure would (so a
     * job that snoozes without end still ends, after its attempts). Default {@value
     * #DEFAULT_MAX_SNOOZES}; {@code 0} makes every snooze count as an attempt.
     *
     * @param max from 0 to {@value #MAX_SNOOZES}
     * @return this builder
     * @throws IllegalArgumentException when {@code max} is out of range
     */
    public Builder<T> maxSnoozes(int max) {
      if (max < 0 || max > MAX_SNOOZES) {
        throw new IllegalArgumentException(
            "maxSnoozes of actor '" + name + "' must be in [0, " + MAX_SNOOZES + "], was " + max);
      }
      this.maxSnoozes = max;
      return this;
    }

    /**
     * Adds an interceptor around each attempt of this actor's jobs (P6), inside the TaskQ's own
     * interceptors and after the ones added before it; {@link JobInterceptor} states the contract.
     *
     * @param interceptor the interceptor to add
     * @return this builder
     */
    public Builder<T> intercept(JobInterceptor interceptor) {
      interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
      return this;
    }

    /** {@return the actor} */
    public Actor<T> build() {
      return new Actor<>(this);
    }
  }
}
