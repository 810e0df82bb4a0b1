package io.taskq.postgres.testing;

import io.taskq.SchemaName;
import io.taskq.postgres.internal.migrate.Migrations;
import io.taskq.testing.TestServices;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Rows the sweep tests write and read directly: jobs in every state the sweeps look at, workers
 * with chosen heartbeat ages, and the attempt and event rows the sweeps leave.
 */
public final class SweepRows {
  private final Db db;
  private final String s;

  public SweepRows(DataSource dataSource, String schema) {
    this.db = new Db(dataSource);
    this.s = SchemaName.of(schema).quoted();
  }

  /** Migrates the class's schema and returns rows on it. */
  public static SweepRows migrated(TestServices services) {
    Migrations.apply(services.dataSource(), SchemaName.of(services.schema()));
    return new SweepRows(services.dataSource(), services.schema());
  }

  public Db db() {
    return db;
  }

  /** Removes every job, attempt, event and worker (tests in a class share the schema). */
  public void clear() {
    db.execute(
        "TRUNCATE " + s + ".jobs, " + s + ".job_attempts, " + s + ".job_events, " + s + ".workers");
  }

  /** A worker row whose last heartbeat was {@code ago} before now. */
  public void worker(String id, Duration ago) {
    db.update(
        "INSERT INTO "
            + s
            + ".workers (id, hostname, pid, queues, concurrency, heartbeat_at)"
            + " VALUES (?, 'test-host', 1, '{default}', 4, now() - ?::bigint * interval '1 millisecond')",
        id,
        ago.toMillis());
  }

  /** Starts a job insert; see {@link Jobs}. */
  public Jobs jobs(int count) {
    return new Jobs(count);
  }

  public String status(long id) {
    return (String) db.queryColumn("SELECT status FROM " + s + ".jobs WHERE id = ?", id).get(0);
  }

  public long count(String whereOnJobs, Object... args) {
    return db.queryLong("SELECT count(*) FROM " + s + ".jobs WHERE " + whereOnJobs, args);
  }

  public long attempts() {
    return db.queryLong("SELECT count(*) FROM " + s + ".job_attempts");
  }

  public long events() {
    return db.queryLong("SELECT count(*) FROM " + s + ".job_events");
  }

  /** {@code sql} with {@code {schema}} replaced by the quoted schema. */
  public String sql(String sql) {
    return sql.replace("{schema}", s);
  }

  public List<Object> column(String sql, Object... args) {
    return db.queryColumn(sql(sql), args);
  }

  public long one(String sql, Object... args) {
    return db.queryLong(sql(sql), args);
  }

  /** A fluent insert of {@code count} identical jobs, each a microsecond apart in lease order. */
  public final class Jobs {
    private final int count;
    private String actor = "mailer";
    private String status = "running";
    private int attempt = 1;
    private int maxAttempts = 3;
    private String backoff = "constant";
    private long baseMs = 5_000;
    private long capMs = 60_000;
    private @Nullable String owner = "w-live";
    private Duration leaseIn = Duration.ofMinutes(-1);
    private Duration runIn = Duration.ZERO;
    private @Nullable Duration deadlineIn;
    private boolean cancelRequested;

    private Jobs(int count) {
      this.count = count;
    }

    public Jobs actor(String value) {
      actor = value;
      return this;
    }

    /** A non-running status: no owner, no lease. */
    public Jobs status(String value) {
      status = value;
      owner = null;
      return this;
    }

    public Jobs attempt(int value) {
      attempt = value;
      return this;
    }

    public Jobs maxAttempts(int value) {
      maxAttempts = value;
      return this;
    }

    public Jobs policy(String kind, long base, long cap) {
      backoff = kind;
      baseMs = base;
      capMs = cap;
      return this;
    }

    public Jobs owner(String value) {
      owner = value;
      return this;
    }

    /** The lease ends {@code value} from now (negative: already expired). */
    public Jobs leaseIn(Duration value) {
      leaseIn = value;
      return this;
    }

    public Jobs runIn(Duration value) {
      runIn = value;
      return this;
    }

    public Jobs deadlineIn(Duration value) {
      deadlineIn = value;
      return this;
    }

    public Jobs cancelRequested() {
      cancelRequested = true;
      return this;
    }

    /** Inserts the jobs and returns their ids in insertion order. */
    public List<Long> insert() {
      boolean running = status.equals("running");
      List<Object> ids =
          db.queryColumn(
              "INSERT INTO "
                  + s
                  + ".jobs (actor, queue, status, payload, run_at, attempt, max_attempts,"
                  + " retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter, deadline_at,"
                  + " locked_by, lock_expires_at, lease_token, started_at, cancel_requested_at)"
                  + " SELECT ?, 'default', ?, '{}'::jsonb,"
                  + " now() + ?::bigint * interval '1 millisecond' + g * interval '1 microsecond', ?, ?,"
                  + " ?, ?, ?, 0, now() + ?::bigint * interval '1 millisecond',"
                  + " CASE WHEN ? THEN ?::text END,"
                  + " CASE WHEN ? THEN now() + ?::bigint * interval '1 millisecond'"
                  + "   + g * interval '1 microsecond' END,"
                  + " CASE WHEN ? THEN nextval('"
                  + s
                  + ".lease_token_seq') END,"
                  + " CASE WHEN ? THEN now() END, CASE WHEN ? THEN now() END"
                  + " FROM generate_series(1, ?) g ORDER BY g RETURNING id",
              actor,
              status,
              runIn.toMillis(),
              attempt,
              maxAttempts,
              backoff,
              baseMs,
              capMs,
              deadlineIn == null ? null : deadlineIn.toMillis(),
              running,
              owner,
              running,
              leaseIn.toMillis(),
              running,
              running,
              cancelRequested,
              count);
      return ids.stream().map(id -> ((Number) id).longValue()).toList();
    }
  }
}
