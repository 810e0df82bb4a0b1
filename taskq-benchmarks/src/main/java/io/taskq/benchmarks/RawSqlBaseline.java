package io.taskq.benchmarks;

import java.io.IOException;
import java.io.StringReader;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.postgresql.PGConnection;

/**
 * The yardstick: what bare SQL does on the same database in the same run, with no queue library.
 *
 * <p>Its own table with a partial index; claims in batches of 10 with {@code FOR UPDATE SKIP
 * LOCKED}, acknowledges with one {@code UPDATE ... WHERE id = ANY(?)}; inserts 1000 rows per
 * multi-row statement. The claim's order and index are a {@link ClaimOrder}: the scale mode's claim
 * yardstick orders by due time then id, on an index the primary key cannot stand in for, so it
 * claims through its own index whatever its statistics say; the main benchmark and every enqueue
 * yardstick keep the table of the earlier figures ({@link ClaimOrder#ID}), so X3's yardsticks do
 * not move.
 *
 * <p>Two more enqueue yardsticks (X3), each in a table of its own so the claim baseline and TaskQ's
 * worker never see their rows: the same 1000 rows with {@code COPY} (text) into a copy of the raw
 * table, and the same multi-row INSERT of the columns TaskQ writes for a plain job into a copy of
 * TaskQ's {@code jobs} table ({@code LIKE jobs INCLUDING ALL}: its columns, defaults, constraints
 * and indexes; and its storage parameters, which LIKE does not copy, such as the fill factor),
 * without ids returned or a wake. The last one is what raw SQL pays for TaskQ's row; TaskQ's
 * enqueue beside it is the cost of the client path alone.
 */
final class RawSqlBaseline {
  static final int INSERT_ROWS_PER_STATEMENT = 1000;
  static final int CLAIM_BATCH = 10;

  /** How the raw claim orders its rows, and the partial index it has for that order. */
  enum ClaimOrder {
    /**
     * {@code ORDER BY run_at, id} on {@code (queue, run_at, id) WHERE status = 'pending'}: the fair
     * yardstick. The primary key cannot give this order, so even on a table whose statistics see
     * every row pending the claim reads its partial index, as TaskQ's claim reads its own.
     */
    RUN_AT("run_at, id"),
    /**
     * {@code ORDER BY id} on {@code (queue, id) WHERE status = 'pending'}: the yardstick of the
     * figures before 2026-12-03. Where the statistics see every row pending (the empty table) the
     * planner walks the primary key in id order with a filter instead, re-reading every row already
     * claimed: raw SQL's worst plan.
     */
    ID("id");

    private final String columns;

    ClaimOrder(String columns) {
      this.columns = columns;
    }

    /** {@code run_at} or {@code id}, as the flag {@code --raw-order} takes it. */
    static ClaimOrder of(String flag) {
      for (ClaimOrder order : values()) {
        if (order.name().equalsIgnoreCase(flag.replace("-", "_"))) {
          return order;
        }
      }
      throw new IllegalArgumentException("--raw-order takes run_at or id, was " + flag);
    }
  }

  private final DataSource dataSource;
  private final ClaimOrder order;
  private final String table;
  private final String insertSql;
  private final String jobsTable;
  private final String copyTable;
  private final String wideTable;
  private final String wideInsertSql;
  private CpuTicks.Used lastCpu = new CpuTicks.Used("CPU per job: no claim run yet", Double.NaN);

  /** The baseline of the earlier figures: claims in id order ({@link ClaimOrder#ID}). */
  RawSqlBaseline(DataSource dataSource, String schemaQuoted) {
    this(dataSource, schemaQuoted, ClaimOrder.ID);
  }

  RawSqlBaseline(DataSource dataSource, String schemaQuoted, ClaimOrder order) {
    this.dataSource = dataSource;
    this.order = order;
    this.table = schemaQuoted + ".raw_jobs";
    this.jobsTable = schemaQuoted + ".jobs";
    this.copyTable = schemaQuoted + ".raw_jobs_copy";
    this.wideTable = schemaQuoted + ".raw_jobs_wide";
    StringBuilder sql = new StringBuilder("INSERT INTO " + table + " (status, payload) VALUES ");
    StringBuilder wide =
        new StringBuilder(
            "INSERT INTO "
                + wideTable
                + " (actor, queue, status, priority, payload, labels, run_at, max_attempts,"
                + " retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter, created_at) VALUES ");
    for (int i = 0; i < INSERT_ROWS_PER_STATEMENT; i++) {
      sql.append(i == 0 ? "" : ",").append("('pending', ?::jsonb)");
      wide.append(i == 0 ? "" : ",")
          .append(
              "('bench-noop', 'default', 'pending', 0, ?::jsonb, '{}', now(), 20, 'exponential',"
                  + " 1000, 600000, 0.2, now())");
    }
    this.insertSql = sql.toString();
    this.wideInsertSql = wide.toString();
  }

  /** The claim's order, as its {@code ORDER BY} lists it. */
  String orderColumns() {
    return order.columns;
  }

  /** The baseline's table, quoted. */
  String table() {
    return table;
  }

