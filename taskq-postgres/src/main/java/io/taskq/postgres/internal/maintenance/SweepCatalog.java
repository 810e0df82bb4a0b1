package io.taskq.postgres.internal.maintenance;

import static io.taskq.postgres.internal.sweep.SweepStatement.Bind.BATCH_SIZE;
import static io.taskq.postgres.internal.sweep.SweepStatement.Bind.PERIOD_MICROS;
import static io.taskq.postgres.internal.sweep.SweepStatement.Bind.RECLAIM_SLICE_MICROS;
import static io.taskq.postgres.internal.sweep.SweepStatement.Bind.WAKE_CHANNEL;

import io.taskq.SchemaName;
import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.postgres.internal.sweep.Cadence;
import io.taskq.postgres.internal.sweep.LeaseReclaimSweep;
import io.taskq.postgres.internal.sweep.StatementSweep;
import io.taskq.postgres.internal.sweep.SweepBatch;
import io.taskq.postgres.internal.sweep.SweepPeriod;
import io.taskq.postgres.internal.sweep.SweepSpec;
import io.taskq.postgres.internal.sweep.SweepStatement;
import io.taskq.spi.MaintenanceListener;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Every maintenance sweep the leader runs, one row each (guide §1): its {@code sweep_name}, its
 * statements and their binds, its cadence (which says whether it is drained), where its batch size
 * comes from and whether a breaker sizes it, its period knob, and its own lock. The loops run what
 * this table says; nothing else lists the sweeps.
 *
 * <p>Every row but S1 is run by the one generic {@link StatementSweep}; S1 ({@link
 * LeaseReclaimSweep}) keeps a class of its own because it reports per-actor reclaim counts after
 * its batch commits. Every batch runs under the leader fence. S10, the per-worker keyed eviction,
 * is not a leader sweep and is not in this table: every worker runs it (see {@code Worker}).
 *
 * <p>In short: S1-S3 are breaker-wrapped (T2) and sized by {@code TASKQ_EVENT_WRITER_BATCH_SIZE},
 * S1 and S2 drained, S3 on the 1-second loop; S4-S7 drained at {@code
 * TASKQ_EVENT_WRITER_BATCH_SIZE}; S8 and S9 one batch per tick of a size the guide fixes; S11 daily
 * at {@code TASKQ_PRUNE_BATCH_SIZE} under its own lock.
 */
