package io.taskq.postgres.internal.leader;

import io.taskq.SchemaName;
import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.spi.MaintenanceListener;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Elects this process maintenance leader of a schema, and keeps proving it (M1, D8, O6).
 *
 * <p>Leadership is the session advisory lock {@code taskq:maintenance_leader:{schema}}, held on a
 * dedicated connection from a {@link LeaderConnectionSource} that never enters a pool. Each loop
 * calls {@link #refresh()}:
 *
 * <ul>
 *   <li>a <b>follower</b> tries {@code pg_try_advisory_lock} once (opening the connection if it has
 *       none); on success it passes the fence barrier (see {@link LeaderFence}) and becomes leader;
 *   <li>a <b>leader</b> never calls the lock function again (session locks stack: a second acquire
 *       would need a second unlock). It proves in {@code pg_locks} that its session still holds the
 *       lock, and the moment it cannot (the query fails because the connection was lost or the
 *       backend was terminated, or the lock is not there) it steps down: closes the connection,
 *       forgets the term and signals {@code leaderChanged(false)}, which clears the process's
 *       sweep-health stamps (O7).
 * </ul>
 *
 * Every call is bounded: statements on the dedicated connection run under a query timeout, and the
 * connection has a socket timeout (D10). Failures never escape {@link #refresh()}: a follower that
 * cannot reach the database simply stays a follower and tries again on the next loop. Thread-safe
 * (the two maintenance loops share one elector; calls that touch the database are serialised).
 *
 * <p>{@link #current()} never waits: probes and gauges call it, and a refresh may be stuck on a
 * frozen server for up to the socket timeout (R1).
 *
 * <p><b>Reported leadership (R6).</b> {@link #isProven()} (what {@code TaskQ.isLeader()} and the
 * {@code is_leader} gauge report) is stricter than holding a term: the term's last proof (the
 * moment its proving statement was sent) must be younger than the proof validity, three check
 * intervals, so a leader whose lock session died or whose process froze stops reporting within that
 * validity even before a refresh notices. A leader that won the lock after seeing it held (a
 * failover, not a fresh start) reports only once the validity has passed since it won: every proof
 * the previous leader made predates the lock's release, so by then that leader's report has lapsed,
 * and two processes never report leadership at once. {@code leaderChanged(true)} is signalled then,
 * too. Sweeps do not wait: they run under the leader fence from the moment the lock is won. {@link
 * #close()} is bounded the same way: when a refresh still holds the elector after the check
 * timeout, close aborts the connection under it.
 *
 * <p>{@link #resign(String)} gives the lock up although it is still held: the maintenance loops
 * call it when the leader's sweeps have got no connection from their pool for {@link
 * #idleSessionLimit()} (R7), so a process that reaches the database leads.
 */
public final class LeaderElector implements AutoCloseable {
  static final String STATEMENTS = "io/taskq/postgres/sql/leader.sql";

  /** A proof of the lock is valid for this many check intervals (R6). */
  public static final int PROOF_VALID_INTERVALS = 3;

  private static final Logger LOG = LoggerFactory.getLogger(LeaderElector.class);

  private final AdvisoryLockName lock;
  private final LeaderConnectionSource connections;
  private final NamedStatements sql;
  private final int checkTimeoutSeconds;
  private final Duration barrierTimeout;
  private final MaintenanceListener listener;

  private final ReentrantLock io = new ReentrantLock();
  private final Duration closeWait;
  private final long proofValidNanos;
  private final LongSupplier nanoTime;
  private volatile @Nullable Connection connection;
  private volatile @Nullable Leadership term;
  private volatile boolean closed;
  // R6: when the term's last proof was sent, and from when the term may be reported (nanoTime).
  private volatile long provenAt;
  private volatile long reportFrom;
  private volatile boolean announced;
  // Guarded by io: whether a try has been made before (only a first try reports at once).
  private boolean triedBefore;

  /**
   * @param lock the leader lock; normally {@code AdvisoryLockName.of(MAINTENANCE_LEADER, schema)}
   * @param checkTimeout the bound on each lock, proof and unlock statement (whole seconds, at least
   *     1)
   * @param barrierTimeout how long a new leader waits for a previous leader's batches to end
   * @param listener receives {@code leaderChanged}
   */
  public LeaderElector(
      SchemaName schema,
      AdvisoryLockName lock,
      LeaderConnectionSource connections,
      Duration checkTimeout,
      Duration barrierTimeout,
      MaintenanceListener listener) {
    this(
        schema,
        lock,
        connections,
        checkTimeout,
        barrierTimeout,
        listener,
        Duration.ofSeconds(1),
        System::nanoTime);
  }

  /**
   * @param checkInterval how often the loops refresh (the 1-second loop's period); a proof is valid
   *     for {@value #PROOF_VALID_INTERVALS} of them
   * @param nanoTime the monotonic clock of the proofs
   */
  public LeaderElector(
      SchemaName schema,
      AdvisoryLockName lock,
      LeaderConnectionSource connections,
      Duration checkTimeout,
      Duration barrierTimeout,
      MaintenanceListener listener,
      Duration checkInterval,
      LongSupplier nanoTime) {
    this.proofValidNanos = checkInterval.toNanos() * PROOF_VALID_INTERVALS;
    this.nanoTime = nanoTime;
    this.lock = lock;
    this.connections = connections;
    this.sql = NamedStatements.load(STATEMENTS, schema);
    this.checkTimeoutSeconds =
        (int) Math.max(1, Math.min(Integer.MAX_VALUE, checkTimeout.toSeconds()));
    this.barrierTimeout = barrierTimeout;
    this.listener = listener;
    this.closeWait = Duration.ofSeconds(checkTimeoutSeconds);
  }

  /**
   * Acquires leadership when a follower, proves it when the leader.
   *
   * @return the current term, or empty when this process is not (or no longer) the leader
   */
  public Optional<Leadership> refresh() {
    return refresh(() -> true);
  }

  /**
   * As {@link #refresh()}, but a follower campaigns only when {@code mayCampaign} says so, asked
   * under the same lock as {@link #resign(String)}: a caller that arms a hold-off before it resigns
   * is never overtaken by another thread of its process that decided to campaign before the
   * hold-off was armed and then waited for the resignation to release the lock (R7). It must be
   * quick and must not touch the database.
   *
   * @return the current term, or empty when this process is not (or no longer) the leader, or may
   *     not campaign now
   */
  public Optional<Leadership> refresh(BooleanSupplier mayCampaign) {
    io.lock();
    try {
      if (closed) {
        return Optional.empty();
      }
      Leadership current = term;
      if (current != null) {
        long sent = nanoTime.getAsLong();
        if (!proveHeld()) {
          return Optional.empty();
        }
        provenAt = sent;
        announceWhenDue();
        return Optional.of(current);
      }
      return mayCampaign.getAsBoolean() ? tryAcquire() : Optional.empty();
    } finally {
      io.unlock();
    }
  }

  /** The current term without touching the database or waiting; empty for a follower. */
  public Optional<Leadership> current() {
    return Optional.ofNullable(term);
  }

  /**
   * Whether this process may report itself leader now (R6): it holds a term whose last proof is
   * younger than the proof validity, and the handover wait after a failover has passed. Never waits
   * and never touches the database.
   */
  public boolean isProven() {
    if (term == null) {
      return false;
    }
    long now = nanoTime.getAsLong();
    return now - reportFrom >= 0 && now - provenAt < proofValidNanos;
  }

  /** Signals {@code leaderChanged(true)} once the term may be reported (called under io). */
  private void announceWhenDue() {
    if (!announced && term != null && nanoTime.getAsLong() - reportFrom >= 0) {
      announced = true;
      notifyLeader(true);
    }
  }

  /**
   * Checks the lock now, and steps down if it cannot be proven held: what a loop does when a
   * batch's fence refused.
   *
   * @return true when this process is still the proven leader
   */
  public boolean reverify() {
    io.lock();
    try {
      return term != null && proveHeld();
    } finally {
      io.unlock();
    }
  }

  /**
   * Gives up the lock at once, although it is still held: what a leader does whose maintenance
   * cannot reach the database (its sweeps get no connection from their pool, R7) while its lock
   * session is healthy, so that a process that can reach it leads. Closes the lock connection,
   * which releases the session lock, logs one WARN with {@code why}, signals {@code
   * leaderChanged(false)}; {@link #isProven()} is false from then on. Later {@link #refresh()}
   * calls campaign again: the caller decides when.
   *
   * @return whether this process was the leader
   */
  public boolean resign(String why) {
    io.lock();
    try {
      if (term == null) {
        return false;
      }
      stepDown(why);
      return true;
    } finally {
      io.unlock();
    }
  }

  /** The lock this elector competes for. */
  public AdvisoryLockName lock() {
    return lock;
  }

  private boolean proveHeld() {
    Connection c = connection;
    if (c == null) {
      stepDown("its lock connection is gone");
      return false;
    }
    try (PreparedStatement ps = c.prepareStatement(sql.get("holds_lock"))) {
      ps.setQueryTimeout(checkTimeoutSeconds);
      ps.setLong(1, lock.key() >>> 32);
      ps.setLong(2, lock.key() & 0xFFFF_FFFFL);
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next() && rs.getBoolean(1)) {
          return true;
        }
      }
      stepDown("its session no longer holds the lock");
    } catch (SQLException e) {
      stepDown("its lock connection failed (" + describe(e) + ")");
    }
    return false;
  }

  private Optional<Leadership> tryAcquire() {
    boolean firstTry = !triedBefore;
    triedBefore = true;
    try {
      Connection c = openConnection();
      long sent = nanoTime.getAsLong();
      Optional<Leadership> won = tryLock(c);
      if (won.isEmpty() || !passBarrier(c, won.get())) {
        return Optional.empty();
      }
      becameLeader(won.get(), sent, firstTry);
      return won;
    } catch (SQLException e) {
      LOG.debug("could not try the leader lock {}: {}", lock.name(), describe(e));
      closeConnection();
      return Optional.empty();
    }
  }

  /** One try of the lock on {@code c}; the term it won, or empty when another session holds it. */
  private Optional<Leadership> tryLock(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.get("try_lock"))) {
      ps.setQueryTimeout(checkTimeoutSeconds);
      ps.setLong(1, lock.key());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        if (!rs.getBoolean(1)) {
          return Optional.empty();
        }
        return Optional.of(new Leadership(lock, rs.getInt(2)));
      }
    }
  }

  /** The lock (asked for at {@code sent}) is won and the barrier passed: the term starts. */
  private void becameLeader(Leadership won, long sent, boolean firstTry) {
    provenAt = sent;
    // R6: after a failover, report only once every proof of the previous leader has lapsed.
    reportFrom = firstTry ? sent : nanoTime.getAsLong() + proofValidNanos;
    announced = false;
    term = won;
    LOG.info("became maintenance leader ({}, backend {})", lock.name(), won.backendPid());
    announceWhenDue();
  }

  /**
   * Waits, in a short transaction, for every batch a previous leader may still have in flight (they
   * hold the fence shared). On failure the lock is given back, so another process can try.
   */
  private boolean passBarrier(Connection c, Leadership won) throws SQLException {
    try {
      c.setAutoCommit(false);
      try (PreparedStatement timeout = c.prepareStatement(sql.get("local_timeout"));
          PreparedStatement barrier = c.prepareStatement(sql.get("barrier"))) {
        timeout.setString(1, Long.toString(Math.max(1, barrierTimeout.toMillis())));
        timeout.executeQuery().close();
        barrier.setInt(1, won.fenceHigh());
        barrier.setInt(2, won.fenceLow());
        barrier.executeQuery().close();
      }
      c.commit();
      return true;
    } catch (SQLException e) {
      LOG.warn(
          "won the leader lock {} but a previous leader's batches did not end within {}; giving"
              + " it back: {}",
          lock.name(),
          barrierTimeout,
          describe(e));
      c.rollback();
      unlock(c);
      return false;
    } finally {
      c.setAutoCommit(true);
    }
  }

  private Connection openConnection() throws SQLException {
    Connection c = connection;
    if (c != null && !c.isClosed()) {
      return c;
    }
    c = connections.open();
    connection = c;
    limitIdleSession(c);
    return c;
  }

  /**
   * R7: the server ends the lock session when it has been idle for {@link #idleSessionLimit()}, so
   * a frozen leader cannot keep the lock (see {@code idle_limit} in leader.sql).
   */
  private void limitIdleSession(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.get("idle_limit"))) {
      ps.setQueryTimeout(checkTimeoutSeconds);
      ps.setString(1, Long.toString(idleSessionLimit().toMillis()));
      ps.executeQuery().close();
    }
  }

  /**
   * How long the lock session may stay idle before the server ends it: five proof validities, at
   * least 10 s (15 s with the 1 s check interval). A healthy leader or follower uses it every check
   * interval. The maintenance loops give a leader whose pool gives no connection as long (R7).
   */
  public Duration idleSessionLimit() {
    return Duration.ofNanos(Math.max(Duration.ofSeconds(10).toNanos(), 5 * proofValidNanos));
  }

  private void stepDown(String why) {
    LOG.warn("stepping down as maintenance leader ({}): {}", lock.name(), why);
    term = null;
    announced = false;
    closeConnection();
    notifyLeader(false);
  }

  private void unlock(Connection c) {
    try (PreparedStatement ps = c.prepareStatement(sql.get("unlock"))) {
      ps.setQueryTimeout(checkTimeoutSeconds);
      ps.setLong(1, lock.key());
      ps.executeQuery().close();
    } catch (SQLException e) {
      LOG.debug(
          "could not unlock {}; closing its session releases it: {}", lock.name(), describe(e));
      closeConnection();
    }
  }

  private void closeConnection() {
    Connection c = connection;
    connection = null;
    if (c != null) {
      try {
        c.close();
      } catch (SQLException e) {
        LOG.debug("closing the leader lock connection failed", e);
      }
    }
  }

  private void notifyLeader(boolean isLeader) {
    try {
      listener.leaderChanged(isLeader);
    } catch (RuntimeException e) {
      LOG.warn("a maintenance listener failed on leaderChanged({})", isLeader, e);
    }
  }

  /**
   * Gives up leadership for good: unlocks (best effort) and closes the dedicated connection, which
   * releases the session lock in any case. Later {@link #refresh()} calls return empty.
   */
  @Override
  public void close() {
    closed = true;
    boolean wasLeader = term != null;
    term = null;
    announced = false;
    if (!lockWithin(closeWait)) {
      // A refresh is stuck on the wire (a frozen server): cut the connection under it. The
      // server releases the session lock when it notices; the refresh fails and returns.
      abortConnection();
      if (!lockWithin(closeWait)) {
        LOG.warn("leader elector of {} closed without waiting for a stuck refresh", lock.name());
        finishClose(wasLeader, false);
        return;
      }
    }
    try {
      finishClose(wasLeader, true);
    } finally {
      io.unlock();
    }
  }

  private void finishClose(boolean wasLeader, boolean mayUnlock) {
    Connection c = connection;
    if (c != null && wasLeader && mayUnlock) {
      // The unlock is a courtesy (closing the session releases the lock too): on a server that
      // does not answer it may not hold close() up for longer than the check timeout.
      AtomicBoolean unlocked = new AtomicBoolean();
      CompletableFuture.delayedExecutor(closeWait.toMillis(), TimeUnit.MILLISECONDS)
          .execute(
              () -> {
                if (!unlocked.get()) {
                  abortConnection();
                }
              });
      try {
        unlock(c);
      } finally {
        unlocked.set(true);
      }
    }
    closeConnection();
    if (wasLeader) {
      LOG.info("gave up maintenance leadership ({})", lock.name());
      notifyLeader(false);
    }
  }

  private boolean lockWithin(Duration wait) {
    try {
      return io.tryLock(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Aborts the lock connection (closes its socket) under whatever call is stuck on it. */
  public void abortConnection() {
    Connection c = connection;
    if (c != null) {
      try {
        c.abort(Runnable::run);
      } catch (SQLException | RuntimeException e) {
        LOG.debug("aborting the leader lock connection failed", e);
      }
    }
  }

  private static String describe(SQLException e) {
    return e.getMessage() + " (SQLSTATE " + e.getSQLState() + ")";
  }
}
