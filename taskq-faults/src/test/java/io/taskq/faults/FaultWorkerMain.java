package io.taskq.faults;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.taskq.JobContext;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.limits.UnavailablePolicy;
import io.taskq.redis.RedisConnector;
import io.taskq.redis.RedisProgressStore;
import io.taskq.redis.RedisRateLimiter;
import io.taskq.spi.JobListener;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The main class of a worker JVM ({@link WorkerJvm} starts it): one real TaskQ process, configured
 * from the {@code TASKQ_*} environment like a deployment, running {@link FaultActors#WORK} and
 * recording every execution in {@code faults.executions} through a small pool of its own.
 *
 * <p>Besides the {@code TASKQ_*} variables: {@code FAULTS_REDIS=true} (the actor rate-limited in
 * Redis, falling back to PostgreSQL, and progress reported to Redis with the PostgreSQL store as
 * fallback), {@code FAULTS_SHARED_POOL=true} (TaskQ on the recorder's pool, as on an application's
 * {@code DataSource}), {@code FAULTS_POOL_CONNECTION_TIMEOUT} (that pool's HikariCP {@code
 * connectionTimeout} in milliseconds, 10 000 by default; its socket timeout is {@code
 * TASKQ_SOCKET_TIMEOUT}'s), {@code FAULTS_MAINTENANCE} ({@code true} by default; {@code false}
 * makes a process that never leads) and {@code FAULTS_HARNESS_SCHEMA}. Every connection carries
 * {@code ApplicationName=faults-worker-<pid>}, so the invariant checker can tie a backend (and the
 * locks it holds) to this JVM. It prints {@code FAULTS-WORKER READY} once started, {@code
 * FAULTS-WORKER FENCED <n>} for each fenced write, with {@code FAULTS_PROBE_MS=n} {@code
 * FAULTS-WORKER PROBE <ms>} every {@code n} ms (how long the calls a probe or a gauge makes took,
 * R1), and stops gracefully on SIGTERM or when its standard input closes (the test JVM went away),
 * printing {@code FAULTS-WORKER STOPPED}.
 */
public final class FaultWorkerMain {
  static final String READY = "FAULTS-WORKER READY";
  static final String STOPPED = "FAULTS-WORKER STOPPED";
  static final String FENCED = "FAULTS-WORKER FENCED";
  static final String PROBE = "FAULTS-WORKER PROBE";

  private FaultWorkerMain() {}