// Every field is final and immutable in fact: List.of lists, knob constants, method references.
@SuppressWarnings("ImmutableEnumChecker")
public enum SweepCatalog {
  /** S1: running jobs whose lease expired or whose owner is lost go back or end (its own class). */
  RECLAIM_EXPIRED_LOCKS(
      "S1",
      LeaseReclaimSweep.NAME,
      Cadence.DRAINED,
      BatchSizeSource.EVENT_WRITER,
      true,
      null,
      null,
      List.of()),
  /** S2: jobs past their {@code schedule_to_close} deadline fail. */
  SWEEP_DEADLINE_EXCEEDED(
      "S2",
      "sweep_deadline_exceeded",
      Cadence.DRAINED,
      BatchSizeSource.EVENT_WRITER,
      true,
      null,
      null,
      List.of(
          SweepStatement.query(
              "deadline.sql", "sweep_deadline_exceeded", "failed", BATCH_SIZE, WAKE_CHANNEL))),
  /** S3: due scheduled jobs become pending, one wake NOTIFY when any moved (the 1-second loop). */
  SCHEDULED_TO_PENDING(
      "S3",
      "scheduled_to_pending",
      Cadence.EVERY_SECOND,
      BatchSizeSource.EVENT_WRITER,
      true,
      null,
      null,
      List.of(
          SweepStatement.query(
              "promote.sql", "scheduled_to_pending", "promoted", BATCH_SIZE, WAKE_CHANNEL))),
  /** S4: reservation slots whose lease expired are freed. */
  SWEEP_LEAKED_RESERVATION_SLOTS(
      "S4",
      "sweep_leaked_reservation_slots",
      Cadence.DRAINED,
      BatchSizeSource.EVENT_WRITER,
      false,
      null,
      null,
      List.of(
          SweepStatement.update(
              "sweep/leaked_reservation_slots.sql", "free_expired_slots", BATCH_SIZE))),
  /** S5, the result TTL: expired stored results are nulled. */
  SWEEP_EXPIRED_RESULTS(
      "S5",
      "sweep_expired_results",
      Cadence.DRAINED,
      BatchSizeSource.EVENT_WRITER,
      false,
      null,
      null,
      List.of(
          SweepStatement.update("sweep/expired_results.sql", "null_expired_results", BATCH_SIZE))),
  /**
   * S6: stale workers are deleted, their attempts detached first (two statements, so the {@code ON
   * DELETE SET NULL} fan-out is bounded too: at most 2 x batch size rows).
   */
  CLEANUP_STALE_WORKERS(
      "S6",
      "cleanup_stale_workers",
      Cadence.DRAINED,
      BatchSizeSource.EVENT_WRITER,
      false,
      PeriodKnob.WORKER_STALE_AFTER,
      null,
      List.of(
          SweepStatement.update(
              "sweep/stale_workers.sql", "detach_stale_attempts", PERIOD_MICROS, BATCH_SIZE),
          SweepStatement.update(
              "sweep/stale_workers.sql", "delete_stale_workers", PERIOD_MICROS, BATCH_SIZE))),
  /** S7: active batches whose completion was lost are completed, their hook enqueued. */
  COMPLETE_STALE_BATCHES(
      "S7",
      "complete_stale_batches",
      Cadence.DRAINED,
      BatchSizeSource.EVENT_WRITER,
      false,
      null,
      null,
      List.of(
          SweepStatement.query(
              "sweep/stale_batches.sql", "complete_stale_batches", "completed", BATCH_SIZE))),
  /** S8, the event TTL: old {@code job_events} rows go, the prune watermarks rise (E2). */
  SWEEP_EXPIRED_EVENTS(
      "S8",
      "sweep_expired_events",
      Cadence.ONE_BATCH_PER_TICK,
      BatchSizeSource.EXPIRED_EVENTS,
      false,
      PeriodKnob.EVENT_RETENTION,
      null,
      List.of(
          SweepStatement.query(
              "sweep/expired_events.sql",
              "delete_expired_events",
              "deleted",
              PERIOD_MICROS,
              BATCH_SIZE,
              RECLAIM_SLICE_MICROS,
              BATCH_SIZE))),
  /** S9: keyed slot and bucket rows unused past the reclaim period go (batch size per table). */
  SWEEP_IDLE_KEYED_ROWS(
      "S9",
      "sweep_idle_keyed_rows",
      Cadence.ONE_BATCH_PER_TICK,
      BatchSizeSource.IDLE_KEYED_ROWS,
      false,
      PeriodKnob.KEYED_ROW_RECLAIM,
      null,
      List.of(
          SweepStatement.update(
                  "sweep/idle_keyed_rows.sql",
                  "delete_idle_keyed_rows",
                  PERIOD_MICROS,
                  BATCH_SIZE,
                  PERIOD_MICROS,
                  BATCH_SIZE)
              .counting("reservation_slots", "rate_limit_buckets"))),
  /** S11 prune: terminal jobs move to {@code jobs_archive}, daily under their own lock. */
  PRUNE(
      "S11",
      "prune",
      Cadence.DAILY,
      BatchSizeSource.PRUNE,
      false,
      PeriodKnob.PRUNE_AFTER,
      DailyRun.PRUNE,
      List.of(
          SweepStatement.update(
              "sweep/prune.sql", "archive_finished_jobs", PERIOD_MICROS, BATCH_SIZE))),
  /** S11 archive expiry: archived jobs past their retention are deleted, daily. */
  ARCHIVE_EXPIRY(
      "S11",
      "archive_expiry",
      Cadence.DAILY,
      BatchSizeSource.PRUNE,
      false,
      PeriodKnob.ARCHIVE_RETENTION,
      DailyRun.ARCHIVE_EXPIRY,
      List.of(
          SweepStatement.update(
              "sweep/archive_expiry.sql", "delete_expired_archive", PERIOD_MICROS, BATCH_SIZE)));

  private final String id;
  private final String sweepName;
  private final Cadence cadence;
  private final BatchSizeSource batchSize;
  private final boolean breaker;
  private final @Nullable PeriodKnob period;
  private final @Nullable DailyRun daily;
  private final List<SweepStatement> statements;

