package io.taskq.postgres.internal.sweep;

import io.taskq.SchemaName;
import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.core.internal.NotifyChannels;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The one generic {@link SweepBatch}: a sweep whose batch is a fixed list of SQL statements (B1),
 * as the sweep catalog ({@code io.taskq.postgres.internal.maintenance.SweepCatalog}) describes it.
 *
 * <p>One batch, in the transaction it is handed:
 *
 * <ol>
 *   <li>checks its arguments ({@link SweepArguments#check}): batch size at least 1, an open
 *       transaction;
 *   <li>when its period is zero (a knob where 0 turns the sweep off), returns 0 without a
 *       statement;
 *   <li>when it has an own lock (S11 prune and archive expiry, M1), takes it with the resource's
 *       {@code try_lock} statement ({@code pg_try_advisory_xact_lock}); held elsewhere, returns 0;
 *   <li>runs each statement with its binds, and returns the sum of their counts.
 * </ol>
 *
 * Stateless apart from its prepared SQL.
 */
public final class StatementSweep implements SweepBatch {
  /** S8 keeps the crash-reclaim slice of {@code job_events} this many times the retention. */
  public static final int RECLAIM_SLICE_FACTOR = 100;

  private final String name;
  private final List<Prepared> statements;
  private final @Nullable SweepPeriod period;
  private final @Nullable String tryLock;
  private final long lockKey;
  private final String wakeChannel;

  private record Prepared(String sql, SweepStatement statement) {}

  /**
   * A sweep of {@code schema}.
   *
   * @param name the sweep's {@code sweep_name}
   * @param statements the batch's statements, in order; at least one
   * @param period the age the statements compare rows against, or null when they bind none
   * @param ownLock the sweep's own transaction lock (its first resource's {@code try_lock}), or
   *     null
   */
  public StatementSweep(
      SchemaName schema,
      String name,
      List<SweepStatement> statements,
      @Nullable SweepPeriod period,
      AdvisoryLockName.@Nullable Purpose ownLock) {
    if (statements.isEmpty()) {
      throw new IllegalArgumentException("sweep " + name + " needs at least one statement");
    }
    this.name = Objects.requireNonNull(name, "name");
    List<Prepared> prepared = new ArrayList<>();
    for (SweepStatement s : statements) {
      if (period == null
          && (s.binds().contains(SweepStatement.Bind.PERIOD_MICROS)
              || s.binds().contains(SweepStatement.Bind.RECLAIM_SLICE_MICROS))) {
        throw new IllegalArgumentException("sweep " + name + " binds a period but has none");
      }
      prepared.add(new Prepared(load(schema, s.resource()).get(s.name()), s));
    }
    this.statements = List.copyOf(prepared);
    this.period = period;
    this.tryLock =
        ownLock == null ? null : load(schema, statements.get(0).resource()).get("try_lock");
    this.lockKey = ownLock == null ? 0 : AdvisoryLockName.of(ownLock, schema).key();
    this.wakeChannel = NotifyChannels.of(schema).wake().name();
  }

  private static NamedStatements load(SchemaName schema, String resource) {
    return NamedStatements.load(SweepStatement.ROOT + resource, schema);
  }

  @Override
  public String sweepName() {
    return name;
  }

  /** Returns the rows the batch acted on; 0 without a statement when disabled or lock-held. */
  @Override
  public int run(Connection tx, int batchSize) throws SQLException {
    int rows = 0;
    for (int count : runCounts(tx, batchSize)) {
      rows += count;
    }
    return rows;
  }

  /**
   * The batch, reporting each count separately, in statement order: an update's count, or each
   * count column of a query (S9: the rows deleted from each table). Empty when the sweep is
   * disabled or its own lock is held elsewhere.
   */
  public List<Integer> runCounts(Connection tx, int batchSize) throws SQLException {
    SweepArguments.check(name, tx, batchSize);
    if (period != null && period.disabled()) {
      return List.of();
    }
    if (tryLock != null && !TransactionLock.tryTake(tx, tryLock, lockKey)) {
      return List.of();
    }
    List<Integer> counts = new ArrayList<>();
    for (Prepared p : statements) {
      execute(tx, p, batchSize, counts);
    }
    return counts;
  }

  private void execute(Connection tx, Prepared p, int batchSize, List<Integer> counts)
      throws SQLException {
    try (PreparedStatement ps = tx.prepareStatement(p.sql())) {
      List<SweepStatement.Bind> binds = p.statement().binds();
      for (int i = 0; i < binds.size(); i++) {
        bind(ps, i + 1, binds.get(i), batchSize);
      }
      List<String> columns = p.statement().counts();
      if (columns.isEmpty()) {
        counts.add(ps.executeUpdate());
        return;
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        for (String column : columns) {
          counts.add(rs.getInt(column));
        }
      }
    }
  }

  private void bind(PreparedStatement ps, int at, SweepStatement.Bind bind, int batchSize)
      throws SQLException {
    switch (bind) {
      case BATCH_SIZE -> ps.setInt(at, batchSize);
      case PERIOD_MICROS -> ps.setLong(at, requirePeriod().micros());
      case RECLAIM_SLICE_MICROS ->
          ps.setLong(at, Math.multiplyExact(requirePeriod().micros(), RECLAIM_SLICE_FACTOR));
      case WAKE_CHANNEL -> ps.setString(at, wakeChannel);
    }
  }

  private SweepPeriod requirePeriod() {
    return Objects.requireNonNull(period, "period");
  }

  @Override
  public String toString() {
    return name;
  }
}
