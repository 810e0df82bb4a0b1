package io.taskq.postgres.internal.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.taskq.SchemaName;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.sweep.Cadence;
import io.taskq.postgres.internal.sweep.SweepSpec;
import io.taskq.postgres.internal.sweep.SweepStatement;
import io.taskq.spi.MaintenanceListener;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sweep catalog is the one list of the leader's sweeps, and its binds match its SQL. */
class SweepCatalogTest {
  private static final SchemaName SCHEMA = SchemaName.of("taskq");

  @Test
  void listsEveryLeaderSweepOfTheGuide_inOrder_withCadenceAndBreaker() {
    assertThat(SweepCatalog.values())
        .extracting(SweepCatalog::id, SweepCatalog::sweepName, SweepCatalog::cadence)
        .containsExactly(
            tuple("S1", "reclaim_expired_locks", Cadence.DRAINED),
            tuple("S2", "sweep_deadline_exceeded", Cadence.DRAINED),
            tuple("S3", "scheduled_to_pending", Cadence.EVERY_SECOND),
            tuple("S4", "sweep_leaked_reservation_slots", Cadence.DRAINED),
            tuple("S5", "sweep_expired_results", Cadence.DRAINED),
            tuple("S6", "cleanup_stale_workers", Cadence.DRAINED),
            tuple("S7", "complete_stale_batches", Cadence.DRAINED),
            tuple("S8", "sweep_expired_events", Cadence.ONE_BATCH_PER_TICK),
            tuple("S9", "sweep_idle_keyed_rows", Cadence.ONE_BATCH_PER_TICK),
            tuple("S11", "prune", Cadence.DAILY),
            tuple("S11", "archive_expiry", Cadence.DAILY));
    assertThat(Arrays.stream(SweepCatalog.values()).filter(SweepCatalog::breakerWrapped))
        .containsExactly(
            SweepCatalog.RECLAIM_EXPIRED_LOCKS,
            SweepCatalog.SWEEP_DEADLINE_EXCEEDED,
            SweepCatalog.SCHEDULED_TO_PENDING);
  }

  @Test
  void everyStatementBindsAsManyValuesAsItsSqlHasPlaceholders() {
    for (SweepCatalog row : SweepCatalog.values()) {
      for (SweepStatement s : row.statements()) {
        String sql =
            NamedStatements.load("io/taskq/postgres/sql/" + s.resource(), SCHEMA).get(s.name());
        assertThat(placeholders(sql)).as(row + " " + s.name()).isEqualTo(s.binds().size());
      }
    }
  }

  @Test
  void specsOfTheDefaultSettings_followTheGuide() {
    List<SweepSpec> specs =
        SweepCatalog.specs(
            SCHEMA, MaintenanceSettings.defaults(), MaintenanceListener.NONE, row -> true);

    assertThat(specs)
        .extracting(s -> s.sweep().sweepName(), SweepSpec::isBreakerWrapped, SweepSpec::batchSize)
        .containsExactly(
            tuple("reclaim_expired_locks", true, 0),
            tuple("sweep_deadline_exceeded", true, 0),
            tuple("scheduled_to_pending", true, 0),
            tuple("sweep_leaked_reservation_slots", false, 100),
            tuple("sweep_expired_results", false, 100),
            tuple("cleanup_stale_workers", false, 100),
            tuple("complete_stale_batches", false, 100),
            tuple("sweep_expired_events", false, 10_000),
            tuple("sweep_idle_keyed_rows", false, 256),
            tuple("prune", false, 10_000),
            tuple("archive_expiry", false, 10_000));
  }

  @Test
  void aRowBuildsItsBatchOnlyWithThePeriodItNeeds() {
    assertThatThrownBy(() -> SweepCatalog.CLEANUP_STALE_WORKERS.batch(SCHEMA))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("TASKQ_WORKER_STALE_AFTER");
    assertThatThrownBy(() -> SweepCatalog.SWEEP_EXPIRED_RESULTS.batch(SCHEMA, Duration.ofDays(1)))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> SweepCatalog.RECLAIM_EXPIRED_LOCKS.batch(SCHEMA))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("LeaseReclaimSweep");
  }

  /** The {@code ?} placeholders of {@code sql}, outside comments and string literals. */
  private static int placeholders(String sql) {
    int count = 0;
    for (String line : sql.lines().toList()) {
      String code = line.contains("--") ? line.substring(0, line.indexOf("--")) : line;
      code = code.replaceAll("'[^']*'", "''");
      count += (int) code.chars().filter(c -> c == '?').count();
    }
    return count;
  }
}
