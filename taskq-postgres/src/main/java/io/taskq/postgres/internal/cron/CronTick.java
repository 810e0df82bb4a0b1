package io.taskq.postgres.internal.cron;

import io.taskq.EnqueueInterceptor;
import io.taskq.JobRequest;
import io.taskq.SchemaName;
import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.client.JobInserter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cron tick (S12, F5): fires the due schedules of one schema in one transaction.
 *
 * <ol>
 *   <li>BEGIN; apply the tick's deadline as the transaction's {@code statement_timeout} with {@code
 *       set_config(..., true)}, capturing the previous value (B3);
 *   <li>take {@code taskq:cron:{schema}} with {@code pg_try_advisory_xact_lock}: held elsewhere,
 *       the tick ends at once (another process is ticking);
 *   <li>select at most {@code TASKQ_CRON_TICK_LIMIT} due schedules with their {@code actor_config}
 *       rows, {@code FOR UPDATE SKIP LOCKED};
 *   <li>plan each schedule alone: a payload-factory exception, a missing {@code actor_config} row
 *       or a bad payload fails that schedule only;
 *   <li>enqueue every planned fire in one batched statement ({@link JobInserter}), through the
 *       enqueue interceptors when there are some (P6, {@link EnqueueInterceptor.Kind#CRON});
 *   <li>one UPDATE for the fired schedules, one for the failed ones (failure count, sanitised
 *       error, auto-disable at {@code TASKQ_CRON_AUTO_DISABLE_THRESHOLD});
 *   <li>restore the captured timeout and COMMIT.
 * </ol>
 *
 * The whole tick shares one deadline ({@code TASKQ_DISPATCHER_COMMAND_TIMEOUT}): before each later
 * statement the remaining budget is applied again, and a spent budget aborts the tick with SQLSTATE
 * 57014. Any error (an insert-level failure above all) rolls the whole tick back: no job is
 * enqueued, no schedule advances, and the failure bookkeeping rolls back too, so every schedule
 * stays due for the next tick.
 */
public final class CronTick {
  /** The {@code sweep_name} label of the cron tick (its deadline counts under it). */
  public static final String NAME = "cron";

  /** The label every cron job carries: the schedule's name. */
  public static final String SCHEDULE_LABEL = "taskq.cron.schedule";

  /** The label every cron job carries: the fire time it stands for (ISO-8601). */
  public static final String FIRE_AT_LABEL = "taskq.cron.fire_at";

  private static final Logger LOG = LoggerFactory.getLogger(CronTick.class);

  private final SchemaName schema;
  private final NamedStatements sql;
  private final FirePlanner planner;
  private final CronFaults faults;
  private final long lockKey;
  private final int tickLimit;
  private final int autoDisableThreshold;
  private final TickBudget budget;
  private final InterceptedInsert insert;

  /**
   * A tick of {@code schema}.
   *
   * @param tickLimit the most schedules one tick selects ({@code TASKQ_CRON_TICK_LIMIT})
   * @param autoDisableThreshold failures in a row that disable a schedule; 0 never
   * @param deadline the whole tick's budget ({@code TASKQ_DISPATCHER_COMMAND_TIMEOUT})
   * @param maxPayloadBytes the enqueue payload limit ({@code TASKQ_MAX_PAYLOAD_BYTES})
   */
  public CronTick(
      SchemaName schema,
      PayloadFactories factories,
      CronFaults faults,
      int tickLimit,
      int autoDisableThreshold,
      Duration deadline,
      long maxPayloadBytes,
      LongSupplier nanoTime) {
    this(
        schema,
        factories,
        faults,
        tickLimit,
        autoDisableThreshold,
        deadline,
        maxPayloadBytes,
        nanoTime,
        List.of());
  }

  /**
   * A tick of {@code schema} whose fires pass through {@code interceptors} (P6) before the insert.
   *
   * @param tickLimit the most schedules one tick selects ({@code TASKQ_CRON_TICK_LIMIT})
   * @param autoDisableThreshold failures in a row that disable a schedule; 0 never
   * @param deadline the whole tick's budget ({@code TASKQ_DISPATCHER_COMMAND_TIMEOUT})
   * @param maxPayloadBytes the enqueue payload limit ({@code TASKQ_MAX_PAYLOAD_BYTES})
   * @param interceptors the TaskQ's enqueue interceptors, outermost first
   */
  public CronTick(
      SchemaName schema,
      PayloadFactories factories,
      CronFaults faults,
      int tickLimit,
      int autoDisableThreshold,
      Duration deadline,
      long maxPayloadBytes,
      LongSupplier nanoTime,
      List<EnqueueInterceptor> interceptors) {
    if (tickLimit < 1) {
      throw new IllegalArgumentException("cron tick limit must be at least 1, was " + tickLimit);
    }
    if (deadline.isNegative() || deadline.isZero()) {
      throw new IllegalArgumentException("cron tick deadline must be positive, was " + deadline);
    }
    this.schema = schema;
    this.sql = NamedStatements.load("io/taskq/postgres/sql/cron.sql", schema);
    int timeoutSeconds = (int) Math.max(1, (deadline.toMillis() + 999) / 1000);
    JobInserter inserter = new JobInserter(schema, maxPayloadBytes, timeoutSeconds);
    this.planner = new FirePlanner(factories, faults, inserter);
    this.faults = faults;
    this.lockKey = AdvisoryLockName.of(AdvisoryLockName.Purpose.CRON, schema).key();
    this.tickLimit = tickLimit;
    this.autoDisableThreshold = autoDisableThreshold;
    this.budget = new TickBudget(schema, deadline, nanoTime);
    this.insert = new InterceptedInsert(inserter, interceptors);
  }

  /**
   * Runs one tick in its own transaction on a connection of {@code dataSource}.
   *
   * @return what it did; {@code ran == false} when another transaction held the cron lock
   * @throws SQLException after rolling the whole tick back (SQLSTATE 57014 when the deadline ran
   *     out)
   */
  public CronTickResult run(DataSource dataSource) throws SQLException {
    long start = budget.start();
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try {
        return commitOrRollBack(c, start);
      } finally {
        try {
          c.setAutoCommit(autoCommit);
        } catch (SQLException e) {
          LOG.debug("could not restore auto-commit after a cron tick", e);
        }
      }
    }
  }

  /** Runs the tick on {@code c}; commits it when it ran, rolls it back otherwise. */
  private CronTickResult commitOrRollBack(Connection c, long start) throws SQLException {
    try {
      CronTickResult result = inTransaction(c, start);
      if (result.ran()) {
        c.commit();
      } else {
        c.rollback();
      }
      return result;
    } catch (SQLException | RuntimeException e) {
      rollbackQuietly(c, e);
      throw e;
    }
  }

  private CronTickResult inTransaction(Connection c, long start) throws SQLException {
    String previous = budget.apply(c, start);
    if (!tryLock(c)) {
      return CronTickResult.SKIPPED;
    }
    List<DueSchedule> due = selectDue(c);
    if (due.isEmpty()) {
      budget.restore(c, previous);
      return new CronTickResult(true, 0, 0, 0, List.of(), List.of());
    }
    FirePlan.Tick plans = planner.planAll(due);
    Enqueued enqueued = enqueue(c, start, plans.fired());
    budget.apply(c, start);
    updateFired(c, plans.fired(), enqueued.ids());
    List<String> disabled = updateFailed(c, plans.failed());
    budget.restore(c, previous);
    return new CronTickResult(
        true, due.size(), plans.fired().size(), plans.failed().size(), disabled, enqueued.jobs());
  }

  /** The ids of the jobs a tick inserted, and the jobs as inserted (after the interceptors). */
  private record Enqueued(List<Long> ids, List<JobRequest> jobs) {}

  /** Inserts the planned fires, if any, within what is left of the tick's budget. */
  private Enqueued enqueue(Connection c, long start, List<FirePlan.Fired> fired)
      throws SQLException {
    List<JobRequest> requests = fired.stream().map(FirePlan.Fired::request).toList();
    if (fired.isEmpty()) {
      return new Enqueued(List.of(), requests);
    }
    budget.apply(c, start);
    faults.insert().check();
    List<List<JobRequest>> inserted = new ArrayList<>(List.of(requests));
    List<Long> ids = insert.run(c, requests, inserted);
    return new Enqueued(ids, inserted.get(0));
  }

  private List<DueSchedule> selectDue(Connection c) throws SQLException {
    List<DueSchedule> due = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(sql.get("select_due"))) {
      ps.setInt(1, tickLimit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          due.add(DueSchedule.read(rs));
        }
      }
    }
    return due;
  }

  private void updateFired(Connection c, List<FirePlan.Fired> fired, List<Long> ids)
      throws SQLException {
    if (fired.isEmpty()) {
      return;
    }
    String[] names = new String[fired.size()];
    String[] next = new String[fired.size()];
    Long[] jobIds = new Long[fired.size()];
    for (int i = 0; i < fired.size(); i++) {
      names[i] = fired.get(i).name();
      next[i] = fired.get(i).next().toString();
      jobIds[i] = ids.get(i);
    }
    try (PreparedStatement ps = c.prepareStatement(sql.get("update_fired"))) {
      ps.setArray(1, c.createArrayOf("text", names));
      ps.setArray(2, c.createArrayOf("text", next));
      ps.setArray(3, c.createArrayOf("bigint", jobIds));
      ps.executeUpdate();
    }
  }

  /** Stores each failure on its schedule; returns the schedules this disabled (auto-disable). */
  private List<String> updateFailed(Connection c, List<FirePlan.Failed> failed)
      throws SQLException {
    if (failed.isEmpty()) {
      return List.of();
    }
    try (PreparedStatement ps = c.prepareStatement(sql.get("update_failed"))) {
      ps.setInt(1, autoDisableThreshold);
      ps.setInt(2, autoDisableThreshold);
      bindFailures(c, ps, failed);
      try (ResultSet rs = ps.executeQuery()) {
        return disabled(rs);
      }
    }
  }

  /** Binds the failed schedules' names, next fire times and errors, logging each failure. */
  private void bindFailures(Connection c, PreparedStatement ps, List<FirePlan.Failed> failed)
      throws SQLException {
    String[] names = new String[failed.size()];
    String[] next = new String[failed.size()];
    String[] errors = new String[failed.size()];
    for (int i = 0; i < failed.size(); i++) {
      FirePlan.Failed f = failed.get(i);
      names[i] = f.name();
      Instant n = f.next();
      next[i] = n == null ? null : n.toString();
      errors[i] = f.error();
      LOG.warn("cron schedule '{}' of schema {} failed to fire: {}", f.name(), schema, f.error());
    }
    ps.setArray(3, c.createArrayOf("text", names));
    ps.setArray(4, c.createArrayOf("text", next));
    ps.setArray(5, c.createArrayOf("text", errors));
  }

  /** The schedules {@code update_failed} left disabled, each logged. */
  private List<String> disabled(ResultSet rs) throws SQLException {
    List<String> disabled = new ArrayList<>();
    while (rs.next()) {
      if (!rs.getBoolean("enabled")) {
        disabled.add(rs.getString("name"));
        LOG.warn(
            "cron schedule '{}' of schema {} disabled after {} failed fires in a row",
            rs.getString("name"),
            schema,
            rs.getInt("consecutive_failures"));
      }
    }
    return disabled;
  }

  private boolean tryLock(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.get("try_cron_lock"))) {
      ps.setLong(1, lockKey);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getBoolean(1);
      }
    }
  }

  private static void rollbackQuietly(Connection c, Exception cause) {
    try {
      c.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }
}
