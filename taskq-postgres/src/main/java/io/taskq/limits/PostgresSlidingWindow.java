package io.taskq.limits;

import io.taskq.JobStoreException;
import io.taskq.SchemaName;
import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.core.internal.RedisKeys;
import io.taskq.postgres.internal.Handles;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The sliding-window log in PostgreSQL (M4, D14): at most {@code limit} permits in any window, per
 * name, shared by every process on the same schema; a deployment without Redis still has limits,
 * and a Redis limiter can fall back to it ({@link
 * io.taskq.limits.UnavailablePolicy#fallbackTo(RateLimiter)}).
 *
 * <p>Each name's log is one {@code rate_limit_buckets} row. A decision is one transaction
 * serialised per name on the keyed advisory lock {@code taskq:{schema}:sw:{name}} (the same text as
 * the Redis key, M4): it trims the instants older than the window, admits when fewer than {@code
 * limit} remain, and writes the log back. Decisions are exactly those of the Redis sliding window
 * (same admissions, retry-after and remaining, on the database clock in whole microseconds).
 * Another name, or another schema (M6), never waits on this one's lock.
 *
 * <p>Get one from the root: {@link io.taskq.TaskQ#slidingWindow(SlidingWindowLog, boolean)}, or the
 * limiter {@link io.taskq.TaskQ.Builder#rateLimiters} hands the factory of each declared limit. The
 * rows of a {@link #keyed() keyed} limiter (one name per customer, per IP) are marked keyed: S9
 * deletes the ones unused past {@code TASKQ_KEYED_ROW_RECLAIM_PERIOD}, and {@link
 * #forget(Collection)} lets a worker's registry reclaim the names it evicted (S10).
 *
 * <p>The call blocks for a connection of the pool and the lock; when the database cannot answer it
 * throws {@link JobStoreException}: a fallback that fails is not hidden (see {@code
 * docs/rate-limits.md}).
 */
public final class PostgresSlidingWindow implements RateLimiter {
  private static final String SQL = "io/taskq/postgres/sql/ratelimit.sql";

  private final DataSource dataSource;
  private final SchemaName schema;
  private final SlidingWindowLog limit;
  private final boolean keyed;
  private final String lockSql;
  private final SlidingWindowRows rows;
  private final String forgetSql;

  static {
    Handles.registerSlidingWindows(PostgresSlidingWindow::new);
  }

  private PostgresSlidingWindow(
      DataSource dataSource, SchemaName schema, SlidingWindowLog limit, boolean keyed) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.schema = Objects.requireNonNull(schema, "schema");
    this.limit = Objects.requireNonNull(limit, "limit");
    this.keyed = keyed;
    NamedStatements statements = NamedStatements.load(SQL, schema);
    this.lockSql = statements.get("lock");
    this.rows = new SlidingWindowRows(statements, keyed);
    this.forgetSql = statements.get("forget");
  }

  @Override
  public Decision tryAcquire(String name, int permits) {
    return decide(name, permits, null);
  }

  /**
   * The decision at {@code nowMicros} instead of the database clock; tests drive this limiter and
   * its reference model along the same timeline with it. Production code passes null.
   */
  Decision decide(String name, int permits, @Nullable Long nowMicros) {
    AdvisoryLockName lock = lockName(name);
    limit.requirePermits(permits);
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try {
        Decision decision = decide(c, lock.key(), name, permits, nowMicros);
        c.commit();
        return decision;
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(autoCommit);
      }
    } catch (SQLException e) {
      throw new JobStoreException(
          "the sliding-window rate limit '" + name + "' could not be decided in PostgreSQL", e);
    }
  }

  private AdvisoryLockName lockName(String name) {
    RedisKeys.requireStoreBound(name);
    return AdvisoryLockName.slidingWindow(schema, name);
  }

  private Decision decide(
      Connection c, long lockKey, String name, int permits, @Nullable Long nowMicros)
      throws SQLException {
    long now;
    try (PreparedStatement s = c.prepareStatement(lockSql)) {
      s.setLong(1, lockKey);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        now = nowMicros != null ? nowMicros : rs.getLong("now_us");
      }
    }
    Deque<Long> log = rows.read(c, name);
    long window = limit.windowMicros();
    while (!log.isEmpty() && log.peekFirst() <= now - window) {
      log.removeFirst();
    }
    int count = log.size();
    Decision decision;
    if (count + permits <= limit.limit()) {
      for (int i = 0; i < permits; i++) {
        log.addLast(now);
      }
      decision = Decision.allowed(limit.limit() - count - permits);
    } else {
      int leaving = count + permits - limit.limit();
      long oldestNeeded = log.stream().skip(leaving - 1L).findFirst().orElseThrow();
      decision =
          Decision.denied(
              Duration.of(oldestNeeded + window - now, ChronoUnit.MICROS), limit.limit() - count);
    }
    rows.write(c, name, log, now);
    return decision;
  }

  /**
   * Deletes the keyed rows of {@code names} whose every entry has left the window (S10: the names a
   * worker's registry evicted); returns how many. A name still in use by anyone keeps its row, so
   * forgetting never changes a decision. With no names it borrows no connection.
   *
   * @param names the names to forget
   * @return the rows deleted
   * @throws JobStoreException when the database refuses
   */
  public int forget(Collection<String> names) {
    if (names.isEmpty()) {
      return 0;
    }
    List<String> store = names.stream().filter(n -> !RedisKeys.isProcessLocal(n)).toList();
    if (store.isEmpty()) {
      return 0;
    }
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(forgetSql)) {
      s.setArray(1, c.createArrayOf("text", store.toArray(String[]::new)));
      s.setLong(2, limit.windowMicros());
      return s.executeUpdate();
    } catch (SQLException e) {
      throw new JobStoreException(
          "deleting the rows of " + store.size() + " evicted rate-limit names failed", e);
    }
  }

  /** {@return the limit this limiter applies} */
  public SlidingWindowLog limit() {
    return limit;
  }

  /** {@return whether this limiter's rows are marked keyed (reclaimed by S9 when idle)} */
  public boolean keyed() {
    return keyed;
  }

  @Override
  public String toString() {
    return "PostgresSlidingWindow{" + schema.value() + ", " + limit + (keyed ? ", keyed}" : "}");
  }
}
