package io.taskq.operations;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The maintenance sweeps' health as the schema's leader last wrote it (table {@code sweep_health},
 * A8, W1), readable from any process: the CLI, a dashboard that is not the leader.
 *
 * <p>The leader rewrites each sweep's row at the end of every tick of the loop that runs it, so a
 * row's {@link Sweep#writtenAge() writtenAge} says how fresh it is and {@link Sweep#freshness()}
 * whether it can be trusted: written by the session that holds the leader lock now and within
 * {@value #STALE_PERIODS} loop periods (plus {@link #STALE_GRACE} for a slow tick).
 *
 * @param leader the session holding the leader lock now, or {@code null} when none does
 * @param readAt the database's time of the read; every age is measured against it
 * @param sweeps one row per sweep, by name; empty before any leader has written
 */
public record SweepHealth(@Nullable LeaderInfo leader, Instant readAt, List<Sweep> sweeps) {
  /** Loop periods without a rewrite after which a row is {@link Freshness#STALE}. */
  public static final int STALE_PERIODS = 3;

  /** Added to {@value #STALE_PERIODS} loop periods before a row counts as stale. */
  public static final Duration STALE_GRACE = Duration.ofSeconds(10);

  /**
   * Copies the list.
   *
   * @param leader the session holding the leader lock now, or {@code null} when none does
   * @param readAt the database's time of the read; every age is measured against it
   * @param sweeps one row per sweep, by name; empty before any leader has written
   */
  public SweepHealth {
    Objects.requireNonNull(readAt, "readAt");
    sweeps = List.copyOf(sweeps);
  }

  /** {@return true when some sweep is stalled or on the breaker's reduced tier} */
  public boolean degraded() {
    return sweeps.stream().anyMatch(s -> s.stalled() || s.tier() == BreakerTier.REDUCED);
  }

  /** The breaker tier of a sweep (T2). */
  public enum BreakerTier {
    /** A breaker-wrapped sweep (S1-S3) at its configured batch size. */
    FULL,
    /** A breaker-wrapped sweep latched to its reduced batch size until its leader restarts. */
    REDUCED,
    /** A sweep without a breaker: its batch size is fixed. */
    FIXED
  }

  /** How far a row can be trusted. */
  public enum Freshness {
    /** Written by the current leader within its loop's cadence. */
    CURRENT,
    /** Written by the current leader, but not for {@value #STALE_PERIODS} loop periods. */
    STALE,
    /** Written by a session that no longer holds the leader lock (a failover in progress). */
    FORMER_LEADER,
    /** No session holds the leader lock: nothing sweeps the schema now. */
    NO_LEADER
  }

  /**
   * One sweep's row.
   *
   * @param name the sweep's {@code sweep_name}, e.g. {@code scheduled_to_pending}
   * @param id the guide's number (S1-S11), or {@code null} for a sweep outside the catalog
   * @param writtenBy the leader process that wrote the row, {@code host:pid}
   * @param writtenByPid the backend pid of that leader's lock session ({@link LeaderInfo#pid()})
   * @param lastRun when the sweep last ran a batch, or {@code null}
   * @param lastSuccess when a batch of it last committed, or {@code null}
   * @param lastErrorAt when a run last failed or had a batch aborted, or {@code null}
   * @param lastErrorClass that error's class and SQLSTATE, e.g. {@code PSQLException 57014}
   * @param lastErrorMessage the first line of its message, at most 300 characters
   * @param tier the breaker tier
   * @param batchSize the batch size it runs with now
   * @param batchSizeConfigured the configured batch size
   * @param consecutiveFailures runs in a row that failed or had a batch aborted
   * @param stalled whether the leader's readiness view judged it stalled when writing
   * @param stallReason why, or {@code null}
   * @param loopPeriod how often its loop runs (and rewrites the row)
   * @param expectedPeriod how often it succeeds when healthy
   * @param writtenAt when the row was last written (database time)
   * @param writtenAge how long ago, at {@link SweepHealth#readAt()}
   * @param freshness how far the row can be trusted
   */
  public record Sweep(
      String name,
      @Nullable String id,
      String writtenBy,
      int writtenByPid,
      @Nullable Instant lastRun,
      @Nullable Instant lastSuccess,
      @Nullable Instant lastErrorAt,
      @Nullable String lastErrorClass,
      @Nullable String lastErrorMessage,
      BreakerTier tier,
      int batchSize,
      int batchSizeConfigured,
      int consecutiveFailures,
      boolean stalled,
      @Nullable String stallReason,
      Duration loopPeriod,
      Duration expectedPeriod,
      Instant writtenAt,
      Duration writtenAge,
      Freshness freshness) {
    /**
     * {@return how a row of {@code loopPeriod} written {@code writtenAge} ago by {@code
     * writtenByPid} reads while {@code leader} holds the lock}
     *
     * @param leader the lock holder now, or {@code null}
     * @param writtenByPid the backend pid that wrote the row
     * @param loopPeriod how often the row is rewritten
     * @param writtenAge how long ago it was written
     */
    public static Freshness freshness(
        @Nullable LeaderInfo leader, int writtenByPid, Duration loopPeriod, Duration writtenAge) {
      if (leader == null) {
        return Freshness.NO_LEADER;
      }
      if (leader.pid() != writtenByPid) {
        return Freshness.FORMER_LEADER;
      }
      Duration limit = loopPeriod.multipliedBy(STALE_PERIODS).plus(STALE_GRACE);
      return writtenAge.compareTo(limit) > 0 ? Freshness.STALE : Freshness.CURRENT;
    }
  }
}
