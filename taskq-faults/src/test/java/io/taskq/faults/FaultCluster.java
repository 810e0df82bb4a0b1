package io.taskq.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.JobRequest;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.testing.servers.PrivatePostgres;
import io.taskq.testing.servers.PrivateRedis;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.StringJoiner;
import java.util.function.BooleanSupplier;

/**
 * One scenario's world: a PostgreSQL cluster and a Redis server of its own (on free ports; as root
 * the cluster runs as {@code postgres} through {@code setpriv}), the harness schema {@value
 * #HARNESS_SCHEMA} with the worker JVMs' execution records, a producer TaskQ (which migrates the
 * TaskQ schema {@value #SCHEMA} first), and the worker JVMs the scenario starts. {@link #close()}
 * kills and stops everything.
 *
 * <pre>{@code
 * try (FaultCluster cluster = FaultCluster.start("worker-kill")) {
 *   WorkerJvm a = cluster.worker("a");
 *   List<Long> ids = cluster.enqueue(200, 100);
 *   a.kill();
 *   cluster.awaitDrained(ids, Duration.ofSeconds(60));
 *   cluster.assertInvariants();
 * }
 * }</pre>
 */
final class FaultCluster implements AutoCloseable {
  static final String SCHEMA = "taskq";
  static final String HARNESS_SCHEMA = "faults";

  /** Lease and sweep settings short enough that a reclaim takes seconds, not minutes. */
  static final Duration LEASE = Duration.ofSeconds(3);

  static final Duration SWEEP_INTERVAL = Duration.ofMillis(500);

  private final String name;
  private final PrivatePostgres pg;
  private final PrivateRedis redis;
  private final TaskQ producer;
  private final Path logDir;
  private final List<WorkerJvm> workers = new ArrayList<>();
  private final long startedAt = System.nanoTime();

  private FaultCluster(String name, PrivatePostgres pg, PrivateRedis redis, TaskQ producer) {
    this.name = name;
    this.pg = pg;
    this.redis = redis;
    this.producer = producer;
    this.logDir =
        Path.of("target", "faults-logs")
            .resolve(
                name
                    + "-"
                    + LocalDateTime.now(java.time.ZoneOffset.UTC)
                        .format(DateTimeFormatter.ofPattern("HHmmss")))
            .toAbsolutePath();
  }

  /**
   * Starts the servers, the harness schema and the producer.
   *
   * @param name the scenario's name (its logs go to {@code target/faults-logs/<name>-<time>})
   * @param pgSettings server settings for the cluster ({@code name=value})
   */
  static FaultCluster start(String name, String... pgSettings) throws SQLException {
    PrivatePostgres pg = PrivatePostgres.start(List.of(pgSettings));
    PrivateRedis redis = null;
    TaskQ producer = null;
    try {
      redis = PrivateRedis.start();
      try (Connection c = DriverManager.getConnection(pg.jdbcUrl());
          Statement st = c.createStatement()) {
        st.execute("CREATE SCHEMA " + HARNESS_SCHEMA);
        st.execute(
            "CREATE TABLE "
                + HARNESS_SCHEMA
                + ".executions (id bigserial PRIMARY KEY, job_id bigint NOT NULL,"
                + " attempt integer NOT NULL, pid bigint NOT NULL, worker text NOT NULL,"
                + " lease_token bigint, started_at timestamptz NOT NULL DEFAULT clock_timestamp(),"
                + " finished_at timestamptz)");
        st.execute("CREATE INDEX ON " + HARNESS_SCHEMA + ".executions (job_id, attempt)");
        st.execute(
            "CREATE TABLE "
                + HARNESS_SCHEMA
                + ".fenced (id bigserial PRIMARY KEY, pid bigint NOT NULL, worker text,"
                + " at timestamptz NOT NULL DEFAULT clock_timestamp())");
      }
      producer =
          TaskQ.producer()
              .config(
                  TaskQConfig.builder()
                      .schemaName(SCHEMA)
                      .databaseUrl(pg.jdbcUrl())
                      .databasePoolSize(4)
                      .socketTimeout(Duration.ofSeconds(10))
                      .connectTimeout(Duration.ofSeconds(5))
                      .build())
              .knownActors(List.of(FaultActors.work()))
              .maintenance(false)
              .build();
      producer.start();
      return new FaultCluster(name, pg, redis, producer);
    } catch (RuntimeException | SQLException e) {
      if (producer != null) {
        producer.close();
      }
      if (redis != null) {
        redis.close();
      }
      pg.close();
      throw e;
    }
  }