  void reset() throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS " + table);
      s.execute(
          "CREATE TABLE "
              + table
              + " (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, status text NOT NULL,"
              + " payload jsonb NOT NULL, run_at timestamptz NOT NULL DEFAULT now(),"
              + " queue text NOT NULL DEFAULT 'bench')");
      // A queue column and an index leading with it, then the claim's order, as raw SQL serving
      // one queue of several would have (the scale mode puts other queues' rows here too).
      s.execute(
          "CREATE INDEX ON " + table + " (queue, " + order.columns + ") WHERE status = 'pending'");
      s.execute("DROP TABLE IF EXISTS " + copyTable);
      s.execute("CREATE TABLE " + copyTable + " (LIKE " + table + " INCLUDING ALL)");
      s.execute("DROP TABLE IF EXISTS " + wideTable);
      s.execute("CREATE TABLE " + wideTable + " (LIKE " + jobsTable + " INCLUDING ALL)");
      // LIKE copies no storage parameters: give the copy jobs' own (V013's fill factor), so it
      // is the table TaskQ writes to.
      try (ResultSet rs =
          s.executeQuery(
              "SELECT array_to_string(reloptions, ', ') FROM pg_class WHERE oid = '"
                  + jobsTable.replace("'", "''")
                  + "'::regclass")) {
        String options = rs.next() ? rs.getString(1) : null;
        if (options != null && !options.isEmpty()) {
          s.execute("ALTER TABLE " + wideTable + " SET (" + options + ")");
        }
      }
    }
  }

  /** ANALYZE of the enqueue yardsticks' own tables. */
  void analyze() throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute("ANALYZE " + copyTable);
      s.execute("ANALYZE " + wideTable);
    }
  }

  /**
   * {@value #INSERT_ROWS_PER_STATEMENT} rows like {@link #insertBatch}'s with {@code COPY ... FROM
   * STDIN} (text) into a copy of the raw table; returns the elapsed nanoseconds, the text built
   * included.
   */
  long copyBatch(int first) throws SQLException {
    long start = System.nanoTime();
    StringBuilder rows = new StringBuilder(INSERT_ROWS_PER_STATEMENT * 20);
    for (int i = 0; i < INSERT_ROWS_PER_STATEMENT; i++) {
      rows.append("pending\t{\"n\":").append(first + i).append("}\n");
    }
    try (Connection c = dataSource.getConnection()) {
      c.unwrap(PGConnection.class)
          .getCopyAPI()
          .copyIn(
              "COPY " + copyTable + " (status, payload) FROM STDIN",
              new StringReader(rows.toString()));
    } catch (IOException e) {
      throw new SQLException("COPY into " + copyTable + " failed", e);
    }
    return System.nanoTime() - start;
  }

  /**
   * The multi-row INSERT of {@link #insertBatch} with the columns TaskQ writes for a plain job,
   * into a copy of TaskQ's {@code jobs} table; returns the elapsed nanoseconds.
   */
  long insertWideBatch(int first) throws SQLException {
    long start = System.nanoTime();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(wideInsertSql)) {
      for (int i = 0; i < INSERT_ROWS_PER_STATEMENT; i++) {
        ps.setString(i + 1, "{\"n\":" + (first + i) + "}");
      }
      ps.executeUpdate();
    }
    return System.nanoTime() - start;
  }

  /**
   * Inserts {@value #INSERT_ROWS_PER_STATEMENT} pending rows with one multi-row statement on a
   * connection borrowed for the call (as {@code JobsClient.enqueueAll} borrows one); returns the
   * elapsed nanoseconds, building the parameters included.
   *
   * @param first the number of the first row, for its payload
   */
  long insertBatch(int first) throws SQLException {
    long start = System.nanoTime();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(insertSql)) {
      for (int i = 0; i < INSERT_ROWS_PER_STATEMENT; i++) {
        ps.setString(i + 1, "{\"n\":" + (first + i) + "}");
      }
      ps.executeUpdate();
    }
    return System.nanoTime() - start;
  }

  /** The CPU used inside the last {@link #claimAll} interval, per job. */
  CpuTicks.Used lastCpu() {
    return lastCpu;
  }

  /**
   * Claims and completes every pending row with {@code threads} workers; returns the nanoseconds
   * from the moment the workers, connected and with their statements prepared, are let go until the
   * last finds nothing left. {@link #lastCpu()} then says the CPU used in that interval.
   */
  long claimAll(int threads, int expected) throws Exception {
    String claim =
        "UPDATE "
            + table
            + " SET status = 'running' WHERE id IN (SELECT id FROM "
            + table
            + " WHERE queue = 'bench' AND status = 'pending' ORDER BY "
            + order.columns
            + " FOR UPDATE SKIP LOCKED"
            + " LIMIT "
            + CLAIM_BATCH
            + ") RETURNING id";
    String done = "UPDATE " + table + " SET status = 'done' WHERE id = ANY(?)";
    AtomicLong completed = new AtomicLong();
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      workers.add(
          pool.submit(
              () -> {
                try (Connection c = dataSource.getConnection();
                    PreparedStatement claimPs = c.prepareStatement(claim);
                    PreparedStatement donePs = c.prepareStatement(done)) {
                  ready.countDown();
                  go.await();
                  while (true) {
                    List<Long> ids = new ArrayList<>(CLAIM_BATCH);
                    try (ResultSet rs = claimPs.executeQuery()) {
                      while (rs.next()) {
                        ids.add(rs.getLong(1));
                      }
                    }
                    if (ids.isEmpty()) {
                      return null;
                    }
                    Array array = c.createArrayOf("bigint", ids.toArray());
                    donePs.setArray(1, array);
                    donePs.executeUpdate();
                    completed.addAndGet(ids.size());
                  }
                }
              }));
    }
    ready.await();
    CpuTicks cpu = CpuTicks.read();
    long start = System.nanoTime();
    go.countDown();
    for (Future<?> worker : workers) {
      worker.get();
    }
    long elapsed = System.nanoTime() - start;
    lastCpu = CpuTicks.read().usedSince(cpu, expected);
    pool.shutdown();
    pool.awaitTermination(10, TimeUnit.SECONDS);
    if (completed.get() != expected) {
      throw new IllegalStateException(
          "baseline completed " + completed.get() + " rows, expected " + expected);
    }
    return elapsed;
  }
}
