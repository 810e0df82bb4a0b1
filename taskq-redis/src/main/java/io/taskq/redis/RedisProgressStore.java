package io.taskq.redis;

import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.taskq.core.internal.JsonStrings;
import io.taskq.core.internal.RedisKeys;
import io.taskq.progress.Progress;
import io.taskq.progress.ProgressStore;
import io.taskq.progress.ProgressSubscription;
import io.taskq.progress.ProgressUnavailableException;
import io.taskq.redis.internal.LuaScript;
import io.taskq.redis.internal.ProgressPayload;
import io.taskq.redis.internal.RedisFailures;
import io.taskq.redis.internal.RedisLink;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Job progress in Redis (M5): each job's latest report in a hash at {@code
 * taskq:{schema}:progress:{job_id}} with a TTL, and every report published on the schema's channel
 * {@code taskq:{schema}:progress}. A report is one {@code EVALSHA} (store and publish together, on
 * the server's clock).
 *
 * <p>Subscriptions share one pub/sub connection of their own (D13), opened on the first subscribe;
 * the channel carries every job of the schema and each listener sees the jobs it asked for. Pub/sub
 * is a hint: a client that must see the final state also polls {@link #latest(long)}. Listeners run
 * one at a time on the store's listener thread, never on Redis's I/O thread, so they may call
 * {@link #latest(long)}.
 *
 * <p>Redis unavailable: {@link #report} hands the report to the fallback store when there is one
 * (the PostgreSQL progress, say), else drops it and counts it ({@link #droppedReports()}); a report
 * never fails a job. {@link #latest} and the subscribe methods ask the fallback, or throw {@link
 * ProgressUnavailableException}.
 */
public final class RedisProgressStore implements ProgressStore, AutoCloseable {
  /** How long a job's latest report stays in Redis after it was written, unless set otherwise. */
  public static final Duration DEFAULT_TTL = Duration.ofHours(24);

  private static final Logger log = LoggerFactory.getLogger(RedisProgressStore.class);
  private static final LuaScript SCRIPT = LuaScript.fromResource("progress.lua");

  private final RedisLink link;
  private final RedisKeys keys;
  private final Duration ttl;
  private final @Nullable ProgressStore fallback;
  private final ExecutorService listenerThread;
  private final List<ProgressListener> listeners = new CopyOnWriteArrayList<>();
  private final AtomicLong dropped = new AtomicLong();
  private @Nullable StatefulRedisPubSubConnection<String, String> pubSub;

  private RedisProgressStore(Builder builder) {
    this.link = builder.connector.link();
    this.keys = builder.connector.keys();
    this.ttl = builder.ttl;
    this.fallback = builder.fallback;
    this.listenerThread =
        Executors.newSingleThreadExecutor(
            task -> {
              Thread thread = new Thread(task, "taskq-progress-" + keys.schema().value());
              thread.setDaemon(true);
              return thread;
            });
  }

  /**
   * A builder of a store on {@code connector}'s Redis and schema.
   *
   * @param connector the Redis connection and schema the store writes to
   * @return a builder with the defaults its setters state
   */
  public static Builder builder(RedisConnector connector) {
    return new Builder(connector);
  }

  @Override
  public void report(long jobId, double fraction, String message, @Nullable String detailJson) {
    requireJobId(jobId);
    Progress.validate(fraction, message, detailJson);
    try {
      SCRIPT.value(
          link.commands(),
          keys.progress(jobId),
          keys.progressChannel(),
          Long.toString(jobId),
          Double.toString(fraction),
          message,
          JsonStrings.of(message),
          detailJson == null ? "" : detailJson,
          Long.toString(Math.max(1, ttl.toMillis())));
    } catch (RuntimeException failure) {
      onReportFailure(failure, jobId, fraction, message, detailJson);
      return;
    }
    link.markAvailable();
  }

  private void onReportFailure(
      RuntimeException failure,
      long jobId,
      double fraction,
      String message,
      @Nullable String detailJson) {
    if (!RedisFailures.isUnavailable(failure)) {
      throw failure;
    }
    ProgressStore to = fallback;
    if (to == null) {
      link.markUnavailable(failure, "progress reports are dropped until it answers");
      dropped.incrementAndGet();
      return;
    }
    link.markUnavailable(failure, "progress goes to " + to);
    to.report(jobId, fraction, message, detailJson);
  }

  @Override
  public Optional<Progress> latest(long jobId) {
    requireJobId(jobId);
    Map<String, String> hash;
    try {
      hash = link.commands().hgetall(keys.progress(jobId));
    } catch (RuntimeException failure) {
      return unavailable(failure, "the latest progress of job " + jobId, s -> s.latest(jobId));
    }
    link.markAvailable();
    return Optional.ofNullable(ProgressPayload.fromHash(jobId, hash));
  }

  @Override
  public ProgressSubscription subscribe(long jobId, Consumer<Progress> listener) {
    requireJobId(jobId);
    return listen(new ProgressListener(jobId, listener), s -> s.subscribe(jobId, listener));
  }

  @Override
  public ProgressSubscription subscribeAll(Consumer<Progress> listener) {
    return listen(new ProgressListener(null, listener), s -> s.subscribeAll(listener));
  }

  private ProgressSubscription listen(
      ProgressListener listener, Function<ProgressStore, ProgressSubscription> viaFallback) {
    try {
      ensureSubscribed();
    } catch (RuntimeException failure) {
      return unavailable(failure, "a progress subscription", viaFallback);
    }
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  private synchronized void ensureSubscribed() {
    if (pubSub != null) {
      return;
    }
    StatefulRedisPubSubConnection<String, String> connection = link.connectPubSub();
    try {
      connection.addListener(
          new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
              dispatch(message);
            }
          });
      connection.sync().subscribe(keys.progressChannel());
    } catch (RuntimeException e) {
      connection.close();
      throw e;
    }
    pubSub = connection;
  }

  private void dispatch(String payload) {
    Progress progress = ProgressPayload.decode(payload);
    if (progress == null) {
      log.debug("ignoring a message on {} that is not a TaskQ progress report", keys.schema());
      return;
    }
    try {
      listenerThread.execute(() -> listeners.forEach(listener -> listener.offer(progress)));
    } catch (RejectedExecutionException closing) {
      log.debug(
          "progress store closed; a last report for job {} is not delivered", progress.jobId());
    }
  }

  private <T> T unavailable(
      RuntimeException failure, String what, Function<ProgressStore, T> viaFallback) {
    if (!RedisFailures.isUnavailable(failure)) {
      throw failure;
    }
    ProgressStore to = fallback;
    link.markUnavailable(failure, to == null ? "progress is unavailable" : "progress uses " + to);
    if (to == null) {
      throw new ProgressUnavailableException(
          what + ": Redis at " + link.maskedUrl() + " is unavailable", failure);
    }
    return viaFallback.apply(to);
  }

  /** {@return reports dropped because Redis was unavailable and there was no fallback} */
  public long droppedReports() {
    return dropped.get();
  }

  /** {@return how long a job's latest report stays in Redis} */
  public Duration ttl() {
    return ttl;
  }

  /** Closes the pub/sub connection and the listener thread; the connector stays open. */
  @Override
  public void close() {
    StatefulRedisPubSubConnection<String, String> connection;
    synchronized (this) {
      connection = pubSub;
      pubSub = null;
    }
    listeners.clear();
    if (connection != null) {
      connection.close();
    }
    listenerThread.shutdown();
  }

  private static void requireJobId(long jobId) {
    if (jobId < 1) {
      throw new IllegalArgumentException("job id must be positive, was " + jobId);
    }
  }

  @Override
  public String toString() {
    return "RedisProgressStore{" + keys.progressChannel() + ", ttl=" + ttl + "}";
  }

  /** Builds a {@link RedisProgressStore}; every option has a default. */
  public static final class Builder {
    private final RedisConnector connector;
    private Duration ttl = DEFAULT_TTL;
    private @Nullable ProgressStore fallback;

    private Builder(RedisConnector connector) {
      this.connector = Objects.requireNonNull(connector, "connector");
    }

    /**
     * How long a job's latest report stays in Redis after it was written.
     *
     * <p>Default: 24h. Range: 1 ms..366 days.
     *
     * @param ttl the time to live of each report
     * @return this builder
     */
    public Builder ttl(Duration ttl) {
      Objects.requireNonNull(ttl, "ttl");
      if (ttl.toMillis() < 1 || ttl.compareTo(Duration.ofDays(366)) > 0) {
        throw new IllegalArgumentException("progress ttl must be in 1ms..366 days, was " + ttl);
      }
      this.ttl = ttl;
      return this;
    }

    /**
     * Where progress goes while Redis is unavailable, typically the PostgreSQL progress store.
     *
     * <p>Default: none (reports are dropped and counted; reads throw).
     *
     * @param fallback the store that takes reports and reads while Redis is unavailable
     * @return this builder
     */
    public Builder fallback(ProgressStore fallback) {
      this.fallback = Objects.requireNonNull(fallback, "fallback");
      return this;
    }

    /** {@return a store with this builder's settings} */
    public RedisProgressStore build() {
      return new RedisProgressStore(this);
    }
  }
}