  PrivatePostgres postgres() {
    return pg;
  }

  PrivateRedis redis() {
    return redis;
  }

  TaskQ producer() {
    return producer;
  }

  /**
   * The environment of a worker JVM: the {@code TASKQ_*} settings of a small, fast-reclaiming
   * deployment on this cluster, with {@code overrides} on top.
   */
  Map<String, String> workerEnv(Map<String, String> overrides) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("TASKQ_DATABASE_URL", pg.jdbcUrl());
    env.put("TASKQ_SCHEMA_NAME", SCHEMA);
    env.put("TASKQ_REDIS_URL", redis.uri());
    env.put("TASKQ_DATABASE_POOL_SIZE", "6");
    env.put("TASKQ_WORKER_CONCURRENCY", "4");
    env.put("TASKQ_POLL_INTERVAL", "200ms");
    env.put("TASKQ_LEASE_PERIOD", LEASE.toSeconds() + "s");
    env.put("TASKQ_HEARTBEAT_INTERVAL", "500ms");
    env.put("TASKQ_WORKER_STALE_AFTER", "6s");
    env.put("TASKQ_SWEEP_INTERVAL", SWEEP_INTERVAL.toMillis() + "ms");
    env.put("TASKQ_SHUTDOWN_GRACE", "5s");
    env.put("TASKQ_SOCKET_TIMEOUT", "10s");
    env.put("TASKQ_CONNECT_TIMEOUT", "5s");
    env.put("TASKQ_DISPATCHER_COMMAND_TIMEOUT", "5s");
    env.put("FAULTS_HARNESS_SCHEMA", HARNESS_SCHEMA);
    env.putAll(overrides);
    return env;
  }

  /** Starts a worker JVM with the default settings and waits until its TaskQ started. */
  WorkerJvm worker(String workerName) {
    return worker(workerName, Map.of());
  }

  /** Starts a worker JVM with {@code overrides} on the default settings; waits until started. */
  WorkerJvm worker(String workerName, Map<String, String> overrides) {
    WorkerJvm w = startWorker(workerName, overrides);
    return w.awaitReady(Duration.ofSeconds(60));
  }

  /** Starts a worker JVM without waiting (start several, then {@link WorkerJvm#awaitReady}). */
  WorkerJvm startWorker(String workerName, Map<String, String> overrides) {
    WorkerJvm w = WorkerJvm.start(workerName, workerEnv(overrides), logDir);
    workers.add(w);
    return w;
  }

  List<WorkerJvm> workers() {
    return List.copyOf(workers);
  }

  /** Enqueues {@code n} jobs of {@code sleepMs} each, 1 000 per round trip; returns their ids. */
  List<Long> enqueue(int n, long sleepMs) {
    List<Long> ids = new ArrayList<>(n);
    for (int from = 0; from < n; from += 1000) {
      List<JobRequest> chunk = new ArrayList<>();
      for (int i = from; i < Math.min(n, from + 1000); i++) {
        chunk.add(FaultActors.job(sleepMs));
      }
      ids.addAll(producer.jobs().enqueueAll(chunk));
    }
    return ids;
  }

  /**
   * Enqueues {@code n} jobs of {@code sleepMs} each, due {@code delay} from now (S3 promotes them).
   */
  List<Long> enqueueDelayed(int n, long sleepMs, Duration delay) {
    List<JobRequest> jobs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      jobs.add(FaultActors.job(sleepMs).toBuilder().delay(delay).build());
    }
    return producer.jobs().enqueueAll(jobs);
  }

  /** The database's clock now, as SQL text to compare with (e.g. {@code started_at > '...'}). */
  String databaseNow() {
    try (Connection c = connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT clock_timestamp()::text")) {
      rs.next();
      return rs.getString(1);
    } catch (SQLException e) {
      throw new IllegalStateException("could not read the database clock: " + e.getMessage(), e);
    }
  }

  /** A new connection to the cluster's {@code postgres} database (short timeouts). */
  Connection connect() throws SQLException {
    Properties props = new Properties();
    props.setProperty("connectTimeout", "5");
    props.setProperty("socketTimeout", "30");
    props.setProperty("ApplicationName", "faults-harness");
    return DriverManager.getConnection(pg.jdbcUrl(), props);
  }

  /** {@code SELECT count(*)} style: the first column of the first row, as a long. */
  long count(String sql) {
    try (Connection c = connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException(sql + ": " + e.getMessage(), e);
    }
  }

  /** Jobs by status, e.g. {@code {succeeded=200, running=3}}. */
  Map<String, Long> statusCounts() {
    Map<String, Long> counts = new LinkedHashMap<>();
    try (Connection c = connect();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT status, count(*) FROM "
                    + SCHEMA
                    + ".jobs GROUP BY status ORDER BY status")) {
      while (rs.next()) {
        counts.put(rs.getString(1), rs.getLong(2));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not count jobs by status: " + e.getMessage(), e);
    }
    return counts;
  }

  /**
   * Waits until every job of {@code ids} is terminal; fails after {@code limit} with the counts by
   * status and the first jobs still open.
   *
   * @return how long it took
   */
  Duration awaitDrained(List<Long> ids, Duration limit) {
    long start = System.nanoTime();
    long deadline = start + limit.toNanos();
    while (true) {
      long open = openJobs(ids);
      if (open == 0) {
        return Duration.ofNanos(System.nanoTime() - start);
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "the queue did not drain within "
                + limit
                + ": "
                + open
                + " of "
                + ids.size()
                + " jobs not terminal; by status "
                + statusCounts()
                + "; first open: "
                + firstOpen()
                + "; worker logs in "
                + logDir);
      }
      sleep(Duration.ofMillis(200));
    }
  }

  private long openJobs(List<Long> ids) {
    try (Connection c = connect();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*) FROM unnest(?::bigint[]) AS t(id)"
                    + " LEFT JOIN "
                    + SCHEMA
                    + ".jobs j ON j.id = t.id"
                    + " WHERE j.id IS NULL OR j.status NOT IN"
                    + " ('succeeded', 'failed', 'crashed', 'cancelled')")) {
      ps.setArray(1, c.createArrayOf("bigint", ids.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    } catch (SQLException e) {
      // The server may be down on purpose (a restart): count it as not drained yet.
      return -1;
    }
  }

  private String firstOpen() {
    StringJoiner out = new StringJoiner("; ");
    try (Connection c = connect();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT id, status, attempt, locked_by, lock_expires_at, run_at FROM "
                    + SCHEMA
                    + ".jobs WHERE status NOT IN ('succeeded', 'failed', 'crashed', 'cancelled')"
                    + " ORDER BY id LIMIT 5")) {
      while (rs.next()) {
        out.add(
            "job "
                + rs.getLong(1)
                + " "
                + rs.getString(2)
                + " attempt "
                + rs.getInt(3)
                + " locked_by "
                + rs.getString(4)
                + " lease until "
                + rs.getString(5)
                + " run_at "
                + rs.getString(6));
      }
    } catch (SQLException e) {
      return "(could not read: " + e.getMessage() + ")";
    }
    return out.toString();
  }

  /** Polls {@code condition} every 50 ms; fails with {@code what} after {@code limit}. */
  static Duration await(BooleanSupplier condition, Duration limit, String what) {
    return await(condition, limit, () -> what);
  }

  /**
   * Polls {@code condition} every 50 ms; fails after {@code limit} with {@code what}, computed then
   * (say, with {@link #describe(List)} of the jobs concerned).
   */
  static Duration await(
      BooleanSupplier condition, Duration limit, java.util.function.Supplier<String> what) {
    long start = System.nanoTime();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - start > limit.toNanos()) {
        throw new AssertionError(what.get() + " within " + limit);
      }
      sleep(Duration.ofMillis(50));
    }
    return Duration.ofNanos(System.nanoTime() - start);
  }

  /** Milliseconds since {@code since}, a {@link System#nanoTime()} reading. */
  static long elapsedMs(long since) {
    return (System.nanoTime() - since) / 1_000_000;
  }

  static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /** The checker for this cluster's schemas, the policy's bound and twice the lease as grace. */
  InvariantChecker checker() {
    return new InvariantChecker(
        SCHEMA, HARNESS_SCHEMA, FaultActors.MAX_ATTEMPTS, LEASE.multipliedBy(2).plusSeconds(5));
  }

  /** Runs the invariant checker; the living worker JVMs are the ones not killed. */
  List<InvariantChecker.Violation> violations() {
    List<Long> live = workers.stream().filter(WorkerJvm::isAlive).map(WorkerJvm::pid).toList();
    try (Connection c = connect()) {
      return checker().check(c, live);
    } catch (SQLException e) {
      throw new AssertionError("the invariant checker failed: " + e.getMessage(), e);
    }
  }

  /** Asserts every invariant holds, listing each violation (job ids included) when not. */
  void assertInvariants() {
    List<InvariantChecker.Violation> violations = violations();
    assertThat(violations)
        .as("invariant violations after %s (worker logs in %s)", name, logDir)
        .isEmpty();
  }

  /**
   * The scenario's figures for {@code ids}: done, lost (not terminal or not succeeded), duplicated
   * (a job that ran the same attempt twice or succeeded twice), executions, fenced writes.
   */
  Figures figures(List<Long> ids) {
    long succeeded = countIn(ids, "status = 'succeeded'");
    long lost = ids.size() - succeeded;
    long duplicated =
        violations().stream()
            .filter(v -> v.rule().equals("claimed-twice"))
            .map(InvariantChecker.Violation::jobId)
            .distinct()
            .count();
    long executions = count("SELECT count(*) FROM " + HARNESS_SCHEMA + ".executions");
    long reclaimed =
        count("SELECT count(*) FROM " + SCHEMA + ".job_events WHERE kind = 'reclaimed'");
    long fenced = count("SELECT count(*) FROM " + HARNESS_SCHEMA + ".fenced");
    return new Figures(ids.size(), succeeded, lost, duplicated, executions, reclaimed, fenced);
  }

  private long countIn(List<Long> ids, String condition) {
    try (Connection c = connect();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*) FROM "
                    + SCHEMA
                    + ".jobs WHERE id = ANY (?::bigint[]) AND "
                    + condition)) {
      ps.setArray(1, c.createArrayOf("bigint", ids.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /** A scenario's outcome, printed as one line ({@code FAULTS <scenario>: ...}). */
  record Figures(
      long enqueued,
      long done,
      long lost,
      long duplicated,
      long executions,
      long reclaimed,
      long fencedWrites) {
    String line(String scenario, String extra) {
      return String.format(
          "FAULTS %s: jobs %d, done %d, lost %d, duplicated %d, executions %d, reclaimed %d,"
              + " fenced writes %d%s",
          scenario,
          enqueued,
          done,
          lost,
          duplicated,
          executions,
          reclaimed,
          fencedWrites,
          extra.isEmpty() ? "" : ", " + extra);
    }
  }

  Path logDir() {
    return logDir;
  }

  /**
   * Prints a figures line and appends it to {@code target/faults-figures.txt}, where a run's
   * figures are collected (docs/reliability.md quotes them).
   */
  static void report(String line) {
    System.out.println(line);
    try {
      java.nio.file.Files.writeString(
          Path.of("target", "faults-figures.txt"),
          line + System.lineSeparator(),
          java.nio.file.StandardOpenOption.CREATE,
          java.nio.file.StandardOpenOption.APPEND);
    } catch (java.io.IOException e) {
      System.out.println("could not append to target/faults-figures.txt: " + e);
    }
  }

  /** The worker JVM whose TaskQ holds the maintenance-leader lock now, if any. */
  java.util.Optional<WorkerJvm> leader() {
    return producer
        .operations()
        .leader()
        .flatMap(
            l ->
                workers.stream()
                    .filter(w -> l.applicationName().equals("faults-worker-" + w.pid()))
                    .findFirst());
  }

  /**
   * What the database knows of {@code ids}, for a failure message: each job's row, its execution
   * records, attempt rows and events.
   */
  String describe(List<Long> ids) {
    StringBuilder out = new StringBuilder();
    try (Connection c = connect()) {
      for (long id : ids) {
        out.append("\n  job ").append(id).append(": ");
        rows(
            c,
            out,
            "SELECT status, attempt, max_attempts, locked_by, lock_expires_at, lease_token, run_at"
                + " FROM "
                + SCHEMA
                + ".jobs WHERE id = "
                + id);
        out.append("\n    executions: ");
        rows(
            c,
            out,
            "SELECT attempt, pid, lease_token, started_at, finished_at FROM "
                + HARNESS_SCHEMA
                + ".executions WHERE job_id = "
                + id
                + " ORDER BY id");
        out.append("\n    attempts: ");
        rows(
            c,
            out,
            "SELECT attempt, outcome, worker_id, finished_at FROM "
                + SCHEMA
                + ".job_attempts WHERE job_id = "
                + id
                + " ORDER BY id");
        out.append("\n    events: ");
        rows(
            c,
            out,
            "SELECT kind, attempt, disposition, occurred_at FROM "
                + SCHEMA
                + ".job_events WHERE job_id = "
                + id
                + " ORDER BY event_id");
      }
    } catch (SQLException e) {
      out.append(" (could not read: ").append(e.getMessage()).append(')');
    }
    return out.toString();
  }

  private static void rows(Connection c, StringBuilder out, String sql) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      int columns = rs.getMetaData().getColumnCount();
      StringJoiner all = new StringJoiner(" | ");
      while (rs.next()) {
        StringJoiner row = new StringJoiner(", ", "(", ")");
        for (int i = 1; i <= columns; i++) {
          row.add(rs.getMetaData().getColumnLabel(i) + "=" + rs.getString(i));
        }
        all.add(row.toString());
      }
      out.append(all.length() == 0 ? "none" : all.toString());
    }
  }

  /** Jobs running right now on {@code worker}'s JVM (by its execution records). */
  List<Long> runningOn(WorkerJvm worker) {
    List<Long> ids = new ArrayList<>();
    try (Connection c = connect();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT j.id FROM "
                    + SCHEMA
                    + ".jobs j JOIN "
                    + HARNESS_SCHEMA
                    + ".executions x ON x.job_id = j.id AND x.attempt = j.attempt"
                    + " WHERE j.status = 'running' AND x.pid = ? AND x.finished_at IS NULL"
                    + " ORDER BY j.id")) {
      ps.setLong(1, worker.pid());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getLong(1));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
    return ids;
  }

  /** Seconds since the cluster started, for log lines. */
  double elapsedSeconds() {
    return (System.nanoTime() - startedAt) / 1e9;
  }

  @Override
  public void close() {
    for (WorkerJvm w : workers) {
      w.close();
    }
    try {
      producer.close();
    } finally {
      try {
        redis.close();
      } finally {
        pg.close();
      }
    }
  }

  // ---- shared scenario steps (the scenarios' repeated setups) ----

  /**
   * Enqueues {@code n} jobs of {@code sleepMs} each and waits (at most 30 s) until the workers have
   * started at least {@code started} executions: the load a fault then lands on.
   *
   * @return the jobs' ids
   */
  List<Long> enqueueRunning(int n, long sleepMs, int started) {
    List<Long> ids = enqueue(n, sleepMs);
    await(
        () -> count("SELECT count(*) FROM " + HARNESS_SCHEMA + ".executions") >= started,
        Duration.ofSeconds(30),
        "the workers did not start running jobs");
    return ids;
  }

  /** {@return how many jobs have succeeded so far} */
  long succeeded() {
    return count("SELECT count(*) FROM " + SCHEMA + ".jobs WHERE status = 'succeeded'");
  }

  /**
   * Waits until an execution started after {@code databaseTime} (from {@link #databaseNow()}): jobs
   * run again after a fault was lifted.
   *
   * @return how long it took
   */
  Duration awaitExecutionAfter(String databaseTime, Duration limit, String what) {
    return await(
        () ->
            count(
                    "SELECT count(*) FROM "
                        + HARNESS_SCHEMA
                        + ".executions WHERE started_at > '"
                        + databaseTime
                        + "'")
                > 0,
        limit,
        what);
  }

  /**
   * Waits until {@code worker} runs at least {@code atLeast} jobs at once, then lists them.
   *
   * @return the jobs running on it then
   */
  List<Long> awaitRunningOn(WorkerJvm worker, int atLeast, Duration limit) {
    await(
        () -> runningOn(worker).size() >= atLeast,
        limit,
        () -> worker + " did not run " + atLeast + " jobs at once");
    return runningOn(worker);
  }

  /**
   * Waits until every job of {@code ids} (taken from another worker by a kill or a freeze) has
   * started a later attempt on {@code survivor}.
   *
   * @return how long it took
   */
  Duration awaitRunAgainOn(WorkerJvm survivor, List<Long> ids, Duration limit, String what) {
    String in = String.join(",", ids.stream().map(String::valueOf).toList());
    return await(
        () ->
            count(
                    "SELECT count(DISTINCT job_id) FROM "
                        + HARNESS_SCHEMA
                        + ".executions WHERE pid = "
                        + survivor.pid()
                        + " AND attempt > 1 AND job_id IN ("
                        + in
                        + ")")
                == ids.size(),
        limit,
        () -> what + ":" + describe(ids));
  }

  /**
   * Enqueues 5 jobs every 250 ms (adding their ids to {@code enqueued}) until {@code condition}
   * holds; fails after {@code limit}. For a wait on something only a job run after a reconnect
   * shows (a key in a restarted Redis, a thawed worker running again): a fixed batch can drain
   * elsewhere before that, and then nothing would ever show it (RedisOutageTest's flake: 20 jobs
   * drained on the fallback while Lettuce was still reconnecting, and the wait for a key ran out).
   */
  void awaitWithTraffic(
      List<Long> enqueued, BooleanSupplier condition, Duration limit, String what) {
    long start = System.nanoTime();
    long nextBatch = start;
    while (!condition.getAsBoolean()) {
      long now = System.nanoTime();
      if (now - start > limit.toNanos()) {
        throw new AssertionError(
            what + " within " + limit + " (" + enqueued.size() + " jobs enqueued meanwhile)");
      }
      if (now >= nextBatch) {
        enqueued.addAll(enqueue(5, 0));
        nextBatch = now + Duration.ofMillis(250).toNanos();
      }
      sleep(Duration.ofMillis(50));
    }
  }
}
