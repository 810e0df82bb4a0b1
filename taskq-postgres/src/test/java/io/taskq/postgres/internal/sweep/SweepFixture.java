package io.taskq.postgres.internal.sweep;

import io.taskq.SchemaName;
import io.taskq.postgres.internal.migrate.Migrations;
import io.taskq.postgres.testing.Db;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * A migrated, emptied schema the sweep tests write their own rows into, and the transaction
 * plumbing the sweep loop would otherwise provide (BEGIN, run one batch, COMMIT).
 */
final class SweepFixture {
  /** The columns every jobs row needs, in the order of {@link #JOB_VALUES}. */
  static final String JOB_COLUMNS =
      "actor, queue, status, payload, run_at, max_attempts,"
          + " retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter";

  /** Values for {@link #JOB_COLUMNS}, with {@code %s} where the status goes. */
  static final String JOB_VALUES =
      "'a', 'q', '%s', '{}'::jsonb, now(), 3, 'constant', 1000, 1000, 0";

  private static final String TABLES =
      "jobs, job_attempts, job_events, workers, jobs_archive, batches, reservation_slots,"
          + " rate_limit_buckets, actor_config";

  final SchemaName schema;
  final DataSource ds;
  final Db db;

  private SweepFixture(SchemaName schema, DataSource ds) {
    this.schema = schema;
    this.ds = ds;
    this.db = new Db(ds);
  }

  /** Migrates {@code schema} (idempotent) and empties every table the sweeps touch. */
  static SweepFixture fresh(DataSource ds, String schema) {
    SweepFixture f = new SweepFixture(SchemaName.of(schema), ds);
    Migrations.apply(ds, f.schema);
    f.db.execute(
        "TRUNCATE "
            + String.join(", ", qualified(f.schema, TABLES.split(",\\s*")))
            + " RESTART IDENTITY");
    f.db.execute(
        "UPDATE "
            + f.t("maintenance_state")
            + " SET value = 0, writer_xid = CASE WHEN key = 'reclaim_event_prune_watermark'"
            + " THEN '0'::xid8 END");
    return f;
  }

  /** The schema-qualified table name. */
  String t(String table) {
    return schema.quoted() + "." + table;
  }

  /** Rows of {@code table} matching {@code where} (an SQL condition; {@code true} for all). */
  long count(String table, String where) {
    return db.queryLong("SELECT count(*) FROM " + t(table) + " WHERE " + where);
  }

  /** Inserts {@code n} jobs of {@code status} with extra columns set by SQL expressions. */
  void insertJobs(int n, String status, String extraColumns, String extraValues) {
    String columns = extraColumns.isEmpty() ? JOB_COLUMNS : JOB_COLUMNS + ", " + extraColumns;
    String values =
        String.format(JOB_VALUES, status) + (extraValues.isEmpty() ? "" : ", " + extraValues);
    db.update(
        "INSERT INTO "
            + t("jobs")
            + " ("
            + columns
            + ") SELECT "
            + values
            + " FROM generate_series(1, ?) g",
        n);
  }

  /** One batch in its own transaction, committed. */
  int runBatch(SweepBatch sweep, int batchSize) {
    try (Connection tx = ds.getConnection()) {
      tx.setAutoCommit(false);
      try {
        int rows = sweep.run(tx, batchSize);
        tx.commit();
        return rows;
      } catch (SQLException | RuntimeException e) {
        tx.rollback();
        throw e;
      }
    } catch (SQLException e) {
      throw new IllegalStateException(sweep.sweepName() + " batch failed", e);
    }
  }

  /** Batches until one returns 0 (at most 100): each batch's count, the final 0 included. */
  List<Integer> drain(SweepBatch sweep, int batchSize) {
    List<Integer> batches = new ArrayList<>();
    int rows;
    do {
      rows = runBatch(sweep, batchSize);
      batches.add(rows);
    } while (rows > 0 && batches.size() < 100);
    return batches;
  }

  private static List<String> qualified(SchemaName schema, String... tables) {
    List<String> out = new ArrayList<>();
    for (String table : tables) {
      out.add(schema.quoted() + "." + table);
    }
    return out;
  }
}
