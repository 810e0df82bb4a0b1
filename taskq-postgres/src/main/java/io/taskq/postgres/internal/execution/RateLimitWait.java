package io.taskq.postgres.internal.execution;

import io.taskq.Actor;
import io.taskq.SchemaName;
import io.taskq.limits.Decision;
import io.taskq.limits.RateLimitRegistry;
import io.taskq.limits.RateLimiter;
import io.taskq.postgres.internal.FencedWrites;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.SqlErrors;
import io.taskq.spi.JobListener;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dispatcher side of rate limits (M5): before a rate-limited actor's claimed job runs, take one
 * permit of its limit; when refused, hand the job back to wait.
 *
 * <p>Called on the handler's thread, so a slow limiter (a Redis timeout, a PostgreSQL round trip)
 * never stalls claiming. A refused job goes back to {@code pending}, due after the decision's
 * retry-after, its attempt given back (the handler never ran), in one statement fenced on the
 * attempt's lease token (D9). The wait writes no {@code job_events} row (R6: under a sustained
 * limit a row per refusal grows without bound, as a row per promotion would); it is counted by the
 * job listener's {@code jobRateLimited} ({@code taskq.jobs.rate_limited}). A limiter that throws
 * (its store and its fallback both failing) makes the job wait {@link #ON_LIMITER_FAILURE}: the
 * limit is never silently skipped and the job is never lost. A payload the actor cannot decode (for
 * a keyed limit) runs at once, so the handler fails it the normal way.
 *
 * <p>Keyed limits ({@code {name}:{key}}) pass through the worker's {@link RateLimitRegistry} (S10);
 * {@link #evictIdle()} evicts idle keys and hands them to the reclaim drain.
 */
public final class RateLimitWait {
  /** How long a job waits when its limiter could not decide at all. */
  public static final Duration ON_LIMITER_FAILURE = Duration.ofSeconds(1);

  private static final Logger LOG = LoggerFactory.getLogger(RateLimitWait.class);
  private static final RateLimiter TOUCH = (name, permits) -> Decision.allowed(0);

  private final DataSource dataSource;
  private final String deferSql;
  private final String workerId;
  private final Map<String, RateLimiter> limiterByActor;
  private final RateLimitRegistry keys;
  private final Consumer<List<String>> reclaim;
  private final InFlight inFlight;
  private final FencedWrites fenced;
  private final JobListener listener;
  private final LongConsumer dueIn;

  /**
   * @param limiterByActor the limiter of every rate-limited actor, by actor name
   * @param maxKeyed {@code max_keyed_rate_limits}: the most keys the registry holds
   * @param idleAfter how long a key stays registered unused
   * @param reclaim the drain of evicted keys (deletes their PostgreSQL rows where idle)
   * @param listener told of each job handed back to wait ({@code jobRateLimited}); guarded
   * @param dueIn told, in milliseconds, when a job handed back to wait falls due, so the dispatcher
   *     claims it on time even with a long poll interval
   */
  public RateLimitWait(
      DataSource dataSource,
      SchemaName schema,
      String workerId,
      Map<String, RateLimiter> limiterByActor,
      int maxKeyed,
      Duration idleAfter,
      Consumer<List<String>> reclaim,
      InFlight inFlight,
      FencedWrites fenced,
      JobListener listener,
      LongConsumer dueIn) {
    this.dataSource = dataSource;
    this.deferSql = NamedStatements.load("io/taskq/postgres/sql/defer.sql", schema).get("defer");
    this.workerId = workerId;
    this.limiterByActor = Map.copyOf(limiterByActor);
    this.keys = RateLimitRegistry.create(maxKeyed, idleAfter, InstantSource.system(), n -> TOUCH);
    this.reclaim = reclaim;
    this.inFlight = inFlight;
    this.fenced = fenced;
    this.listener = listener;
    this.dueIn = dueIn;
  }

  /** Whether any actor is rate-limited. */
  public boolean isEmpty() {
    return limiterByActor.isEmpty();
  }

  /**
   * Whether {@code job} may run now. False: it was handed back to wait (or, with a cancel in
   * flight, cancelled), and is out of {@link InFlight}; the caller frees its slot.
   */
  <T> boolean admit(RunningJob job, Actor<T> actor) {
    RateLimiter limiter = limiterByActor.get(actor.name());
    Actor.ActorRateLimit declared = actor.rateLimit().orElse(null);
    if (limiter == null || declared == null) {
      return true;
    }
    String name;
    try {
      name = actor.rateLimitName(actor.codec().decode(job.payload()));
    } catch (RuntimeException e) {
      LOG.debug("{}: no rate-limit key ({}); the handler runs and fails it", job, e.toString());
      return true;
    }
    Duration wait;
    try {
      if (declared.keyed()) {
        keys.tryAcquire(name);
      }
      Decision decision = limiter.tryAcquire(name);
      if (decision.allowed()) {
        return true;
      }
      wait = decision.retryAfter();
    } catch (RuntimeException e) {
      LOG.warn(
          "{}: the rate limiter of '{}' failed; the job waits {}: {}",
          job,
          name,
          ON_LIMITER_FAILURE,
          e.toString());
      wait = ON_LIMITER_FAILURE;
    }
    defer(job, wait);
    return false;
  }

  private void defer(RunningJob job, Duration wait) {
    if (!job.release()) {
      return;
    }
    try {
      String status = write(job, wait);
      if (status == null) {
        fenced.report("deferring the rate-limited job", job.jobId(), job.leaseToken());
      } else if (status.equals("pending")) {
        listener.jobRateLimited(job.actor(), job.queue());
        dueIn.accept(wait.toMillis());
      }
    } catch (SQLException e) {
      LOG.warn(
          "{}: handing the rate-limited job back failed (SQLSTATE {}); its lease will lapse and"
              + " the lease sweep will reclaim it: {}",
          job,
          SqlErrors.state(e),
          e.toString());
    } finally {
      inFlight.remove(job);
    }
  }

  /** The job's new status, or null when the fence turned the write away. */
  private @Nullable String write(RunningJob job, Duration wait) throws SQLException {
    long waitMicros = Math.max(0, wait.toNanos() / 1000);
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(deferSql)) {
      s.setString(1, workerId);
      s.setLong(2, waitMicros);
      s.setLong(3, job.jobId());
      s.setLong(4, job.leaseToken());
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? rs.getString("status") : null;
      }
    }
  }

  /**
   * S10: evicts the keys unused for the idle period, then drains the evicted keys to the reclaim;
   * with nothing evicted it borrows no connection. Returns how many keys were drained.
   */
  public int evictIdle() {
    keys.evictIdle();
    return keys.drainEvicted(reclaim);
  }

  /** The keyed limits registered now (S10), never more than {@code max_keyed_rate_limits}. */
  public int registeredKeys() {
    return keys.size();
  }

  /** Whether {@code name} is registered (S10). */
  public boolean isRegistered(@Nullable String name) {
    return name != null && keys.contains(name);
  }
}