  SweepCatalog(
      String id,
      String sweepName,
      Cadence cadence,
      BatchSizeSource batchSize,
      boolean breaker,
      @Nullable PeriodKnob period,
      @Nullable DailyRun daily,
      List<SweepStatement> statements) {
    this.id = id;
    this.sweepName = sweepName;
    this.cadence = cadence;
    this.batchSize = batchSize;
    this.breaker = breaker;
    this.period = period;
    this.daily = daily;
    this.statements = statements;
  }

  /** The guide's number, e.g. {@code S4}. */
  public String id() {
    return id;
  }

  /** The {@code sweep_name} metric label. */
  public String sweepName() {
    return sweepName;
  }

  /** How often the loops run it, and whether a tick drains it. */
  public Cadence cadence() {
    return cadence;
  }

  /** Where its batch size comes from. */
  public BatchSizeSource batchSize() {
    return batchSize;
  }

  /** True when its {@code SweepBatchSizer} sizes each batch (T2: S1-S3). */
  public boolean breakerWrapped() {
    return breaker;
  }

  /** Its period knob, or null. */
  public @Nullable PeriodKnob period() {
    return period;
  }

  /** For a {@link Cadence#DAILY} row its run time and own lock; null: the leader fence alone. */
  public @Nullable DailyRun daily() {
    return daily;
  }

  /** Its statements, in the order a batch runs them; empty for S1, whose class holds its own. */
  public List<SweepStatement> statements() {
    return statements;
  }

  /**
   * The batch of a row without a period (S2-S5, S7) for {@code schema}.
   *
   * @throws IllegalStateException for S1 or a row with a period
   */
  public StatementSweep batch(SchemaName schema) {
    if (period != null) {
      throw new IllegalStateException(sweepName + " needs its period " + period.knob().envName());
    }
    return statementSweep(schema, null);
  }

  /**
   * The batch of a row with a period (S6, S8, S9, S11) for {@code schema}.
   *
   * @throws IllegalArgumentException naming the knob when {@code period} is out of its range
   * @throws IllegalStateException for a row without a period
   */
  public StatementSweep batch(SchemaName schema, Duration period) {
    PeriodKnob knob = this.period;
    if (knob == null) {
      throw new IllegalStateException(sweepName + " has no period");
    }
    return statementSweep(schema, knob.of(period));
  }

  private StatementSweep statementSweep(SchemaName schema, @Nullable SweepPeriod value) {
    if (this == RECLAIM_EXPIRED_LOCKS) {
      throw new IllegalStateException(sweepName + " is a LeaseReclaimSweep");
    }
    return new StatementSweep(
        schema, sweepName, statements, value, daily == null ? null : daily.lock());
  }

  /**
   * This row's sweep for {@code schema}, built from {@code settings}, and how the loops run it.
   *
   * @param listener receives S1's committed reclaim counts
   */
  public SweepSpec spec(
      SchemaName schema, MaintenanceSettings settings, MaintenanceListener listener) {
    SweepBatch sweep = sweep(schema, settings, listener);
    if (breaker) {
      return SweepSpec.breakerWrapped(sweep, cadence);
    }
    int size = batchSize.of(settings);
    return switch (cadence) {
      case DRAINED -> SweepSpec.drained(sweep, size);
      case ONE_BATCH_PER_TICK -> SweepSpec.oneBatchPerTick(sweep, size);
      case EVERY_SECOND -> SweepSpec.everySecond(sweep, size);
      case DAILY -> daily(sweep, size, schema, settings);
    };
  }

  private SweepSpec daily(
      SweepBatch sweep, int size, SchemaName schema, MaintenanceSettings settings) {
    DailyRun at = Objects.requireNonNull(daily, "daily");
    return SweepSpec.daily(sweep, size, at.at(settings), AdvisoryLockName.of(at.lock(), schema));
  }

  private SweepBatch sweep(
      SchemaName schema, MaintenanceSettings settings, MaintenanceListener listener) {
    if (this == RECLAIM_EXPIRED_LOCKS) {
      return new LeaseReclaimSweep(
          schema, settings.workerStaleAfter(), settings.maxRetryBackoff(), listener);
    }
    return statementSweep(schema, period == null ? null : period.of(settings));
  }

  /** The specs of the rows {@code which} keeps, in table order. */
  public static List<SweepSpec> specs(
      SchemaName schema,
      MaintenanceSettings settings,
      MaintenanceListener listener,
      Predicate<SweepCatalog> which) {
    return Arrays.stream(values())
        .filter(which)
        .map(row -> row.spec(schema, settings, listener))
        .toList();
  }
}