  public static void main(String[] args) throws Exception {
    long pid = ProcessHandle.current().pid();
    Map<String, String> env = new HashMap<>(System.getenv());
    String url = env.get("TASKQ_DATABASE_URL");
    if (url == null) {
      throw new IllegalStateException("TASKQ_DATABASE_URL is not set");
    }
    String named = withApplicationName(url, "faults-worker-" + pid);
    env.put("TASKQ_DATABASE_URL", named);
    if (env.containsKey("TASKQ_DATABASE_DIRECT_URL")) {
      env.put(
          "TASKQ_DATABASE_DIRECT_URL",
          withApplicationName(env.get("TASKQ_DATABASE_DIRECT_URL"), "faults-worker-" + pid));
    }
    boolean maintenance = !"false".equals(env.get("FAULTS_MAINTENANCE"));
    String harness = env.getOrDefault("FAULTS_HARNESS_SCHEMA", FaultCluster.HARNESS_SCHEMA);
    TaskQConfig config = TaskQConfig.fromEnv(env);

    boolean sharedPool = "true".equals(env.get("FAULTS_SHARED_POOL"));
    HikariConfig pool = new HikariConfig();
    // Behind a transaction pooler (a direct URL is set) no named prepared statements (R2).
    String recorderUrl =
        withSetting(named, "socketTimeout=" + Math.max(1, config.socketTimeout().toSeconds()));
    pool.setJdbcUrl(
        env.containsKey("TASKQ_DATABASE_DIRECT_URL")
            ? withSetting(recorderUrl, "prepareThreshold=0")
            : recorderUrl);
    pool.setMaximumPoolSize(
        config.workerConcurrency() + 2 + (sharedPool ? config.databasePoolSize() + 2 : 0));
    pool.setConnectionTimeout(
        Long.parseLong(env.getOrDefault("FAULTS_POOL_CONNECTION_TIMEOUT", "10000")));
    pool.setPoolName("faults-recorder");
    HikariDataSource recorderPool = new HikariDataSource(pool);
    Recorder recorder = new Recorder(recorderPool, harness, config.schemaName().value(), pid);

    RedisConnector redis =
        "true".equals(env.get("FAULTS_REDIS")) ? RedisConnector.create(config) : null;
    TaskQ.Builder builder = sharedPool ? TaskQ.builder(recorderPool) : TaskQ.builder();
    if (redis != null) {
      builder
          .rateLimiters(
              (declared, postgres) ->
                  RedisRateLimiter.create(
                      redis, declared.limit(), UnavailablePolicy.fallbackTo(postgres)))
          .progress(postgres -> RedisProgressStore.builder(redis).fallback(postgres).build());
    }
    TaskQ taskq =
        builder
            .config(config)
            .maintenance(maintenance)
            .jobListener(
                new JobListener() {
                  @Override
                  public void writeFenced() {
                    recorder.fenced();
                  }
                })
            .build();
    taskq.register(
        redis != null
            ? FaultActors.limitedWork((json, ctx) -> recorder.run(json, ctx, true))
            : FaultActors.work((json, ctx) -> recorder.run(json, ctx, false)));
    taskq.start();
    recorder.worker = taskq.workerId();

    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  taskq.close();
                  if (redis != null) {
                    redis.close();
                  }
                  recorderPool.close();
                  System.out.println(STOPPED + " pid=" + pid);
                  System.out.flush();
                  stopped.countDown();
                },
                "faults-worker-stop"));
    System.out.println(
        READY + " pid=" + pid + " worker=" + taskq.workerId() + " clock=" + Instant.now());
    System.out.flush();
    if (env.containsKey("FAULTS_PROBE_MS")) {
      startProbes(taskq, Long.parseLong(env.get("FAULTS_PROBE_MS")));
    }
    // The test JVM holds our standard input open; when it goes away, so do we (gracefully).
    InputStream in = System.in;
    while (in.read() >= 0) {
      // nothing is ever sent
    }
    System.exit(0);
  }

  /**
   * R1: every {@code periodMs} calls what a readiness probe or a gauge calls ({@code isLeader()},
   * {@code health()}, {@code isRunning()}, {@code isClosed()}) and prints how long they took; none
   * may wait on the database. A call that hangs shows as a gap between the lines.
   */
  private static void startProbes(TaskQ taskq, long periodMs) {
    Thread probes =
        new Thread(
            () -> {
              while (true) {
                long start = System.nanoTime();
                boolean leader = taskq.isLeader();
                taskq.health();
                boolean up = taskq.isRunning() && !taskq.isClosed();
                long ms = (System.nanoTime() - start) / 1_000_000;
                System.out.println(PROBE + " " + ms + " leader=" + leader + " running=" + up);
                System.out.flush();
                try {
                  Thread.sleep(periodMs);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "faults-probe");
    probes.setDaemon(true);
    probes.start();
  }

  static String withApplicationName(String url, String name) {
    return withSetting(url, "ApplicationName=" + name);
  }

  private static String withSetting(String url, String setting) {
    return url + (url.contains("?") ? "&" : "?") + setting;
  }

  /** Records executions and fenced writes; every failure to record fails the attempt. */
  private static final class Recorder {
    private final HikariDataSource pool;
    private final String insert;
    private final String finish;
    private final String fenced;
    private final long pid;
    private final AtomicLong fencedWrites = new AtomicLong();
    volatile String worker = "";

    Recorder(HikariDataSource pool, String harness, String taskqSchema, long pid) {
      this.pool = pool;
      this.pid = pid;
      String h = quote(harness);
      // The lease token of this attempt: read from the row only while the row is still this
      // attempt's; a handler that resumes after its job was reclaimed and claimed again (its JVM
      // frozen between the claim and this insert) records none, not the next claim's token.
      this.insert =
          "INSERT INTO "
              + h
              + ".executions (job_id, attempt, pid, worker, lease_token)"
              + " VALUES (?, ?, ?, ?, (SELECT lease_token FROM "
              + quote(taskqSchema)
              + ".jobs WHERE id = ? AND attempt = ? AND status = 'running')) RETURNING id";
      this.finish = "UPDATE " + h + ".executions SET finished_at = clock_timestamp() WHERE id = ?";
      this.fenced = "INSERT INTO " + h + ".fenced (pid, worker) VALUES (?, ?)";
    }

    Object run(String json, JobContext ctx, boolean progress) throws Exception {
      long sleep = FaultActors.sleepMs(json, ctx.attempt());
      long idleTx = ctx.attempt() == 1 ? FaultActors.idleTxMs(json) : 0;
      long id;
      try (Connection c = pool.getConnection();
          PreparedStatement ps = c.prepareStatement(insert)) {
        ps.setLong(1, ctx.jobId());
        ps.setInt(2, ctx.attempt());
        ps.setLong(3, pid);
        ps.setString(4, worker);
        ps.setLong(5, ctx.jobId());
        ps.setInt(6, ctx.attempt());
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          id = rs.getLong(1);
        }
      }
      if (idleTx > 0) {
        idleInTransaction(idleTx);
      }
      if (progress) {
        ctx.reportProgress(1.0, "ran");
      }
      if (sleep > 0) {
        Thread.sleep(sleep);
        try (Connection c = pool.getConnection();
            PreparedStatement ps = c.prepareStatement(finish)) {
          ps.setLong(1, id);
          ps.executeUpdate();
        }
      }
      return null;
    }

    /**
     * Opens a transaction, reads, and leaves it idle for {@code millis} before committing, as a
     * handler waiting on something else mid-transaction: past {@code
     * idle_in_transaction_session_timeout} the server ends the session and the commit fails.
     */
    private void idleInTransaction(long millis) throws SQLException, InterruptedException {
      try (Connection c = pool.getConnection()) {
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("SELECT 1")) {
          ps.executeQuery().close();
        }
        Thread.sleep(millis);
        c.commit();
      }
    }

    void fenced() {
      long n = fencedWrites.incrementAndGet();
      System.out.println(FENCED + " " + n);
      System.out.flush();
      try (Connection c = pool.getConnection();
          PreparedStatement ps = c.prepareStatement(fenced)) {
        ps.setLong(1, pid);
        ps.setString(2, worker);
        ps.executeUpdate();
      } catch (SQLException e) {
        System.out.println("could not record a fenced write: " + e);
      }
    }
  }

  static String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }
}
